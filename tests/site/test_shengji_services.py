"""升级 through ``games.services``: every verb (bid, pass, trump, give, bury,
play) applied and refused; a refusal changes nothing (S13–S15, S8, S9); a
whole bot hand completes and lands in the ledger times the room multiplier
(S17, S18, C4)."""

from __future__ import annotations

import pytest

from accounts.models import PointsEntry
from games import services
from games.engine.cards import Card
from games.engine.shengji.deal import HAND_SIZE
from games.engine.shengji.trumps import bid_points, card_points
from games.models import HandAction

from .shengji_fixtures import (  # noqa: F401 (fixtures)
    RULES,
    act,
    auction_with_give,
    auto,
    sj_bot_room,
    sj_humans,
    snapshot,
    state_of,
    to_phase,
)

pytestmark = pytest.mark.django_db


def absent(hand, codes):
    """The first of ``codes`` that ``hand`` does not hold, or None."""
    return next((code for code in codes if Card.parse(code) not in hand), None)


def refused(room, users, record, exc_type=services.IllegalMove, seat=None, rule=None):
    before = snapshot(room)
    with pytest.raises(exc_type) as info:
        act(room, users, record, seat)
    assert snapshot(room) == before, "a refused action changed the room"
    if rule is not None:
        assert info.value.rule == rule, info.value.message
    return info.value.message


def test_bid_applies_and_shows_the_pile(sj_humans):
    room, users = sj_humans
    state = state_of(room)
    seat = RULES.to_act(state)
    card = next(c for c in state.hands[seat] if bid_points(c, state.level) > 0)
    out = act(room, users, {"bid": [card.code]})
    assert out.applied
    after = state_of(room)
    assert after.piles[seat] == (card,) and after.highest == bid_points(card, state.level)
    assert RULES.to_act(after) == (seat + 1) % 4
    assert HandAction.objects.get(seq=0, hand=services.current_hand(room)).payload == {
        "seat": seat, "bid": [card.code]}


def test_bid_refusals_change_nothing(sj_humans):
    room, users = sj_humans
    state = state_of(room)
    seat = RULES.to_act(state)
    hand = state.hands[seat]
    plain = next(c for c in hand if bid_points(c, state.level) == 0)
    msg = refused(room, users, {"bid": [plain.code]}, rule="S13")
    assert "比牌" in msg
    missing = absent(hand, ("AS", "5H", "5D", "BJ", "SJ"))
    if missing:
        refused(room, users, {"bid": [missing]}, rule="S13")
    refused(room, users, {"bid": []}, rule="S13")
    refused(room, users, {"bid": ["ZZ"]}, services.InvalidRequest)
    # another seat may not bid now; a stale version does nothing
    other = (seat + 1) % 4
    refused(room, users, {"pass": True}, services.Forbidden, seat=other)
    room.refresh_from_db()
    stale = services.do_move(room.pk, seat, {"pass": True}, room.version - 1, user=users[seat])
    assert not stale.applied and snapshot(room)[2] == []


def test_bid_must_exceed_the_highest(sj_humans):
    room, users = sj_humans
    state = state_of(room)
    seat = RULES.to_act(state)
    bid = max((c for c in state.hands[seat] if bid_points(c, state.level)), key=lambda c: bid_points(c, state.level))
    act(room, users, {"bid": [bid.code]})
    nxt = RULES.to_act(state_of(room))
    hand = state_of(room).hands[nxt]
    low = [c for c in hand if 0 < bid_points(c, state.level) <= bid_points(bid, state.level)]
    if low:
        low.sort(key=lambda c: bid_points(c, state.level))
        msg = refused(room, users, {"bid": [low[0].code]}, rule="S13")
        assert "exceed" in msg


def test_three_passes_end_the_auction_and_trump_is_named(sj_humans):
    room, users = sj_humans
    opener = RULES.to_act(state_of(room))
    for _ in range(3):
        act(room, users, {"pass": True})
    state = state_of(room)
    assert RULES.phase(state) == "trump" and state.auction_winner == (opener + 3) % 4
    refused(room, users, {"trump": "X"}, rule="S14")
    refused(room, users, {"bid": ["AS"]}, rule="S14")  # wrong verb for the phase
    act(room, users, {"trump": "H"})
    state = state_of(room)
    assert state.trump == "H"
    # nobody showed anything: no 还牌, the dealer (S15: hand 1 the winner) buries
    assert RULES.phase(state) == "bury" and state.dealer == (opener + 3) % 4
    assert len(state.hands[state.dealer]) == 60


