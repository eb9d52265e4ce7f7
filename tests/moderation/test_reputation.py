"""Reputation for finishing (moderation.reputation, docs/moderation.md):
start 75, −10 for leaving a match before its end (−20 again within 30
days), −10 for sitting most of a finished match out on 托管, +1 for
finishing; once per (user, match, reason) whatever the requests; shown on
the profile and beside seated names; a room's minimum is enforced on
seating; quick play seats low reputation with low reputation."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services as game_services
from games.models import HandAction, Match, Seat
from games.services.errors import Conflict, Forbidden
from moderation import reputation
from moderation.models import START, ReputationEvent, Standing
from quickplay import services as queue
from quickplay.models import QueueEntry

pytestmark = pytest.mark.django_db


def test_a_player_leaving_mid_match_loses_reputation_once(five_humans, client):
    room, users = five_humans
    quitter = users[2]
    assert reputation.reputation(quitter) == START == 75
    client.force_login(quitter)
    first = client.post(reverse("room_leave", args=[room.pk]))
    second = client.post(reverse("room_leave", args=[room.pk]))  # a double request
    assert first.status_code == 302 and second.status_code == 409  # the second: "not seated"
    assert reputation.reputation(quitter) == 75 + reputation.ABANDONED == 65
    # he comes back to the bot's seat (a reconnect) and leaves again: the same match, once
    game_services.take_seat(room, quitter, 2)
    game_services.leave_seat(room, quitter)
    assert reputation.reputation(quitter) == 65
    assert ReputationEvent.objects.filter(user=quitter).count() == 1
    assert all(reputation.reputation(u) == 75 for u in users if u != quitter)


def test_a_repeat_offender_loses_twenty(five_humans, make_user, multipliers):
    room, users = five_humans
    game_services.leave_seat(room, users[1])
    other = game_services.create_room(users[4], "baohuang", "第二桌", bot_delay_ms=0)
    game_services.leave_seat(room, users[4])  # users[4] leaves the first table: -10
    game_services.take_seat(other, users[1], 1)
    game_services.fill_bots(other, users[4], "heuristic")
    game_services.set_ready(other, users[1], True)
    game_services.set_ready(other, users[4], True)
    game_services.leave_seat(other, users[1])  # a second abandon within 30 days
    assert reputation.reputation(users[1]) == 75 + reputation.ABANDONED + reputation.REPEAT == 45


def test_leaving_a_waiting_room_costs_nothing(bh_room, alice):
    game_services.leave_seat(bh_room, alice)
    assert reputation.reputation(alice) == 75 and not ReputationEvent.objects.exists()


def _finish(room, hand):
    """The match of ``hand`` ends now: what the signal says at the last hand."""
    Match.objects.filter(pk=hand.match_id).update(finished=hand.created)
    reputation.on_hand_completed("baohuang", match_id=hand.match_id, players=hand.players, match_finished=True,
                                 room_id=room.pk, hand_id=hand.pk, summary={})


def test_finishing_earns_one_and_a_match_on_autoplay_costs_ten(five_humans, driver):
    from games.models import Hand

    room, users = five_humans
    driver(room, lambda r: Hand.objects.filter(match__room=r, complete=True).exists())
    hand = Hand.objects.get(match__room=room, number=1)
    # seats 0-3 played their own moves; seat 4 timed out all along (托管)
    HandAction.objects.filter(hand=hand).exclude(seat=4).update(actor=HandAction.Actor.USER)
    assert HandAction.objects.filter(hand=hand, seat=4, actor=HandAction.Actor.AUTO).exists()
    _finish(room, hand)
    _finish(room, hand)  # the signal twice: nothing more
    assert [reputation.reputation(u) for u in users] == [76, 76, 76, 76, 65]
    assert ReputationEvent.objects.count() == 5


def test_a_leaver_gains_nothing_for_the_match(five_humans, driver):
    from games.models import Hand

    room, users = five_humans
    game_services.leave_seat(room, users[3])
    game_services.take_seat(room, users[3], 3)  # back before the end
    driver(room, lambda r: Hand.objects.filter(match__room=r, complete=True).exists())
    hand = Hand.objects.get(match__room=room, number=1)
    HandAction.objects.filter(hand=hand).update(actor=HandAction.Actor.USER)
    _finish(room, hand)
    assert reputation.reputation(users[3]) == 65 and reputation.reputation(users[0]) == 76


def test_reputation_stays_within_0_and_100(alice, five_humans):
    room, users = five_humans
    Standing.objects.create(user=users[0], reputation=100)
    Standing.objects.create(user=users[1], reputation=5)
    hand = room.matches.get().hands.get()
    reputation.record(users[0].pk, hand.match_id, ReputationEvent.Reason.FINISHED)
    reputation.record(users[1].pk, hand.match_id, ReputationEvent.Reason.ABANDONED)
    assert reputation.reputation(users[0]) == 100 and reputation.reputation(users[1]) == 0


def test_a_rooms_minimum_is_enforced_on_seating(bh_room, alice, make_user, client):
    low, fine = make_user("low"), make_user("fine")
    Standing.objects.create(user=low, reputation=49)
    client.force_login(alice)
    response = client.post(reverse("moderation_room_minimum", args=[bh_room.pk]), {"min_reputation": "50"})
    assert response.status_code == 302
    with pytest.raises(Forbidden) as refused:
        game_services.take_seat(bh_room, low, 1)
    assert "50" in refused.value.message and "49" in refused.value.message
    assert not Seat.objects.filter(room=bh_room, user=low).exists()
    game_services.take_seat(bh_room, fine, 1)  # 75 ≥ 50
    client.force_login(low)  # only the owner sets it
    assert client.post(reverse("moderation_room_minimum", args=[bh_room.pk]),
                       {"min_reputation": "0"}).status_code == 403


def test_reputation_on_the_profile(alice, client):
    Standing.objects.create(user=alice, reputation=63)
    client.force_login(alice)
    page = client.get(reverse("profile_user", args=["alice"])).content.decode()
    assert 'data-reputation>63<' in page


def test_quick_play_seats_low_reputation_players_together(make_user, multipliers):
    good = [make_user(f"g{i}") for i in range(3)]
    low = [make_user(f"l{i}") for i in range(4)]
    for u in low:
        Standing.objects.create(user=u, reputation=reputation.LOW - 1)
    for u in good + low:
        queue.join(u, "shengji", None)
    (room,) = queue.run_pass("shengji")
    assert set(Seat.objects.filter(room=room).values_list("user_id", flat=True)) == {u.pk for u in low}
    assert QueueEntry.objects.filter(status=QueueEntry.Status.WAITING).count() == 3  # the good three wait


def test_reputation_beside_a_seated_name_in_the_snapshots_one_seat_query(bot_room, alice):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.live import snapshots as live
    from games.render.tables import render_table

    Standing.objects.create(user=alice, reputation=58)
    with CaptureQueriesContext(connection) as queries:
        snap = live.load_snapshot(bot_room.pk)
    assert len(queries) == 3  # the seats' query carries it: no query more
    html = str(live.render_seat(snap, alice, snap.version, 0))
    assert 'data-seat-note="0"' in html and "信誉 58" in html
    assert html.count("data-seat-note=") == 1  # bots have none
    assert "信誉 58" in render_table(bot_room, alice)


def test_the_receivers_are_connected_to_the_games_signals(five_humans, driver):
    """The app's ready() wires the end of a match (hand_completed) as well as
    leaving (seat_left, exercised above through leave_seat)."""
    from games.models import Hand
    from games.signals import hand_completed

    room, users = five_humans
    driver(room, lambda r: Hand.objects.filter(match__room=r, complete=True).exists())
    hand = Hand.objects.get(match__room=room, number=1)
    HandAction.objects.filter(hand=hand).update(actor=HandAction.Actor.USER)
    hand_completed.send_robust(sender="baohuang", room_id=room.pk, hand_id=hand.pk, match_id=hand.match_id,
                               summary={}, players=hand.players, match_finished=True)
    assert [reputation.reputation(u) for u in users] == [76] * 5
