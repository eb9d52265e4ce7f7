"""S14 還牌: counts, no point cards, keep every suit, the yielding order, the UI helper."""

import pytest

from games.engine.base import Action, IllegalAction
from games.engine.shengji import RULES
from games.engine.shengji.give import (
    NO_POINTS,
    STRICT,
    YIELD_ALL,
    can_complete,
    check_give,
    choose_give,
    give_mode,
)
from games.engine.shengji.trumps import TrumpContext

from .shengji_fixtures import act, build_deal, cards

CTX = TrumpContext("2", "H")  # hearts trump at level 2


def _check(hand, owed, give):
    check_give(cards(hand), owed, {s: cards(c) for s, c in give.items()}, CTX)


def test_strict_mode_accepts_low_non_point_cards():
    hand = "4S 6S 7S 7C 8C 9D JD 4H"
    assert give_mode(cards(hand), 3, CTX) == STRICT
    _check(hand, {1: 2, 3: 1}, {1: "4S 6S", 3: "7C"})


def test_point_cards_are_refused_when_others_exist():
    hand = "4S 6S 7S 7C 8C 9D JD KD"
    with pytest.raises(IllegalAction, match="no point cards") as exc:
        _check(hand, {1: 1}, {1: "KD"})
    assert exc.value.rule == "S14"


def test_the_last_card_of_a_suit_cannot_go():
    # trumps here: 4H only; diamonds: 9D JD; clubs 7C 8C
    hand = "4S 6S 7S 7C 8C 9D JD 4H"
    with pytest.raises(IllegalAction, match="keep at least one card of trumps"):
        _check(hand, {1: 1}, {1: "4H"})
    with pytest.raises(IllegalAction, match="clubs"):
        _check(hand, {1: 2}, {1: "7C 8C"})


def test_counts_and_seats_must_match_what_was_taken():
    hand = "4S 6S 7S 7C 8C 9D JD 4H"
    with pytest.raises(IllegalAction, match="exactly 2"):
        _check(hand, {1: 2}, {1: "4S"})
    with pytest.raises(IllegalAction, match="exactly these seats"):
        _check(hand, {1: 1}, {3: "4S"})
    with pytest.raises(IllegalAction, match="do not hold"):
        _check(hand, {1: 1}, {1: "9C"})


def test_suit_constraint_yields_first():
    # every suit holds one card: keeping them all is impossible, so only
    # "no point cards" applies; ♦K must stay
    hand = "4S 6C KD"
    assert give_mode(cards(hand), 2, CTX) == NO_POINTS
    _check(hand, {1: 2}, {1: "4S 6C"})
    with pytest.raises(IllegalAction, match="no point cards"):
        _check(hand, {1: 2}, {1: "4S KD"})


def test_then_the_point_constraint_yields_as_little_as_possible():
    hand = "4S KD KD TC"
    assert give_mode(cards(hand), 2, CTX) == YIELD_ALL
    _check(hand, {1: 2}, {1: "4S KD"})
    with pytest.raises(IllegalAction, match="every non-point card"):
        _check(hand, {1: 2}, {1: "KD TC"})


def test_suits_of_play_count_trumps_as_one_suit():
    # ♥4 and the level card 2C are both trumps: giving 2C keeps a trump (♥4)
    hand = "4H 2C 6S 7S 9D 9D 8C 8C"
    _check(hand, {1: 1}, {1: "2C"})


def test_can_complete_tells_the_ui_whether_a_selection_can_be_finished():
    hand = cards("4S 6S 7S 7C 8C 9D JD KD")
    owed = {1: 2, 3: 1}
    assert can_complete(hand, owed, {}, CTX) == (True, None)
    assert can_complete(hand, owed, {1: cards("4S 6S")}, CTX) == (True, None)
    ok, why = can_complete(hand, owed, {1: cards("4S 6S"), 3: cards("7S")}, CTX)
    assert not ok and "spades" in why
    ok, why = can_complete(hand, owed, {1: cards("KD")}, CTX)
    assert not ok and "point" in why
    ok, why = can_complete(hand, owed, {1: cards("4S 6S 7C")}, CTX)
    assert not ok and "only 2" in why
    ok, why = can_complete(hand, owed, {2: cards("4S")}, CTX)
    assert not ok


