"""Shengji following (ruling S9): suit rule, format obligation, "suit only" option.

Context: level 2, hearts trump, so clubs are an ordinary side suit 3..A.
Every hand carries some other cards so that the suit rule is not trivial.
"""

import pytest

from games.engine.base import IllegalAction
from games.engine.cards import parse_cards
from games.engine.shengji.follow import follow_hint
from games.engine.shengji.tricks import check_follow
from games.engine.shengji.trumps import TrumpContext

CTX = TrumpContext("2", "H")
OTHER = "KS 9D 4H"


def p(text):
    return parse_cards(text.split())


def legal(hand, lead, play, follow="format"):
    try:
        check_follow(p(hand + " " + OTHER), p(lead), p(play), CTX, follow)
    except IllegalAction as exc:
        assert exc.rule == "S9"
        return False
    return True


def message(hand, lead, play, follow="format"):
    with pytest.raises(IllegalAction) as exc:
        check_follow(p(hand + " " + OTHER), p(lead), p(play), CTX, follow)
    assert exc.value.rule == "S9" and "S9" in exc.value.message
    return exc.value.message


# --- suit rule ---------------------------------------------------------------

def test_exact_count():
    assert "2" in message("9C 9C JC", "6C 6C", "9C")


def test_holding_enough_only_led_suit():
    assert legal("9C JC QC", "6C 6C", "JC QC")
    m = message("9C JC QC", "6C 6C", "JC KS")
    assert "梅花" in m and "clubs" in m


def test_holding_fewer_all_of_them_plus_any():
    assert legal("9C", "6C 6C", "9C KS")
    assert legal("9C", "6C 6C", "9C 4H")
    assert not legal("9C", "6C 6C", "KS 9D")


def test_void_any_cards():
    assert legal("", "6C 6C", "KS 9D")
    assert legal("", "6C 6C", "KS 4H")


def test_cards_not_held_refused():
    assert not legal("9C JC", "6C 6C", "9C 9C")


# --- format obligation ---------------------------------------------------------

def test_pair_led():
    assert legal("9C 9C JC KC 4C", "6C 6C", "9C 9C")
    m = message("9C 9C JC KC 4C", "6C 6C", "JC KC")
    assert "对子" in m and "♣99" in m and "pair" in m
    # a triple supplies the pair
    assert legal("9C 9C 9C JC", "6C 6C", "9C 9C")
    assert not legal("9C 9C 9C JC", "6C 6C", "9C JC")
    # no pair: any two clubs
    assert legal("9C JC KC", "6C 6C", "JC KC")


def test_triple_led_holding_only_pairs():
    hand = "9C 9C JC JC 4C KC"
    assert legal(hand, "6C 6C 6C", "9C 9C 4C")
    assert legal(hand, "6C 6C 6C", "JC JC KC")
    assert legal(hand, "6C 6C 6C", "9C 9C JC")
    m = message(hand, "6C 6C 6C", "9C JC 4C")
    assert "对子" in m


def test_triple_led_holding_a_triple():
    assert legal("9C 9C 9C JC JC", "6C 6C 6C", "9C 9C 9C")
    assert "三张" in message("9C 9C 9C JC JC", "6C 6C 6C", "JC JC 9C")


def test_bomb_led_holding_a_triple():
    hand = "9C 9C 9C JC JC 4C"
    assert legal(hand, "6C 6C 6C 6C", "9C 9C 9C 4C")
    assert legal(hand, "6C 6C 6C 6C", "9C 9C 9C JC")
    m = message(hand, "6C 6C 6C 6C", "9C 9C JC JC")   # two pairs do not replace the triple
    assert "三张" in m and "♣999" in m


def test_bomb_led_holding_two_pairs():
    hand = "9C 9C JC JC 4C KC"
    assert legal(hand, "6C 6C 6C 6C", "9C 9C JC JC")
    m = message(hand, "6C 6C 6C 6C", "9C 9C 4C KC")
    assert "对子" in m and "♣JJ" in m


