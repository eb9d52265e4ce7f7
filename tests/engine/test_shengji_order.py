"""Shengji trumps and single order (rulings S3, S4, S6 adjacency, S13, S16)."""

import pytest

from games.engine.cards import Card, parse_cards
from games.engine.shengji.trumps import (
    TrumpContext,
    bid_points,
    card_points,
    sort_key,
    trump_order,
)

C = Card.parse


def p(text):
    return parse_cards(text.split())


LEVEL7_HEARTS_TRUMPS = [  # S4, high to low; '=' groups equal cards
    ["AS"], ["5H"], ["5D"], ["BJ"], ["SJ"], ["3H"], ["3D"], ["7H"], ["7S", "7D", "7C"],
    ["AH"], ["KH"], ["QH"], ["JH"], ["TH"], ["9H"], ["8H"], ["6H"], ["4H"], ["2H"],
]


def test_every_entry_of_the_trump_order_level7_hearts():
    ctx = TrumpContext("7", "H")
    orders = []
    for group in LEVEL7_HEARTS_TRUMPS:
        values = {ctx.order(C(code)) for code in group}
        assert len(values) == 1, group  # L of the non-trump suits are equal (S4)
        orders.append(values.pop())
        for code in group:
            assert ctx.is_trump(C(code)) and ctx.suit_of(C(code)) == "T"
    assert orders == sorted(orders, reverse=True)
    assert len(set(orders)) == len(orders)
    listed = [c.code for c in trump_order(ctx)]
    assert listed == [code for group in LEVEL7_HEARTS_TRUMPS for code in group]


def test_trumps_are_exactly_the_s3_cards():
    ctx = TrumpContext("7", "H")
    trumps = {c.code for c in trump_order(ctx)}
    expected = {code for group in LEVEL7_HEARTS_TRUMPS for code in group}
    assert trumps == expected
    # the two remaining 3s are ordinary side cards (S3)
    for code in ["3S", "3C", "5S", "5C", "AD", "AC", "KS"]:
        assert not ctx.is_trump(C(code)) and ctx.suit_of(C(code)) == code[1]


@pytest.mark.parametrize("suit,ranks", [
    ("S", "K Q J T 9 8 6 5 4 3 2"),      # ♠A is a 比牌, 7 is L
    ("D", "A K Q J T 9 8 6 4 2"),        # ♦5 比牌, ♦3 副參謀, 7 L
    ("C", "A K Q J T 9 8 6 5 4 3 2"),    # only L moved
])
def test_side_suits_run_high_to_low_without_their_trump_cards(suit, ranks):
    ctx = TrumpContext("7", "H")
    cards = [C(r + suit) for r in ranks.split()]
    orders = [ctx.order(c) for c in cards]
    assert orders == sorted(orders, reverse=True) and len(set(orders)) == len(orders)
    side = [c for c in map(C, [r + suit for r in "23456789TJQKA"]) if not ctx.is_trump(c)]
    assert sorted(side, key=ctx.order, reverse=True) == cards


