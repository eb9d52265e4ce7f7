"""Event tables seat only their entrants (docs/tournaments.md): a seat of
an event table can be taken only by the player the pairing put there, or a
substitute the organiser named (clubs.guards through games.seating).  Without
the rule any signed-in user took a bot entry's seat during the no-show grace
and the bot entry was credited with that stranger's result."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs import services
from clubs.running import events
from games import services as game_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting_table(club_setup, multipliers, make_user):
    """A 升级 round of mike+pam against a bot pair, in its grace period: the
    humans are seated (not ready), the bot entry's seats hold bots."""
    club, olga, mike, *_ = club_setup
    pam = make_user("pam")
    services.join_club(pam, club.join_code)
    event = events.create_event(olga, club, name="座位", game="shengji", rounds=1, hands_per_round=1,
                                bot_delay_ms=0)
    entry = events.register(mike, event, partner="pam")
    events.confirm(pam, entry)
    events.add_bot_entries(olga, event, 1)
    r = events.start_round(olga, events.pair_round(olga, event))
    table = r.tables.get()
    return event, entry, table, pam


def seats(room):
    return {s.index: (s.user.username if s.user_id else ("bot" if s.bot_policy else None))
            for s in room.seats.select_related("user")}


def test_stranger_cannot_take_a_bot_entrys_seat(client, club_setup, waiting_table, make_user):
    club, olga, mike, *_ = club_setup
    event, entry, table, pam = waiting_table
    room = table.room
    mine = {i for i, who in seats(room).items() if who in ("mike", "pam")}
    bot_seat = min(set(range(4)) - mine)
    stranger = make_user("sam")
    services.join_club(stranger, club.join_code)  # even a club member who did not enter
    before = seats(room)
    client.force_login(stranger)
    resp = client.post(reverse("room_seat", args=[room.pk]), {"index": bot_seat})
    assert resp.status_code == 403
    assert "这是比赛桌" in resp.content.decode()
    assert seats(room) == before
    # nor the organiser, nor a human entrant in a seat of the other entry
    with pytest.raises(game_services.Forbidden):
        game_services.take_seat(room, olga, bot_seat)
    game_services.leave_seat(room, mike)
    with pytest.raises(game_services.Forbidden):
        game_services.take_seat(room, mike, bot_seat)


def test_entrant_takes_back_own_seat_and_a_named_substitute_takes_it(client, club_setup, waiting_table,
                                                                      make_user):
    club, olga, mike, *_ = club_setup
    event, entry, table, pam = waiting_table
    room = table.room
    own = next(i for i, who in seats(room).items() if who == "mike")
    game_services.leave_seat(room, mike)
    game_services.take_seat(room, mike, own)  # his own seat: allowed
    assert seats(room)[own] == "mike"
    game_services.leave_seat(room, mike)

    sub = make_user("sue")
    services.join_club(sub, club.join_code)
    with pytest.raises(game_services.Forbidden):
        game_services.take_seat(room, sub, own)  # not yet named
    events.substitute(olga, entry, 0, "sue")
    game_services.take_seat(room, sub, own)
    assert seats(room)[own] == "sue"
    with pytest.raises(game_services.ServiceError):
        game_services.take_seat(room, mike, own)  # replaced: no longer his seat


def test_ordinary_rooms_are_unchanged(alice, bob, bh_room):
    """A room that is no event table seats anyone (no rule answers)."""
    game_services.take_seat(bh_room, bob, 3)
    assert bh_room.seats.get(index=3).user == bob