def test_bomb_led_holding_one_pair():
    hand = "9C 9C JC 4C KC"
    assert legal(hand, "6C 6C 6C 6C", "9C 9C 4C KC")
    assert legal(hand, "6C 6C 6C 6C", "9C 9C JC KC")
    assert not legal(hand, "6C 6C 6C 6C", "9C JC 4C KC")


def test_bomb_led_holding_a_bomb():
    assert legal("9C 9C 9C 9C JC JC JC", "6C 6C 6C 6C", "9C 9C 9C 9C")
    assert not legal("9C 9C 9C 9C JC JC JC", "6C 6C 6C 6C", "JC JC JC 9C")


def test_two_pair_tractor_led_holding_a_triple_and_a_pair():
    hand = "9C 9C 9C QC QC 4C KC"          # 9 and Q are not adjacent
    lead = "6C 6C 7C 7C"
    assert legal(hand, lead, "9C 9C QC QC")  # the triple supplies a pair
    assert not legal(hand, lead, "9C 9C 9C QC")
    assert not legal(hand, lead, "9C 9C 9C 4C")
    assert not legal(hand, lead, "9C 9C 4C KC")


def test_two_pair_tractor_led_holding_a_tractor():
    hand = "9C 9C 9C TC TC QC QC 4C"
    lead = "6C 6C 7C 7C"
    assert legal(hand, lead, "9C 9C TC TC")
    m = message(hand, lead, "9C 9C QC QC")
    assert "拖拉机" in m and "♣10 10 9 9" in m and "tractor" in m
    assert not legal(hand, lead, "9C 9C 9C TC")


def test_stronger_shape_satisfies():
    # a bomb on a 2-pair tractor, although a tractor is held (S7)
    assert legal("9C 9C TC TC JC JC JC JC", "6C 6C 7C 7C", "JC JC JC JC")
    # a triple tractor on a 3-pair tractor, although a 3-pair tractor is held
    assert legal("4C 4C 5C 5C 6C 6C 9C 9C 9C TC TC TC", "JC JC QC QC KC KC",
                 "9C 9C 9C TC TC TC")
    # not a stronger shape: triple + three singles
    assert not legal("4C 4C 5C 5C 6C 6C 9C 9C 9C TC TC TC", "JC JC QC QC KC KC",
                     "9C 9C 9C TC 4C 5C")


def test_triple_tractor_led():
    lead = "6C 6C 6C 7C 7C 7C"
    assert legal("9C 9C 9C TC TC TC QC QC QC 4C", lead, "9C 9C 9C TC TC TC")
    assert "拖拉机" in message("9C 9C 9C TC TC TC QC QC QC 4C", lead, "9C 9C 9C QC QC QC")
    # no triple tractor: as many triples as possible
    assert legal("9C 9C 9C KC KC KC 4C 4C 8C", lead, "9C 9C 9C KC KC KC")
    assert not legal("9C 9C 9C KC KC KC 4C 4C 8C", lead, "9C 9C 9C 4C 4C 8C")
    # one triple: the triple, then the largest group (a pair) for the other
    hand = "9C 9C 9C 4C 4C JC JC 8C KC"
    assert legal(hand, lead, "9C 9C 9C 4C 4C 8C")
    assert legal(hand, lead, "9C 9C 9C JC JC KC")
    assert "对子" in message(hand, lead, "9C 9C 9C 4C 8C KC")
    assert "三张" in message(hand, lead, "9C 9C 4C 4C JC JC")
    # only pairs: each triple takes a pair (its third card is a free single), so
    # two pairs are required, not three
    hand = "9C 9C 4C 4C JC JC 8C KC"
    assert legal(hand, lead, "9C 9C 4C 4C JC JC")
    assert legal(hand, lead, "9C 9C 4C 4C 8C KC")
    assert "对子" in message(hand, lead, "9C 9C 4C JC 8C KC")


def test_throw_with_mixed_units():
    lead = "AC AC KC KC KC"                 # 摔牌: pair of A, triple of K
    hand = "9C 9C 9C 5C 5C 4C 3C 8C"
    assert legal(hand, lead, "9C 9C 9C 5C 5C")
    m = message(hand, lead, "9C 9C 5C 5C 4C")
    assert "三张" in m and "♣999" in m
    m = message(hand, lead, "9C 9C 9C 4C 3C")
    assert "对子" in m and "♣55" in m


