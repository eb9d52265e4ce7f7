"""Shengji units, tractors, decomposition and shape strength (S5, S6, S7, S11)."""

from collections import Counter

import pytest

from games.engine.cards import parse_cards
from games.engine.shengji.shapes import (
    classify,
    decompose,
    largest,
    stronger,
    tractors_in,
    units_in,
)
from games.engine.shengji.trumps import TrumpContext


def p(text):
    return parse_cards(text.split())


L7H = TrumpContext("7", "H")
L2H = TrumpContext("2", "H")


def shapes(text, ctx):
    return [(c.size, c.length) for c in decompose(p(text), ctx)]


def test_units_are_identical_cards():
    assert shapes("9C", L7H) == [(1, 1)]
    assert shapes("9C 9C", L7H) == [(2, 1)]
    assert shapes("9C 9C 9C", L7H) == [(3, 1)]
    assert shapes("9C 9C 9C 9C", L7H) == [(4, 1)]
    assert shapes("BJ BJ BJ", L7H) == [(3, 1)]


def test_level_cards_of_two_side_suits_are_not_a_pair():
    # 7C and 7D are equal trumps (S4) but not identical (S5)
    assert shapes("7C 7D", L7H) == [(1, 1), (1, 1)]
    assert classify(p("7C 7D"), L7H) == "throw"


@pytest.mark.parametrize("text,shape", [
    ("6C 6C 8C 8C", (2, 2)),               # level 7: ♣66 ♣88 (S6 example)
    ("4H 4H 6H 6H", (2, 2)),               # ♥5 gone: ♥44 ♥66
    ("2H 2H 4H 4H", (2, 2)),               # ♥3 is 正參謀: skipped
    ("6D 6D 6D 8D 8D 8D", (3, 2)),
    ("9S 9S 9S 9S TS TS TS TS", (4, 2)),
    ("5S 5S 6S 6S 8S 8S", (2, 3)),         # ♠5 is an ordinary spade
])
def test_tractors_across_skipped_ranks(text, shape):
    assert shapes(text, L7H) == [shape]


def test_ordinary_ranks_are_not_skipped():
    # ♠5 is an ordinary spade, so ♠44 ♠66 are not adjacent
    assert shapes("4S 4S 6S 6S", L7H) == [(2, 1), (2, 1)]


@pytest.mark.parametrize("text", [
    "3H 3H 4H 4H",      # 正參謀 never joins
    "3D 3D 4D 4D",      # 副參謀 (a trump) with ordinary ♦4: not even one suit
    "AS AS KS KS",      # ♠A is a 比牌
    "5H 5H 6H 6H",      # ♥5 is a 比牌
    "7H 7H 8H 8H",      # L of trumps
    "7H 7H 7S 7S",      # L cards
    "BJ BJ SJ SJ",      # jokers
    "5H 5H 5D 5D",      # 比牌
    "3H 3H 3D 3D",      # 參謀
])
def test_no_tractor_with_bipai_or_canmou(text):
    cards = p(text)
    if classify(cards, L7H) == "mixed":
        return
    assert all(c.length == 1 for c in decompose(cards, L7H))
    assert classify(cards, L7H) == "throw"


def test_decomposition_uses_largest_groups_then_joins_equal_sizes():
    # S11: ♣AAKKK is a pair of A and a triple of K; ♣AAAKKK one triple tractor
    assert shapes("AC AC KC KC KC", L2H) == [(3, 1), (2, 1)]
    assert shapes("AC AC AC KC KC KC", L2H) == [(3, 2)]
    assert classify(p("AC AC AC KC KC KC"), L2H) == "tractor"
    # 55 66 777 88: the triple splits the pairs into 5566 and 88
    assert shapes("5C 5C 6C 6C 7C 7C 7C 8C 8C", L2H) == [(2, 2), (3, 1), (2, 1)]
    # singles are never joined
    assert shapes("9C TC JC", L2H) == [(1, 1)] * 3


def test_classify():
    assert classify(p("9C 9C"), L2H) == "unit"
    assert classify(p("9C 9C TC TC"), L2H) == "tractor"
    assert classify(p("9C 9C JC JC"), L2H) == "throw"
    assert classify(p("9C 9H"), L2H) == "mixed"
    assert classify(p("2C 2D BJ"), L2H) == "throw"   # all trumps: one suit of play
    assert classify((), L2H) == "empty"


def one(text, ctx=L2H):
    comps = decompose(p(text), ctx)
    assert len(comps) == 1
    return comps[0]


@pytest.mark.parametrize("strong,weak", [
    ("4C 4C 4C 4C", "6C 6C 7C 7C"),                                   # 4444 > 6677
    ("6C 6C 6C 7C 7C 7C", "QC QC KC KC AC AC"),                       # 666777 > QQKKAA
    ("4C 4C 4C 4C 5C 5C 5C 5C", "JC JC QC QC KC KC AC AC"),           # 44445555 > JJQQKKAA
    ("6C 6C 6C 6C 7C 7C 7C 7C 8C 8C 8C 8C",
     "JC JC JC QC QC QC KC KC KC AC AC AC"),                          # quad > triple tractor
    ("8C 8C 9C 9C", "6C 6C 7C 7C"),                                   # same shape: top card
    ("AC AC", "KC KC"),
])
def test_s7_shape_strength(strong, weak):
    a, b = one(strong), one(weak)
    assert a.count == b.count
    assert stronger(a, b) and not stronger(b, a)


def test_equal_strength_is_not_stronger():
    a, b = one("7C", L7H), one("7D", L7H)
    assert not stronger(a, b) and not stronger(b, a)


