"""games.services: the version check, refusals, and a full hand with bots."""

from __future__ import annotations

import pytest

from games import services
from games.engine import get_rules
from games.engine.cards import standard_deck
from games.baohuang.models import TributeRecord
from games.models import Hand, HandAction, Room, Seat
from tests.conftest import drive

pytestmark = pytest.mark.django_db

RULES = get_rules("baohuang")


def _snapshot(room):
    room.refresh_from_db()
    hand = services.current_hand(room)
    return (
        room.version,
        room.deadline,
        list(HandAction.objects.filter(hand=hand).values_list("seq", "payload")),
        list(Seat.objects.filter(room=room).values_list("index", "user", "bot_policy", "ready", "autoplay")),
    )


def _seat_to_act(room):
    hand = services.current_hand(room)
    return RULES.to_act(services.hand_state(hand)), hand


def test_create_room_seats_owner_and_checks_multiplier(alice):
    room = services.create_room(alice, "baohuang", "x", multiplier=5)
    assert room.seats.count() == 5
    assert room.seats.get(index=0).user == alice
    assert room.multiplier == 5
    with pytest.raises(services.InvalidRequest):
        services.create_room(alice, "baohuang", "x", multiplier=3)  # not in RoomMultiplier
    assert services.create_room(alice, "baohuang", "y", take_seat=False).multiplier == 1  # default


def test_room_starts_when_all_seats_filled_and_ready(bh_room, alice):
    services.fill_bots(bh_room, alice, "random")
    bh_room.refresh_from_db()
    assert bh_room.status == Room.Status.WAITING  # alice not ready yet
    assert services.current_hand(bh_room) is None
    services.set_ready(bh_room, alice, True)
    bh_room.refresh_from_db()
    assert bh_room.status == Room.Status.PLAYING
    hand = services.current_hand(bh_room)
    assert hand.number == 1 and hand.match.number == 1
    assert hand.start == {"options": {"multiplier": 2}, "start": {}}
    assert len(hand.players) == 5 and hand.players[0]["user"] == alice.pk
    assert bh_room.deadline is not None


def test_fill_bots_only_owner(bh_room, bob):
    with pytest.raises(services.Forbidden):
        services.fill_bots(bh_room, bob, "heuristic")


def test_take_seat_refusals(bh_room, alice, bob, make_user):
    with pytest.raises(services.Conflict):
        services.take_seat(bh_room, bob, 0)  # alice's seat
    services.take_seat(bh_room, bob, 1)
    with pytest.raises(services.Conflict):
        services.take_seat(bh_room, bob, 2)  # already seated here
    for i, name in enumerate(["c", "d", "e"], start=2):
        services.take_seat(bh_room, make_user(name), i)
    with pytest.raises(services.Conflict) as exc:
        services.take_seat(bh_room, make_user("f"), 3)
    assert "满" in exc.value.message


def test_duplicate_action_does_nothing_the_second_time(five_humans):
    room, users = five_humans
    seat, hand = _seat_to_act(room)
    action = RULES.legal_actions(services.hand_state(hand), seat)[0].to_record()
    action.pop("seat")
    version = room.version
    first = services.do_move(room, seat, action, version, user=users[seat])
    assert first.applied and first.version == version + 1
    before = _snapshot(room)
    second = services.do_move(room, seat, action, version, user=users[seat])  # double click
    assert not second.applied and second.reason == "stale"
    assert _snapshot(room) == before
    assert HandAction.objects.filter(hand=hand).count() == 1


def test_stale_version_does_nothing(five_humans):
    room, users = five_humans
    seat, hand = _seat_to_act(room)
    action = RULES.legal_actions(services.hand_state(hand), seat)[0].to_record()
    action.pop("seat")
    before = _snapshot(room)
    outcome = services.do_move(room, seat, action, room.version - 1, user=users[seat])
    assert not outcome.applied
    assert _snapshot(room) == before


def test_illegal_action_refused_with_engine_message_and_state_unchanged(five_humans):
    room, users = five_humans
    seat, hand = _seat_to_act(room)
    assert RULES.phase(services.hand_state(hand)) == "crown"
    before = _snapshot(room)
    with pytest.raises(services.IllegalMove) as exc:
        services.do_move(room, seat, {"play": ["3S"]}, room.version, user=users[seat])
    assert exc.value.message  # the engine's sentence
    assert _snapshot(room) == before


def test_wrong_seat_and_garbage_refused(five_humans):
    room, users = five_humans
    seat, _hand = _seat_to_act(room)
    other = (seat + 1) % 5
    before = _snapshot(room)
    with pytest.raises(services.Forbidden):
        services.do_move(room, other, {"crown": "accept"}, room.version)
    with pytest.raises(services.InvalidRequest):
        services.do_move(room, seat, {"play": ["ZZ"]}, room.version)
    with pytest.raises(services.InvalidRequest):
        services.do_move(room, seat, {"fly": True}, room.version)
    with pytest.raises(services.Forbidden):
        services.do_move(room, seat, {"seat": other, "crown": "accept"}, room.version)
    assert _snapshot(room) == before


