"""Tables keep dealing through the round: an event table whose
humans are all on 托管 deals its next hand until the round's hand count (or
clock) says stop; an ordinary room whose humans are all on 托管 still stops
at the end of the hand (docs/tournaments.md, "Running a round")."""

from __future__ import annotations

import pytest

from clubs import services
from clubs.running import events
from games import services as game_services
from games.models import Hand, Room, Seat

pytestmark = pytest.mark.django_db


def complete(room) -> int:
    return Hand.objects.filter(match__room=room, complete=True).count()


def test_event_table_on_autoplay_plays_every_hand_of_the_round(club_setup, multipliers, make_user, driver,
                                                             finish):
    """mike and pam (a pair) against a bot pair, 3 hands per round; both go
    on 托管 during hand 1 and stay there: the table still plays hands 2 and 3,
    then stops (the planner's hand count), and the result counts 3 hands."""
    club, olga, mike, *_ = club_setup
    pam = make_user("pam")
    services.join_club(pam, club.join_code)
    event = events.create_event(olga, club, name="托管", game="shengji", rounds=1, hands_per_round=3,
                                bot_delay_ms=0)
    entry = events.register(mike, event, partner="pam")
    events.confirm(pam, entry)
    events.add_bot_entries(olga, event, 1)
    r = events.start_round(olga, events.pair_round(olga, event))
    room = r.tables.get().room
    for u in (mike, pam):
        game_services.set_ready(room, u)
    assert Hand.objects.filter(match__room=room).count() == 1
    for u in (mike, pam):
        game_services.set_autoplay(room, u, True)
    driver(room, lambda rm: complete(rm) == 3, max_steps=4000, stay=False)
    assert list(Seat.objects.filter(room=room, user__isnull=False).values_list("autoplay", "ready")) == [
        (True, True), (True, True)]
    finish(r, 3)
    assert Hand.objects.filter(match__room=room).count() == 3  # no fourth hand
    table = r.tables.get()
    assert table.result["hands"] == 3


def test_ordinary_room_on_autoplay_stops_after_the_hand(make_user, multipliers, driver):
    """Outside events nothing changes: when every human is on 托管 at the end
    of a hand, the room waits (the humans are marked not ready)."""
    alice = make_user("alice")
    room = game_services.create_room(alice, "shengji", "普通房间", bot_delay_ms=0)
    room = Room.objects.get(pk=room.pk) if not isinstance(room, Room) else room
    game_services.fill_bots(room, alice, "heuristic")
    game_services.set_ready(room, alice)
    game_services.set_autoplay(room, alice, True)
    driver(room, lambda rm: complete(rm) == 1, max_steps=4000, stay=False)
    driver(room, lambda rm: rm.status == Room.Status.WAITING, max_steps=50, stay=False)
    assert Hand.objects.filter(match__room=room).count() == 1
    assert list(Seat.objects.filter(room=room, user=alice).values_list("ready", "autoplay")) == [(False, False)]


def test_paused_round_waits_without_unreadying_the_autoplay_players(club_setup, multipliers, make_user, driver):
    """The organiser pauses the round while both humans are on 托管: at the
    end of the hand the table waits (the planner says no deal), and the
    humans stay ready and on 托管 (nobody is reset as "away")."""
    club, olga, mike, *_ = club_setup
    pam = make_user("pam")
    services.join_club(pam, club.join_code)
    event = events.create_event(olga, club, name="暂停", game="shengji", rounds=1, hands_per_round=3,
                                bot_delay_ms=0)
    entry = events.register(mike, event, partner="pam")
    events.confirm(pam, entry)
    events.add_bot_entries(olga, event, 1)
    r = events.start_round(olga, events.pair_round(olga, event))
    room = r.tables.get().room
    for u in (mike, pam):
        game_services.set_ready(room, u)
        game_services.set_autoplay(room, u, True)
    events.set_paused(olga, r, True)
    driver(room, lambda rm: complete(rm) == 1, max_steps=4000, stay=False)
    driver(room, lambda rm: rm.status == Room.Status.WAITING, max_steps=50, stay=False)
    assert Hand.objects.filter(match__room=room).count() == 1
    assert list(Seat.objects.filter(room=room, user__isnull=False).values_list("autoplay", "ready")) == [
        (True, True), (True, True)]
