"""B14 at the site: a player who leaves a 保皇 table with tribute still owed
settles his shares in game points (the engine's ``leave_settlement``, room
multiplier included) and the tribute lapses (``match_after_leave``).

Tribute is owed after a completed (or voided) hand until the next hand's crown
is accepted (B13: paid after 買3 and the crown); see docs/rules-baohuang.md.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.models import PointsEntry
from games import services
from games.runtime import tasks
from games.engine import get_rules
from games.engine.records import replay_record
from games.baohuang.models import TributeSettlement
from games.models import Hand, Room
from tests.conftest import drive, make_due

pytestmark = pytest.mark.django_db

RULES = get_rules("baohuang")
REASON = "tribute-settlement"


@pytest.fixture
def duo_room(alice, bob, multipliers):
    """Room ×2: alice (owner) at seat 0, bob at seat 1, heuristic bots at 2-4;
    hand 1 is dealt.  Bots make real crown decisions, so deals are rarely voided."""
    room = services.create_room(alice, "baohuang", "B14", multiplier=2, turn_seconds=30, bot_delay_ms=0)
    services.take_seat(room, bob, 1)
    services.fill_bots(room, alice, "heuristic")
    services.set_ready(room, bob, True)
    services.set_ready(room, alice, True)
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    return room


def _finish_a_scored_hand(room) -> Hand:
    """Play until a hand completes that was not voided (tribute is then owed)."""
    for _ in range(6):
        hand = services.current_hand(room)
        drive(room, lambda r: Hand.objects.get(pk=hand.pk).complete)
        hand.refresh_from_db()
        if not hand.summary["voided"]:
            return hand
        drive(room, lambda r: services.current_hand(r).pk != hand.pk)
    pytest.fail("six voided deals in a row")


def _owed_after(hand: Hand):
    return RULES.next_match(RULES.new_match(**hand.start), services.hand_state(hand))


def _entries():
    return list(
        PointsEntry.objects.filter(reason=REASON).order_by("id").values_list("user__username", "delta", "hand_id")
    )


def test_leaving_between_hands_settles_in_points_and_next_hand_pays_no_tribute(duo_room, alice, bob):
    first = _finish_a_scored_hand(duo_room)
    owed = _owed_after(first)
    assert owed.previous is not None
    expected = RULES.leave_settlement(owed, 1)
    assert expected[1] != 0 and sum(expected.values()) == 0
    assert all(v % 2 == 0 for v in expected.values())  # one point per card × room multiplier 2 (C4)

    services.leave_seat(duo_room, bob)

    want = [("bob", expected[1], first.pk)]
    if expected[0]:
        want.insert(0, ("alice", expected[0], first.pk))
    assert _entries() == want  # bots (seats 2-4) have no ledger
    row = TributeSettlement.objects.get()
    assert row.hand_id == first.pk and row.seat == 1 and row.user == bob
    assert row.points == [expected[s] for s in range(5)]
    assert row.carry == RULES.match_to_json(RULES.match_after_leave(owed))

    # the table shows it: a notice and a line in the score sheet
    html = Client()
    html.force_login(alice)
    page = html.get(f"/rooms/{duo_room.pk}/table").content.decode()
    assert 'id="tribute-settlement"' in page and "bob" in page
    assert f'data-settlement="{first.number}"' in page

    # bob's seat is empty: the room waits; a bot takes it and the next hand is dealt
    duo_room.refresh_from_db()
    make_due(duo_room)
    tasks.play_turn(duo_room.pk, duo_room.version)
    duo_room.refresh_from_db()
    assert duo_room.status == Room.Status.WAITING
    services.fill_bots(duo_room, alice, "heuristic")
    second = services.current_hand(duo_room)
    assert second.number == first.number + 1 and second.match_id == first.match_id
    assert second.start["start"].get("previous") is None  # the tribute lapsed
    drive(duo_room, lambda r: Hand.objects.get(pk=second.pk).complete)
    second.refresh_from_db()
    assert second.summary["tribute"] == [] and not second.tributes.exists()
    assert _entries() == want  # nothing more settled

    # the match record starts after the lapse and replays exactly
    record = json.loads(html.get(f"/hands/{second.pk}/record.json").content)
    assert record["site"]["hands"] == [second.number]
    output, status = replay_record(record)
    assert status == 0, output.get("error")


def test_leaving_in_the_crown_phase_before_tribute_is_paid(duo_room, alice, bob, driver):
    first = _finish_a_scored_hand(duo_room)
    drive(duo_room, lambda r: services.current_hand(r).pk != first.pk)
    second = services.current_hand(duo_room)
    assert RULES.phase(services.hand_state(second)) == "crown"  # dealt, tribute not yet paid
    owed = RULES.new_match(**second.start)
    assert owed.previous is not None
    services.hand_state(second)  # cached under the old carry-in: must not be reused
    expected = RULES.leave_settlement(owed, 1)

    services.leave_seat(duo_room, bob)

    want = [("bob", expected[1], second.pk)]
    if expected[0]:
        want.insert(0, ("alice", expected[0], second.pk))
    assert _entries() == want
    second.refresh_from_db()
    assert second.start == RULES.match_to_json(RULES.match_after_leave(owed))
    assert TributeSettlement.objects.get().carry is None  # applied to the hand itself
    assert duo_room.seats.get(index=1).bot_policy == "heuristic"
    drive(duo_room, lambda r: Hand.objects.get(pk=second.pk).complete)
    second.refresh_from_db()
    assert second.summary["tribute"] == [] and not second.tributes.exists()
    # the hand after it owes tribute for its own result again (B13), no settlement
    third_match = services.carry_in_after(RULES, second)
    assert (third_match.previous is not None) == (not second.summary["voided"])


def test_leaving_with_nothing_owed_changes_nothing(duo_room, bob, alice, driver):
    # hand 1: no previous result, nothing owed, in the crown phase
    services.leave_seat(duo_room, bob)
    assert not TributeSettlement.objects.exists() and _entries() == []
    hand = services.current_hand(duo_room)
    assert hand.start["start"] == {}
    # after the crown (tribute paid or none): leaving mid-hand settles nothing
    drive(duo_room, lambda r: RULES.phase(services.hand_state(services.current_hand(r))) == "play")
    start = dict(services.current_hand(duo_room).start)
    services.leave_seat(duo_room, alice)
    assert not TributeSettlement.objects.exists() and _entries() == []
    assert services.current_hand(duo_room).start == start


def test_closing_the_room_settles_every_share_once(duo_room, alice, bob):
    first = _finish_a_scored_hand(duo_room)
    owed = _owed_after(first)
    per_seat = [RULES.leave_settlement(owed, s) for s in range(5)]
    expected = [sum(p[s] for p in per_seat) // 2 for s in range(5)]
    assert sum(expected) == 0 and any(expected)
    with pytest.raises(services.Forbidden):
        services.close_room(duo_room, bob)
    assert not TributeSettlement.objects.exists()
    services.close_room(duo_room, alice)
    row = TributeSettlement.objects.get()
    assert row.seat is None and row.points == expected
    got = {name: delta for name, delta, _h in _entries()}
    assert got == {n: expected[s] for n, s in (("alice", 0), ("bob", 1)) if expected[s]}
    services.close_room(duo_room, alice)  # again: nothing owed any more
    assert TributeSettlement.objects.count() == 1
