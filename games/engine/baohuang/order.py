"""Card order of 保皇 (ruling B2) and the compact card indices the engine uses.

B2, high to low: ``4H*`` (保子) > BJ (``BJ*`` ranks as a BJ) > SJ > 2 > A > K > Q >
J > 10 > 9 … 4 > 3.  Suits never matter for play.

Two integer views of a card are precomputed so that hot paths never touch strings:

* the **rank value** ``RANK_OF[card]`` in ``0..15``: 3 → 0, 4 → 1, … A → 11,
  2 → 12, SJ → 13, BJ and BJ* → 14, 4H* → 15 (plain ♥4 is an ordinary 4, value 1);
* the **kind index** ``KIND_OF[card]`` in ``0..55``: the 56 distinct cards of the
  deck ordered high to low by B2, ties in the C6 suit order S, H, D, C (plain BJ
  before BJ*).  A hand is a tuple of 56 counts indexed by kind.

>>> RANK_OF[Card.parse("4H*")], RANK_OF[Card.parse("4H")], RANK_OF[Card.parse("BJ*")]
(15, 1, 14)
>>> [c.code for c in KINDS[:6]]
['4H*', 'BJ', 'BJ*', 'SJ', '2S', '2H']
>>> rank_label(12), rank_label(15)
('2', '4H*')
"""

from __future__ import annotations

from ..cards import SUITS, Card

THREE, FOUR, TWO, SJ, BJ, H4 = 0, 1, 12, 13, 14, 15
"""Rank values of the 3, the 4, the 2, the small joker, the big joker and 4H*."""
PLAIN_RANKS = range(1, 13)
"""Rank values that can form the body of a set (4 … 2; B3)."""
NRANKS = 16

#: Face rank letters by rank value 0..12.
FACE = "3456789TJQKA2"

_kinds: list[Card] = [Card.parse("4H*"), Card.parse("BJ"), Card.parse("BJ*"), Card.parse("SJ")]
for _r in range(12, -1, -1):
    for _s in SUITS:
        _kinds.append(Card.parse(FACE[_r] + _s))

KINDS: tuple[Card, ...] = tuple(_kinds)
"""The 56 distinct baohuang cards, high to low (B2), C6 suit order within a rank."""
NKINDS = len(KINDS)
KIND_OF: dict[Card, int] = {c: i for i, c in enumerate(KINDS)}
RANK_OF: dict[Card, int] = {}
for _c in KINDS:
    if _c.marked and _c.rank == "4":
        RANK_OF[_c] = H4
    elif _c.rank == "BJ":
        RANK_OF[_c] = BJ
    elif _c.rank == "SJ":
        RANK_OF[_c] = SJ
    else:
        RANK_OF[_c] = FACE.index(_c.rank)
KIND_RANK: tuple[int, ...] = tuple(RANK_OF[c] for c in KINDS)
"""Rank value of each kind index."""
RANK_KINDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in range(NKINDS) if KIND_RANK[k] == r) for r in range(NRANKS)
)
"""Kind indices of each rank value, in the order the engine picks them (C6)."""

KIND_BJ_MARKED = KIND_OF[Card.parse("BJ*")]
KIND_H4_MARKED = KIND_OF[Card.parse("4H*")]
KIND_BJ = KIND_OF[Card.parse("BJ")]
KIND_SJ = KIND_OF[Card.parse("SJ")]
TWO_KINDS = RANK_KINDS[TWO]
THREE_KINDS = RANK_KINDS[THREE]

_LABELS = list(FACE) + ["SJ", "BJ", "4H*"]


def rank_label(value: int) -> str:
    """Human label of a rank value (``10`` is written ``T`` as in C1)."""
    return _LABELS[value]


def sort_cards(cards) -> list[Card]:
    """``cards`` sorted high to low by B2 (the 3 last), C6 suit order within a rank."""
    return sorted(cards, key=KIND_OF.__getitem__)


def kinds_to_cards(counts) -> list[Card]:
    """The cards of a 56-count hand, high to low."""
    out: list[Card] = []
    for k, n in enumerate(counts):
        if n:
            out.extend([KINDS[k]] * n)
    return out


def rank_counts(counts) -> tuple[int, ...]:
    """16 counts by rank value from a 56-count hand."""
    rc = [0] * NRANKS
    for k, n in enumerate(counts):
        if n:
            rc[KIND_RANK[k]] += n
    return tuple(rc)


def by_rank_cards(hand) -> list:
    """For each rank value, the hand's cards of that rank in pick order (C6)."""
    return [[KINDS[k] for k in ks for _ in range(hand[k])] for ks in RANK_KINDS]


def shape_to_cards(hand, shape, by_rank=None) -> tuple:
    """Concrete cards from a 56-count ``hand`` for a rank ``shape`` (sorted high
    to low): within a rank the engine takes cards in the C6 order (plain BJ
    before BJ*).  ``by_rank`` (from :func:`by_rank_cards`) may be passed to reuse work.
    Raises ``ValueError`` if the hand cannot supply the shape."""
    out: tuple = ()
    i, n = 0, len(shape)
    while i < n:
        r = shape[i]
        j = i + 1
        while j < n and shape[j] == r:
            j += 1
        need = j - i
        if by_rank is not None:
            cards = by_rank[r][:need]
            if len(cards) < need:
                raise ValueError(f"hand cannot supply {shape}")
            out += tuple(cards)
        else:
            for k in RANK_KINDS[r]:
                have = hand[k]
                if have:
                    if have >= need:
                        out += (KINDS[k],) * need
                        need = 0
                        break
                    out += (KINDS[k],) * have
                    need -= have
            if need:
                raise ValueError(f"hand cannot supply {shape}")
        i = j
    return out