def test_cards_not_held_refused(five_humans):
    room, users = five_humans
    # get to the play phase: accept the crown, declare
    seat, hand = _seat_to_act(room)
    services.do_move(room, seat, {"crown": "accept"}, room.version)
    room.refresh_from_db()
    while RULES.phase(services.hand_state(services.current_hand(room))) != "play":
        seat, hand = _seat_to_act(room)
        record = RULES.legal_actions(services.hand_state(hand), seat)[0].to_record()
        record.pop("seat")
        services.do_move(room, seat, record, room.version)
        room.refresh_from_db()
    seat, hand = _seat_to_act(room)
    mine = set(RULES.view(services.hand_state(hand), seat)["hand"])
    missing = next(c.code for c in standard_deck() if c.code not in mine)  # a code held 0 times
    before = _snapshot(room)
    with pytest.raises(services.IllegalMove):
        services.do_move(room, seat, {"play": [missing]}, room.version)
    assert _snapshot(room) == before


def test_full_hand_with_bots_completes_with_summary_tribute_and_ledger(bot_room, alice):
    from accounts.ledger import points
    from accounts.models import PointsEntry

    first = services.current_hand(bot_room)
    drive(bot_room, lambda r: Hand.objects.get(pk=first.pk).complete)
    first.refresh_from_db()
    assert first.summary["complete"] is True
    game_points = services.by_seat(first.summary["game_points"], 5)
    assert sum(game_points) == 0  # B12
    entries = PointsEntry.objects.filter(user=alice, hand=first)
    assert [e.delta for e in entries] == [game_points[0]]
    assert points(alice, "baohuang") == game_points[0]
    # the next hands carry tribute (B13); play until one has paid some
    for _ in range(6):
        prev = services.current_hand(bot_room)
        drive(bot_room, lambda r: services.current_hand(r).pk != prev.pk)
        hand = services.current_hand(bot_room)
        assert hand.start["start"]["previous"]["finish_order"] == prev.summary["finish_order"] or prev.summary.get("voided")
        drive(bot_room, lambda r: Hand.objects.get(pk=hand.pk).complete)
        hand.refresh_from_db()
        rows = list(TributeRecord.objects.filter(hand=hand).values_list("from_seat", "to_seat", "card"))
        assert rows == [(t["from"], t["to"], t["card"]) for t in hand.summary["tribute"]]
        if rows:
            assert all(r[0] != r[1] for r in rows)
            break
    else:
        pytest.fail("no tribute in six hands")
    total = sum(e.delta for e in PointsEntry.objects.filter(user=alice))
    assert points(alice, "baohuang") == total


def test_leaving_mid_hand_hands_seat_to_bot(bot_room, alice):
    services.leave_seat(bot_room, alice)
    seat = bot_room.seats.get(index=0)
    assert seat.user is None and seat.bot_policy == "heuristic"
    hand = services.current_hand(bot_room)
    assert hand.players[0]["user"] == alice.pk  # alice is still credited for this hand


def test_state_cache_matches_rebuild(bot_room):
    hand = services.current_hand(bot_room)
    drive(bot_room, lambda r: services.current_hand(r).actions.count() >= 10)
    cached = services.hand_state(hand)
    services.clear_cache()
    rebuilt = services.hand_state(hand)
    assert rebuilt is not cached
    for seat in [None, 0, 1, 2, 3, 4]:
        assert RULES.view(rebuilt, seat) == RULES.view(cached, seat)
    assert RULES.actions(rebuilt) == RULES.actions(cached)


def test_human_replaces_a_bot_only_while_waiting(bh_room, alice, bob, make_user):
    services.fill_bots(bh_room, alice, "random")
    services.take_seat(bh_room, bob, 2)
    seat = bh_room.seats.get(index=2)
    assert seat.user == bob and seat.bot_policy is None and not seat.ready
    services.set_ready(bh_room, bob, True)
    services.set_ready(bh_room, alice, True)
    bh_room.refresh_from_db()
    assert bh_room.status == Room.Status.PLAYING
    with pytest.raises(services.Conflict):
        services.take_seat(bh_room, make_user("carol"), 3)  # a bot in a hand in play


def test_voided_deal_writes_no_ledger_entries(five_humans):
    """B8: five humans who time out all pass the crown (C5) twice: the deal is
    voided, scores nothing and leaves no 0-point rows in the ledger (C4)."""
    from accounts.models import PointsEntry

    room, users = five_humans
    hand = services.current_hand(room)
    drive(room, lambda r: Hand.objects.get(pk=hand.pk).complete)
    hand.refresh_from_db()
    assert hand.summary["voided"] is True
    assert not PointsEntry.objects.filter(hand=hand).exists()
    assert not PointsEntry.objects.filter(user__in=users).exists()