@pytest.mark.parametrize("hand, owed", [
    ("4S 6S 7S 7C 8C 9D JD 4H", {1: 2, 3: 1}),
    ("4S 6C KD", {2: 2}),
    ("4S KD KD TC", {0: 1, 2: 1}),
])
def test_choose_give_is_always_legal(hand, owed):
    g = choose_give(cards(hand), owed, CTX)
    check_give(cards(hand), owed, g, CTX)


# --------------------------------------------------------- through the engine

@pytest.fixture
def give_state():
    """Seat 0 shows ♠A, seat 1 wins with ♥5 ♦5 and owes seat 0 one card."""
    deal = build_deal({0: "AS", 1: "5H 5D KC 4C 4S 6D 7H"}, opener=0)
    s = RULES.start_hand(RULES.new_match(), deal)
    for a in (act(0, "bid", "AS"), act(1, "bid", "5H 5D"), act(2, "pass"), act(3, "pass"),
              act(0, "pass")):
        s = RULES.apply(s, a)
    s = RULES.apply(s, act(1, "trump", "S"))
    assert s.phase == "give" and s.to_act == 1 and s.owed == {0: 1}
    return s


def test_the_winner_gives_back_what_he_took(give_state):
    s = give_state
    with pytest.raises(IllegalAction, match="no point cards"):
        RULES.apply(s, Action(1, "give", ((0, cards("KC")),)))
    with pytest.raises(IllegalAction, match="turn"):
        RULES.apply(s, Action(0, "give", ((0, cards("4C")),)))
    before0, before1 = len(s.hands[0]), len(s.hands[1])
    s2 = RULES.apply(s, Action(1, "give", ((0, cards("4C")),)))
    assert len(s2.hands[0]) == before0 + 1
    # hand 1: the auction winner deals (S15) and now holds the kitty too
    assert s2.dealer == 1 and len(s2.hands[1]) == before1 - 1 + 8
    assert s2.given == ((0, cards("4C")),)
    assert s2.phase == "bury" and s2.to_act == 1


def test_legal_and_auto_gives_are_accepted(give_state):
    s = give_state
    for a in RULES.legal_actions(s, 1):
        assert a.verb == "give"
        RULES.apply(s, a)
    RULES.apply(s, RULES.auto_action(s, 1))


def test_give_can_complete_is_offered_by_the_rules_object(give_state):
    assert RULES.give_can_complete(give_state, {"0": ["4C"]}) == (True, None)
    ok, why = RULES.give_can_complete(give_state, {"0": ["KC"]})
    assert not ok and "S14" in why


# ---------------------------------------------------------------- audit (S14 yielding)

def test_the_suit_constraint_yields_only_as_far_as_needed():
    """S14: three cards owed; keeping every suit allows only two (one spare
    diamond, one spare spade), so one suit must be given up, and only one."""
    hand = "4D 6D 3S 4S 2C"          # hearts trump at level 2: ♣2 is a trump
    assert give_mode(cards(hand), 3, CTX) == NO_POINTS
    _check(hand, {1: 3}, {1: "4D 3S 2C"})           # gives up trumps only
    _check(hand, {1: 3}, {1: "4D 6D 3S"})           # gives up diamonds only
    with pytest.raises(IllegalAction, match="only 1 suit"):
        _check(hand, {1: 3}, {1: "4D 6D 2C"})       # diamonds and trumps: two suits
    ok, why = can_complete(cards(hand), {1: 3}, {1: cards("4D 6D")}, CTX)
    assert ok                                        # + ♠3
    ok, why = can_complete(cards(hand), {1: 3}, {1: cards("6D 2C")}, CTX)
    assert ok                                        # + ♠3 (♦ kept: ♦4)
    ok, why = can_complete(cards(hand), {1: 3}, {1: cards("4D 6D 2C")}, CTX)
    assert not ok and "S14" in why
    give = choose_give(cards(hand), {1: 3}, CTX)
    _check(hand, {1: 3}, {1: " ".join(c.code for c in give[1])})