def test_give_refusals_then_a_legal_give(sj_humans):
    room, users = sj_humans
    winner = auction_with_give(room, users)
    act(room, users, {"trump": "S"})
    state = state_of(room)
    assert RULES.phase(state) == "give" and RULES.to_act(state) == winner
    owed = state.owed
    (loser, n), = owed.items()
    hand = state.hands[winner]
    points = [c for c in hand if card_points(c)]
    low = [c for c in hand if not card_points(c)]
    # wrong count
    refused(room, users, {"give": {str(loser): [c.code for c in low[: n + 1]]}}, rule="S14")
    # a point card (S14: no 5, 10, K)
    if points:
        bad = [points[0].code] + [c.code for c in low[: n - 1]]
        msg = refused(room, users, {"give": {str(loser): bad}}, rule="S14")
        assert "point" in msg
    # a seat that lost nothing
    stranger = next(s for s in range(4) if s not in owed and s != winner)
    refused(room, users, {"give": {str(stranger): [low[0].code]}}, rule="S14")
    # cards not held
    missing = absent(hand, ("2C", "3C", "4C", "6C", "7C", "8C", "9C", "JC", "QC"))
    if missing:
        refused(room, users, {"give": {str(loser): [missing] * n}}, rule="S14")
    # not the winner's turn for anybody else
    refused(room, users, {"give": {str(loser): [low[0].code] * n}}, services.Forbidden, seat=loser)
    # the C5 give is legal and moves the cards
    before_loser = len(state.hands[loser])
    auto(room, users)
    state = state_of(room)
    assert len(state.hands[loser]) == before_loser + n
    assert RULES.phase(state) == "bury"


def test_bury_refusals_then_bury(sj_humans):
    room, users = sj_humans
    to_phase(room, users, "bury")
    state = state_of(room)
    dealer = state.dealer
    hand = state.hands[dealer]
    codes = [c.code for c in hand]
    refused(room, users, {"bury": codes[:7]}, rule="S15")
    refused(room, users, {"bury": codes[:9]}, rule="S15")
    missing = absent(hand, ("AS", "BJ", "SJ", "5H", "5D"))
    if missing:
        refused(room, users, {"bury": codes[:7] + [missing]}, rule="S15")
    refused(room, users, {"play": codes[:1]}, rule="S15")
    act(room, users, {"bury": codes[-8:]})
    state = state_of(room)
    assert RULES.phase(state) == "play" and len(state.hands[dealer]) == 52
    assert sorted(c.code for c in state.kitty) == sorted(codes[-8:])
    assert RULES.to_act(state) == dealer  # S15: the dealer leads


def test_play_refusals_name_the_rule(sj_humans):
    room, users = sj_humans
    to_phase(room, users, "play")
    state = state_of(room)
    leader = RULES.to_act(state)
    hand = state.hands[leader]
    ctx = state.ctx
    # S8: two different side cards of different suits are no lead
    a = next(c for c in hand if not ctx.is_trump(c))
    b = next((c for c in hand if not ctx.is_trump(c) and ctx.suit_of(c) != ctx.suit_of(a)), None)
    if b is not None:
        refused(room, users, {"play": [a.code, b.code]}, rule="S8")
    # lead the C5 single, then the follower tries a card of another suit while holding the suit
    auto(room, users)
    state = state_of(room)
    follower = RULES.to_act(state)
    lead = state.plays[0][1]
    led_suit = ctx.suit_of(lead[0])
    fhand = state.hands[follower]
    if any(ctx.suit_of(c) == led_suit for c in fhand):
        off = next((c for c in fhand if ctx.suit_of(c) != led_suit), None)
        if off is not None:
            msg = refused(room, users, {"play": [off.code]}, rule="S9")
            assert RULES.follow_hint(state, follower)  # the UI shows what is required
            assert msg
    # two cards to a one-card lead
    refused(room, users, {"play": [c.code for c in fhand[:2]]}, rule="S9")


def test_whole_bot_hand_credits_the_ledger(sj_bot_room, alice, driver):
    room = sj_bot_room
    hand = services.current_hand(room)
    driver(room, lambda r: services.current_hand(r).complete)
    hand.refresh_from_db()
    summary = hand.summary
    assert summary["complete"] and summary["trump"] in "SHDC"
    # every seat played its whole hand of 52 (S1): throws and tractors make the
    # number of tricks depend on the deal, the cards each seat played do not
    played = {seat: 0 for seat in "0123"}
    for trick in summary["tricks"]:
        for seat, cards in trick["plays"].items():
            played[seat] += len(cards)
    assert played == {seat: HAND_SIZE for seat in "0123"}
    points = summary["game_points"]
    assert sum(points.values()) == 0  # zero-sum, penalties included (S17, S18)
    # multiplier 2 (C4): every per-seat change is even
    assert all(v % 2 == 0 for v in points.values())
    entry = PointsEntry.objects.get(user=alice, game="shengji", hand=hand)
    assert entry.delta == points["0"]
    from accounts import ledger

    assert ledger.points(alice, "shengji") == points["0"]
    assert PointsEntry.objects.filter(hand=hand).count() == 1  # bots have no account
    room.refresh_from_db()
    assert room.deadline is not None  # the next hand follows after the pause