def test_spade_trump_keeps_spade_ace_on_top_and_clubs_three_is_fu_canmou():
    ctx = TrumpContext("2", "S")
    order = [c.code for c in trump_order(ctx)]
    assert order[:10] == ["AS", "5H", "5D", "BJ", "SJ", "3S", "3C", "2S", "2H", "2D"]
    assert order[10:] == ["2C", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S"]
    assert ctx.is_canmou(C("3S")) and ctx.is_canmou(C("3C"))
    assert not ctx.is_canmou(C("3H")) and not ctx.is_trump(C("3H"))


def test_bipai_and_canmou_membership():
    ctx = TrumpContext("9", "D")
    for code in ["AS", "5H", "5D", "BJ", "SJ", "9S", "9H", "9D", "9C"]:
        assert ctx.is_bipai(C(code)), code
    for code in ["AH", "5S", "3D", "KD"]:
        assert not ctx.is_bipai(C(code)), code
    assert ctx.is_canmou(C("3D")) and ctx.is_canmou(C("3H"))
    assert not ctx.is_canmou(C("3S"))


def test_adjacency_skips_moved_ranks_and_excludes_bipai_and_canmou():
    ctx = TrumpContext("7", "H")
    a = ctx.adjacency_rank
    assert a(C("8C")) == a(C("6C")) + 1          # level 7: ♣6 ♣8 adjacent (S6)
    assert a(C("6H")) == a(C("4H")) + 1          # ♥5 gone: ♥4 ♥6 adjacent
    assert a(C("4H")) == a(C("2H")) + 1          # ♥3 (正參謀) gone: ♥2 ♥4 adjacent
    assert a(C("KS")) is not None and a(C("AS")) is None
    for code in ["5H", "5D", "3H", "3D", "7C", "7H", "BJ", "SJ"]:
        assert a(C(code)) is None, code
    assert a(C("3C")) is not None and a(C("4C")) == a(C("3C")) + 1


def test_card_points_s16():
    assert [card_points(c) for c in p("5S 5H TD KC AS QH 2C BJ")] == [5, 5, 10, 10, 0, 0, 0, 0]
    deck = [c for c in p("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")]
    assert sum(card_points(c) for c in deck) * 4 * 4 == 400  # 400 in all (S16)


def test_bid_points_s13():
    assert [bid_points(c, "7") for c in p("AS 5H 5D BJ SJ 7C 7H AH 5S 2C")] == [
        6, 5, 4, 3, 2, 1, 1, 0, 0, 0]
    assert bid_points(C("TC"), "10") == 1


def test_sort_key_trumps_first_then_suits_high_to_low():
    ctx = TrumpContext("7", "H")
    hand = p("2C 7D AS KS 4H 7S 3C AD 9H BJ 5S")
    ordered = [c.code for c in sorted(hand, key=ctx.sort_key)]
    assert ordered == ["AS", "BJ", "7S", "7D", "9H", "4H", "KS", "5S", "AD", "3C", "2C"]
    assert sorted(hand, key=lambda c: sort_key(c, ctx)) == sorted(hand, key=ctx.sort_key)


@pytest.mark.parametrize("level,trump", [("3", "H"), ("A", "S"), ("5", "D"), ("7", "X")])
def test_bad_context_is_refused(level, trump):
    with pytest.raises(ValueError):
        TrumpContext(level, trump)


def test_context_normalises_and_is_hashable():
    assert TrumpContext("10", "h") == TrumpContext("T", "H")
    assert len({TrumpContext("10", "h"), TrumpContext("T", "H")}) == 1


def test_context_pickles_as_level_and_trump():
    import copy
    import pickle

    ctx = TrumpContext("7", "H")
    again = pickle.loads(pickle.dumps(ctx))
    assert again == ctx and again.order(C("7S")) == ctx.order(C("7S"))
    assert len(pickle.dumps(ctx)) < 200
    assert copy.deepcopy(ctx) == ctx


# ---------------------------------------------------------------- audit (S3, S4)

ALL_LEVELS = ("2", "4", "6", "7", "8", "9", "T", "J", "Q", "K")
MATE = {"H": "D", "D": "H", "S": "C", "C": "S"}


@pytest.mark.parametrize("level", ALL_LEVELS)
@pytest.mark.parametrize("trump", "SHDC")
def test_s4_full_trump_order_for_every_level_and_trump(level, trump):
    """S4 at every level and trump: 比牌, 正參謀 > 副參謀 (the colour mate),
    L of T > L of the other three (equal), then T's remaining cards A..2."""
    ctx = TrumpContext(level, trump)
    mate = MATE[trump]
    head = ["AS", "5H", "5D", "BJ", "SJ", "3" + trump, "3" + mate, level + trump]
    others = [level + s for s in "SHDC" if s != trump]
    rest = [r + trump for r in "AKQJT98765432"
            if r not in (level, "3") and r + trump not in ("AS", "5H", "5D")]
    got = [c.code for c in trump_order(ctx)]
    assert got == head + others + rest
    order = [ctx.order(C(c)) for c in got]
    assert order == sorted(order, reverse=True)
    assert len({ctx.order(C(c)) for c in others}) == 1          # equal to each other
    assert ctx.order(C(level + trump)) > ctx.order(C(others[0])) > ctx.order(C(rest[0]))
    # the 3s of the other colour are ordinary cards of their suits
    for s in "SHDC":
        if s not in (trump, mate):
            assert not ctx.is_trump(C("3" + s)) and ctx.suit_of(C("3" + s)) == s
            assert ctx.adjacency_rank(C("3" + s)) is not None


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_s4_spades_side_suit_runs_from_king_without_its_trump_cards(level):
    # ♠A is always a 比牌; with clubs trump ♠3 is the 副參謀; L of ♠ is a trump
    ctx = TrumpContext(level, "C")
    side = [c for c in p(" ".join(r + "S" for r in "AKQJT98765432")) if not ctx.is_trump(c)]
    expected = [r for r in "KQJT98765432" if r not in (level, "3")]
    assert [c.rank for c in sorted(side, key=ctx.order, reverse=True)] == expected


def test_s4_spade_ace_tops_the_spade_trumps_and_level_k_moves_the_king():
    ctx = TrumpContext("K", "S")
    codes = [c.code for c in trump_order(ctx)]
    assert codes[:12] == ["AS", "5H", "5D", "BJ", "SJ", "3S", "3C", "KS", "KH", "KD",
                          "KC", "QS"]
    assert "5S" in codes and ctx.order(C("5S")) < ctx.order(C("6S"))  # ♠5 is ordinary