def test_throw_of_singles_has_no_format():
    assert legal("9C 9C 4C", "AC KC", "9C 4C")


def test_trump_lead_identical_cards_only():
    # ♣2 and ♦2 (L of side suits) are not a pair (S5)
    ctx_hand = "2C 2D 6H JH"
    assert legal(ctx_hand, "8H 8H", "2C 2D")
    assert legal(ctx_hand, "8H 8H", "6H JH")
    # jokers pair
    assert legal("BJ BJ 6H JH", "8H 8H", "BJ BJ")
    assert not legal("BJ BJ 6H JH", "8H 8H", "6H JH")


def test_suit_only_option():
    hand = "9C 9C JC KC 4C"
    assert legal(hand, "6C 6C", "JC KC", follow="suit")
    assert not legal(hand, "6C 6C", "JC KC")
    assert not legal(hand, "6C 6C", "JC KS", follow="suit")
    assert legal("9C 9C 9C QC QC", "6C 6C 7C 7C", "9C 9C 9C QC", follow="suit")


def test_unknown_follow_mode_is_a_programming_error():
    with pytest.raises(ValueError):
        check_follow(p("9C"), p("6C"), p("9C"), CTX, "strict")


def test_follow_hint_texts():
    hand = p("9C 9C 9C TC TC QC 4C KS")
    hint = follow_hint(hand, p("6C 6C 7C 7C"), CTX)
    assert "拖拉机" in hint and "♣10 10 9 9" in hint
    assert "全部" in follow_hint(p("9C KS 4H"), p("6C 6C"), CTX)
    assert "主牌" in follow_hint(p("KS 4H"), p("6C 6C"), CTX)
    assert "拖拉机" not in follow_hint(hand, p("6C 6C 7C 7C"), CTX, "suit")


# ---------------------------------------------------------------- audit (S6 + S9)

L7H = TrumpContext("7", "H")
LKH = TrumpContext("K", "H")


def legal_in(ctx, hand, lead, play, follow="format"):
    try:
        check_follow(p(hand), p(lead), p(play), ctx, follow)
    except IllegalAction as exc:
        assert exc.rule == "S9"
        return False
    return True


def test_tractor_held_across_a_skipped_rank_must_be_played():
    # level 7: ♣66 ♣88 is a tractor; holding it, a 2-pair tractor lead asks for it
    hand = "6C 6C 8C 8C QC QC 2S"
    assert legal_in(L7H, hand, "9C 9C TC TC", "6C 6C 8C 8C")
    assert not legal_in(L7H, hand, "9C 9C TC TC", "6C 6C QC QC")
    # level K: ♣QQ ♣AA is a tractor (♣K is a trump)
    assert not legal_in(LKH, "QC QC AC AC 4C 4C 2S", "5C 5C 6C 6C", "QC QC 4C 4C")
    assert legal_in(LKH, "QC QC AC AC 4C 4C 2S", "5C 5C 6C 6C", "QC QC AC AC")


def test_trump_tractor_led_across_canmou_and_bipai_gaps():
    # level 7 hearts: ♥2 ♥4 ♥6 are consecutive ordinary trumps (♥3 正參謀, ♥5 比牌)
    hand = "2H 2H 4H 4H 9H 9H AS 2C"
    assert legal_in(L7H, hand, "JH JH QH QH", "2H 2H 4H 4H")
    assert not legal_in(L7H, hand, "JH JH QH QH", "2H 2H 9H 9H")


def test_trump_lead_pairs_of_level_cards_are_pairs_only_when_identical():
    # a trump pair led: ♠7♠7 is a pair; ♠7♦7 is not
    assert not legal_in(L7H, "7S 7S 7D 9H 2C", "QH QH", "7S 7D")
    assert legal_in(L7H, "7S 7S 7D 9H 2C", "QH QH", "7S 7S")
    assert legal_in(L7H, "7S 7D 9H 2C", "QH QH", "7S 9H")          # no pair held


