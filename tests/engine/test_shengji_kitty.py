"""S15 burying and S16 the kitty at the end: ×1 side suit, ×2 trumps, defenders keep it."""

import pytest

from games.engine.base import IllegalAction
from games.engine.shengji import RULES
from games.engine.shengji.trumps import card_points

from .shengji_fixtures import act, build_deal, earlier_trick, play_state

KITTY = "KS KS 5C 3S 4S 6S 7S 8S"  # 25 points


@pytest.fixture
def bury_state():
    deal = build_deal({}, opener=2)
    s = RULES.start_hand(RULES.new_match(), deal)
    for seat in (2, 3, 0):
        s = RULES.apply(s, act(seat, "pass"))
    s = RULES.apply(s, act(1, "trump", "D"))
    assert s.phase == "bury" and s.dealer == 1 and s.to_act == 1
    return s


def test_dealer_takes_the_kitty_and_must_bury_exactly_eight(bury_state):
    s = bury_state
    hand = s.hands[1]
    assert len(hand) == 60
    with pytest.raises(IllegalAction, match="exactly 8") as exc:
        RULES.apply(s, act(1, "bury", " ".join(c.code for c in hand[:7])))
    assert exc.value.rule == "S15"
    with pytest.raises(IllegalAction, match="exactly 8"):
        RULES.apply(s, act(1, "bury", " ".join(c.code for c in hand[:9])))
    s2 = RULES.apply(s, act(1, "bury", " ".join(c.code for c in hand[:8])))
    assert s2.phase == "play" and s2.to_act == 1 and s2.leader == 1
    assert s2.kitty == hand[:8] and len(s2.hands[1]) == 52


def test_burying_a_card_not_held_is_refused(bury_state):
    s = bury_state
    missing = next(c for c in s.hands[0] if s.hands[1].count(c) == 0)
    codes = [c.code for c in s.hands[1][:7]] + [missing.code]
    with pytest.raises(IllegalAction, match="hold"):
        RULES.apply(s, act(1, "bury", " ".join(codes)))


def test_auto_bury_takes_the_eight_lowest_non_point_cards(bury_state):
    s = bury_state
    a = RULES.auto_action(s, 1)
    assert a.verb == "bury" and len(a.arg) == 8
    assert not any(card_points(c) for c in a.arg)
    ctx = s.ctx
    worst_buried = max((ctx.is_trump(c), ctx.order(c)) for c in a.arg)
    kept = [c for c in s.hands[1] if not card_points(c)]
    for c in a.arg:
        kept.remove(c)
    assert all((ctx.is_trump(c), ctx.order(c)) >= worst_buried for c in kept)
    RULES.apply(s, a)


def test_bury_choices_are_legal(bury_state):
    for a in RULES.legal_actions(bury_state, 1):
        RULES.apply(bury_state, a)


def _last_trick(hands, **kw):
    # dealer 0: team 0 defends, attackers (team 1) already hold 100 points
    s = play_state(hands, KITTY, dealer=0, trump="H", tricks=[earlier_trick(1, 100)], **kw)
    for seat in range(4):
        s = RULES.apply(s, act(seat, "play", hands[seat]))
    assert RULES.is_complete(s)
    return RULES.summary(s)


def test_attackers_winning_the_last_trick_with_a_side_suit_take_the_kitty_once():
    out = _last_trick({0: "3C", 1: "AC", 2: "4C", 3: "6C"})
    assert out["tricks"][-1]["winner"] == 1
    assert out["kitty_points"] == 25 and out["kitty_multiplier"] == 1
    assert out["attackers_points"] == 100 + 25


def test_attackers_winning_the_last_trick_with_trumps_take_the_kitty_twice():
    out = _last_trick({0: "3C", 1: "4H", 2: "4C", 3: "6C"})
    assert out["tricks"][-1]["winner"] == 1
    assert out["kitty_multiplier"] == 2
    assert out["attackers_points"] == 100 + 50


def test_a_trump_lead_won_by_attackers_doubles_the_kitty():
    out = _last_trick({0: "4H", 1: "AH", 2: "6H", 3: "7H"})
    assert out["tricks"][-1]["winner"] == 1 and out["kitty_multiplier"] == 2
    assert out["attackers_points"] == 150


def test_defenders_winning_the_last_trick_keep_the_kitty():
    out = _last_trick({0: "3C", 1: "QC", 2: "AC", 3: "6C"})
    assert out["tricks"][-1]["winner"] == 2
    assert out["attackers_points"] == 100
    assert out["kitty_multiplier"] == 1


def test_trick_points_count_for_the_attackers():
    out = _last_trick({0: "5C", 1: "AC", 2: "TC", 3: "KC"})
    assert out["tricks"][-1]["points"] == 25
    assert out["attackers_points"] == 100 + 25 + 25