def test_largest_component_of_a_throw():
    comps = decompose(p("AC KC 6C 6C 6C 6C 9C 9C"), TrumpContext("4", "H"))
    big = largest(comps)
    assert (big.size, big.length) == (4, 1) and big.describe() == "♣6666"


def test_structural_enumeration():
    counts = Counter(p("6C 6C 6C 8C 8C 8C 9C 9C 4H 4H 6H 6H 7H"))
    assert sorted(len(t) for t in tractors_in(counts, L7H, 2)) == [4, 4, 4, 6]
    assert [t for t in tractors_in(counts, L7H, 3)] == [tuple(p("8C 8C 8C 6C 6C 6C"))]
    assert len(units_in(counts, 2)) == 5 and len(units_in(counts, 3)) == 2


# ---------------------------------------------------------------- audit (S5, S6)

@pytest.mark.parametrize("level, trump, cards, kind", [
    # level K: the king is a trump, so ♣Q and ♣A are adjacent (top end)
    ("K", "H", "QC QC AC AC", "tractor"),
    ("K", "H", "QC QC AC AC AC", "throw"),
    # spades: ♠A is a trump and level K removes ♠K: ♠QQJJ is the top tractor
    ("K", "H", "QS QS JS JS", "tractor"),
    ("K", "H", "QS QS AS AS", "mixed"),
    # bottom end: spades trump makes ♣3 the 副參謀, level 4 removes ♣4: ♣2 is next to ♣5
    ("4", "S", "2C 2C 5C 5C", "tractor"),
    ("4", "S", "2H 2H 3H 3H", "tractor"),          # the other colour's 3 is ordinary
    ("4", "S", "3H 3H 5H 5H", "mixed"),            # ♥5 is a 比牌, so a trump
    # trump suit's ordinary cards: level 4, spades: ♠2 ♠5 adjacent (♠3 正參謀, ♠4 L)
    ("4", "S", "2S 2S 5S 5S", "tractor"),
    ("4", "S", "KS KS QS QS", "tractor"),
    ("4", "S", "AS AS KS KS", "throw"),             # ♠A never joins a tractor
    # hearts trump: ♥5 and ♥3 gone, ♥2 ♥4 ♥6 adjacent in trumps
    ("7", "H", "2H 2H 4H 4H 6H 6H", "tractor"),
    # diamonds side suit under hearts trump: ♦3 (副參謀) and ♦5 gone
    ("7", "H", "2D 2D 4D 4D 6D 6D", "tractor"),
    # never across level cards or 參謀 of another suit
    ("7", "H", "7C 7C 8C 8C", "mixed"),            # ♣7 is a trump
    ("7", "H", "6C 6C 8C 8C", "tractor"),
    ("7", "H", "7S 7S 7H 7H", "throw"),            # pairs of L, not a tractor
    ("7", "H", "3H 3H 3D 3D", "throw"),            # 參謀 never form a tractor
    ("7", "H", "SJ SJ BJ BJ", "throw"),            # jokers never form a tractor
    ("7", "H", "5D 5D 5H 5H", "throw"),
    ("7", "H", "AH AH 7H 7H", "throw"),            # L of T is not next to ♥A
])
def test_s6_tractor_adjacency_at_both_ends(level, trump, cards, kind):
    ctx = TrumpContext(level, trump)
    assert classify(p(cards), ctx) == kind, cards


def test_s5_a_pair_of_level_cards_needs_the_same_suit():
    ctx = TrumpContext("7", "H")
    assert [c.shape for c in decompose(p("7S 7S"), ctx)] == [(2, 1)]
    assert sorted(c.shape for c in decompose(p("7S 7D"), ctx)) == [(1, 1), (1, 1)]
    assert [c.shape for c in decompose(p("7S 7S 7S 7S"), ctx)] == [(4, 1)]   # a bomb of L


def test_slot_builder_equals_the_dataclass_constructor():
    """``slot_builder`` (positional, slot descriptors) builds what the frozen
    dataclass's own ``__init__`` builds: equal, same hash, same fields, still
    frozen; for Component and Step, the two hot ones."""
    import dataclasses

    import pytest as _pytest

    from games.engine.shengji.follow import Step, _step
    from games.engine.shengji.shapes import Component, _component, slot_builder
    from games.engine.cards import parse_cards

    cards = parse_cards(["AS", "AS", "KS", "KS"])
    for cls, build, values in ((Component, _component, (2, 2, 14, "S", cards)),
                               (Step, _step, ("tractor", 2, cards)),
                               (Component, slot_builder(Component), (1, 1, 3, "T", cards[:1]))):
        a, b = build(*values), cls(*values)
        assert type(a) is cls and a == b and hash(a) == hash(b)
        assert dataclasses.astuple(a) == dataclasses.astuple(b)
        with _pytest.raises(dataclasses.FrozenInstanceError):
            a.size = 3


def test_slot_builder_refuses_a_class_whose_init_does_more():
    """A ``__post_init__``, a default factory or a class without slots would be
    skipped or missed by the builder: it refuses them (TypeError)."""
    import dataclasses

    import pytest as _pytest

    from games.engine.shengji.shapes import slot_builder

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self):
            if self.a < 0:
                raise ValueError(self.a)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Defaulted:
        a: tuple = dataclasses.field(default_factory=tuple)

    @dataclasses.dataclass(frozen=True)
    class Unslotted:
        a: int

    for cls in (Checked, Defaulted, Unslotted):
        with _pytest.raises(TypeError):
            slot_builder(cls)