def test_stronger_shape_in_trumps_a_bomb_of_level_cards_on_a_pair_tractor():
    hand = "2H 2H 4H 4H 7S 7S 7S 7S 9H 2C"
    assert legal_in(L7H, hand, "JH JH QH QH", "7S 7S 7S 7S")
    assert legal_in(L7H, hand, "JH JH QH QH", "2H 2H 4H 4H")
    assert not legal_in(L7H, hand, "JH JH QH QH", "7S 7S 2H 2H")


def test_stronger_shape_quad_tractor_on_an_eight_card_pair_tractor():
    hand = "9C 9C 9C 9C TC TC TC TC 2C 2C 4C 4C 6C 6C 8C 8C KS"
    lead = "JC JC QC QC KC KC AC AC"
    assert legal_in(L7H, hand, lead, "9C 9C 9C 9C TC TC TC TC")     # S7 stronger shape
    # else the 4-pair tractor ♣66 88 99 10 10 (♣7 is a trump) is owed
    assert legal_in(L7H, hand, lead, "6C 6C 8C 8C 9C 9C TC TC")
    assert not legal_in(L7H, hand, lead, "2C 2C 4C 4C 6C 6C 8C 8C")  # ♣2 ♣4: ♣3 between
    assert not legal_in(L7H, hand, lead, "9C 9C 9C TC TC TC 2C 4C")


def test_suit_only_option_drops_the_format_but_not_the_suit_rule():
    hand = "9C 9C JC KC 2S"
    assert legal_in(L7H, hand, "6C 6C", "JC KC", follow="suit")
    assert not legal_in(L7H, hand, "6C 6C", "JC 2S", follow="suit")


def test_satisfies_keeps_each_verdict_on_its_requirement():
    """A play's verdict is computed once per requirement and card tuple: asked
    again (the engine's check of a follow the bot checked) it is the same, and
    another holding gets its own."""
    from games.engine.shengji.follow import requirement, satisfies

    lead = tuple(p("6C 6C"))
    hand = tuple(p("7C 7C 9C QC 3H"))
    req = requirement(hand, lead, CTX)
    bad, good = tuple(p("9C QC")), tuple(p("7C 7C"))
    msg = satisfies(req, bad, CTX)
    assert msg is not None and msg.startswith("S9: 必须跟对子")
    assert satisfies(req, good, CTX) is None
    assert req.verdicts == {bad: msg, good: None}
    assert satisfies(req, bad, CTX) == msg and satisfies(req, good, CTX) is None
    other = requirement(tuple(p("9C QC KC 3H")), lead, CTX)
    assert satisfies(other, bad, CTX) is None and other.verdicts == {bad: None}
    with pytest.raises(IllegalAction, match="必须跟对子"):
        check_follow(hand, lead, bad, CTX)


def test_check_follow_refuses_cards_not_held_often_enough():
    hand = tuple(p("7C 7C 9C QC 3H"))
    lead = tuple(p("6C 6C"))
    with pytest.raises(IllegalAction, match=r"do not hold 9C ×2") as exc:
        check_follow(hand, lead, tuple(p("9C 9C")), CTX)
    assert exc.value.rule == "S9"
    with pytest.raises(IllegalAction, match=r"do not hold KC ×1"):
        check_follow(list(hand), lead, p("7C KC"), CTX)
    check_follow(iter(hand), lead, p("7C 7C"), CTX)


def test_lead_plan_keeps_the_last_tuple_leads_plan():
    from games.engine.shengji.follow import lead_plan

    lead = tuple(p("6C 6C 7C 7C 9C"))
    plan = lead_plan(lead, CTX)
    assert plan.tractors == ((2, 2),) and plan.units == (1,) and plan.count == 5
    assert lead_plan(lead, CTX) is plan
    other = lead_plan(tuple(p("6C 6C")), CTX)
    assert other.tractors == () and other.units == (2,)
    assert lead_plan(tuple(p("6C 6C 7C 7C 9C")), CTX) == plan
    gap = tuple(p("6C 6C 8C 8C"))
    assert lead_plan(gap, CTX).tractors == ()
    assert lead_plan(gap, TrumpContext("7", "H")).tractors == ((2, 2),)   # S6: 7 is the level
