"""Trumps and the single-card order of four-deck 升級 (rulings S3, S4, S13, S16).

Public API (used by the hand flow; names and signatures are stable):

- :class:`TrumpContext` ``(level, trump)``: frozen; ``is_trump(card)``,
  ``suit_of(card)`` (``"T"`` for every trump, else the suit letter),
  ``order(card)`` (S4, higher = stronger), ``is_bipai(card)``,
  ``is_canmou(card)``, ``is_ordinary(card)``, ``adjacency_rank(card)`` (S6),
  ``sort_key(card)``.
- :func:`card_points` (S16), :func:`bid_points` (S13),
  :func:`sort_key` ``(card, ctx)``, :func:`trump_order` ``(ctx)``.

With trump suit T and hand level L (S3) the trumps are the 比牌 ♠A ♥5 ♦5 BJ SJ and
every card of rank L, the 參謀 (3 of T = 正參謀, 3 of T's colour-mate = 副參謀:
♥↔♦, ♠↔♣) and every other card of suit T.

>>> from games.engine.cards import Card
>>> ctx = TrumpContext("7", "H")
>>> [c.code for c in trump_order(ctx)][:10]
['AS', '5H', '5D', 'BJ', 'SJ', '3H', '3D', '7H', '7S', '7D']
>>> ctx.order(Card.parse("7S")) == ctx.order(Card.parse("7C"))
True
>>> ctx.suit_of(Card.parse("AS")), ctx.suit_of(Card.parse("KS"))
('T', 'S')
>>> card_points(Card.parse("KD")), bid_points(Card.parse("5H"), "7")
(10, 5)

Order numbers (only comparable within one suit of play, trumps being one suit):
side-suit cards use their face value 2..14; trumps: ordinary cards of T are
``20 + face``; L of the other suits 40 (all equal: the one played first wins, which
trick logic handles), L of T 41, 副參謀 42, 正參謀 43, SJ 44, BJ 45, ♦5 46, ♥5 47,
♠A 48.  Tables are built once per ``(level, trump)`` (``functools.lru_cache``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ..cards import RANKS, SUITS, Card

LEVELS = ("2", "4", "6", "7", "8", "9", "T", "J", "Q", "K")
"""Playable hand levels (S2): A, 3 and 5 are never levels."""

COLOUR_MATE = {"H": "D", "D": "H", "S": "C", "C": "S"}
"""The other suit of the same colour (副參謀, S3)."""

FACE = {r: i for i, r in enumerate(RANKS, start=2)}
"""Face value of a rank: 2..14 (A)."""

TRUMP_SUIT = "T"
"""The suit of play of every trump (S9: all trumps are one suit)."""

SUIT_NAMES = {"S": "黑桃", "H": "红桃", "D": "方块", "C": "梅花", "T": "主牌"}
SUIT_NAMES_EN = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "T": "trumps"}

_ALL_CARDS: tuple[Card, ...] = tuple(
    [Card.parse(r + s) for s in SUITS for r in RANKS] + [Card.parse("SJ"), Card.parse("BJ")]
)

_BIPAI_FIXED = ("AS", "5H", "5D", "BJ", "SJ")
_BID_POINTS = {"AS": 6, "5H": 5, "5D": 4, "BJ": 3, "SJ": 2}


def card_points(card: Card) -> int:
    """Points a card scores when won in a trick (S16): 5 → 5, 10 and K → 10, else 0."""
    pts = _POINTS.get(card)
    if pts is None:
        r = card.rank
        pts = _POINTS[card] = 5 if r == "5" else 10 if r in ("T", "K") else 0
    return pts


#: Card -> points (S16) for the 54 kinds of the deck (other cards are added
#: on first use by :func:`card_points`; cards are interned).  Hot loops index it.
_POINTS: dict = {}
CARD_POINTS = _POINTS
for _c in _ALL_CARDS:
    card_points(_c)


def bid_table(level: str) -> dict:
    """``{card: 比牌 points}`` for the 54 kinds at ``level`` (:func:`bid_points`
    of each; built once per level).  A card outside the 54 kinds is missing:
    callers fall back to :func:`bid_points`."""
    table = _BID_TABLES.get(level)
    if table is None:
        table = _BID_TABLES[level] = _bid_table(_norm_level(level))
    return table


def bid_points(card: Card, level: str) -> int:
    """比牌 points of a card in the auction (S13): ♠A 6, ♥5 5, ♦5 4, BJ 3, SJ 2,
    a card of rank ``level`` 1, any other card 0."""
    try:
        return _BID_TABLES[level][card]
    except KeyError:
        pass
    pts = bid_table(level).get(card)
    if pts is None:  # a card outside the 54 kinds (e.g. a marked baohuang card)
        return 1 if card.rank == _norm_level(level) and card.code not in _BID_POINTS else 0
    return pts


def _bid_table(level: str) -> dict:
    out = {}
    for suit in SUITS:
        for rank in RANKS:
            card = Card(rank, suit)
            pts = _BID_POINTS.get(card.code)
            out[card] = pts if pts is not None else (1 if rank == level else 0)
    for code in ("SJ", "BJ"):
        card = Card(code, None)
        out[card] = _BID_POINTS[code]
    return out


_BID_TABLES: dict = {}


def _norm_level(level: str) -> str:
    level = str(level).strip().upper()
    return "T" if level == "10" else level


@dataclass(frozen=True, slots=True)
class _Tables:
    info: dict  # Card -> (suit_of, order, adj or None)
    trump_order: tuple  # all trump cards high to low (equal ones in C6 order)
    sort_keys: dict  # Card -> tuple
    ordinary_ranks: dict  # suit letter -> tuple of ranks (low to high) that are ordinary
    #: Caches derived from these tables by other modules (``shapes.decompose``,
    #: ``movegen``'s sort keys), keyed by their name: they live and die with the
    #: context (``_build`` keeps at most 64), never compared or hashed.
    memo: dict = field(default_factory=dict, compare=False, hash=False, repr=False)


@lru_cache(maxsize=64)
def _build(level: str, trump: str) -> _Tables:
    mate = COLOUR_MATE[trump]
    special: dict[str, int] = {
        "AS": 48, "5H": 47, "5D": 46, "BJ": 45, "SJ": 44,
        "3" + trump: 43, "3" + mate: 42, level + trump: 41,
    }
    for s in SUITS:
        if s != trump:
            special.setdefault(level + s, 40)
    info: dict = {}
    ordinary_ranks: dict[str, tuple[str, ...]] = {}
    for s in SUITS:
        ranks = []
        for r in RANKS:
            c = Card.parse(r + s)
            if c.code in special:
                continue
            ranks.append(r)
        ordinary_ranks[s] = tuple(ranks)
        for adj, r in enumerate(ranks):
            c = Card.parse(r + s)
            if s == trump:
                info[c] = ("T", 20 + FACE[r], adj)
            else:
                info[c] = (s, FACE[r], adj)
    for code, order in special.items():
        info[Card.parse(code)] = ("T", order, None)
    assert len(info) == 54
    trumps = [c for c in _ALL_CARDS if info[c][0] == "T"]
    trumps.sort(key=lambda c: (-info[c][1], _c6(c)))
    keys = {}
    for c, (s, o, _a) in info.items():
        group = 0 if s == "T" else 1 + SUITS.index(s)
        keys[c] = (group, -o, _c6(c))
    return _Tables(info, tuple(trumps), keys, ordinary_ranks)


def _c6(card: Card) -> int:
    return SUITS.index(card.suit) if card.suit else len(SUITS)


@dataclass(frozen=True, slots=True)
class TrumpContext:
    """The trump situation of a hand: ``level`` (rank code, S2) and ``trump`` (suit).

    ``TrumpContext("10", "h")`` is normalised to ``TrumpContext("T", "H")``.
    Raises ``ValueError`` for a level outside S2 or an unknown suit.  Hashable and
    immutable; lookups are dictionary reads from tables cached per context.
    """

    level: str
    trump: str
    _t: _Tables = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        level = _norm_level(self.level)
        trump = str(self.trump).strip().upper()
        if level not in LEVELS:
            raise ValueError(f"level must be one of {' '.join(LEVELS)} (S2), got {self.level!r}")
        if trump not in SUITS:
            raise ValueError(f"trump must be one of S H D C, got {self.trump!r}")
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "trump", trump)
        object.__setattr__(self, "_t", _build(level, trump))

    def __reduce__(self):
        # pickle/copy as (level, trump): the cached tables are rebuilt (shared)
        return (TrumpContext, (self.level, self.trump))

    # -- per-card queries -------------------------------------------------
    def info(self, card: Card) -> tuple[str, int, int | None]:
        """``(suit_of, order, adjacency_rank)`` in one lookup (hot path)."""
        return self._t.info[card]

    def is_trump(self, card: Card) -> bool:
        """True for 比牌, 參謀, rank L and every card of suit T (S3)."""
        return self._t.info[card][0] == "T"

    def suit_of(self, card: Card) -> str:
        """The suit of play: ``"T"`` for every trump, else the card's suit letter."""
        return self._t.info[card][0]

    def order(self, card: Card) -> int:
        """Single-card strength (S4), higher is stronger; only comparable between
        cards of the same suit of play.  L of the non-trump suits are equal."""
        return self._t.info[card][1]

    def is_bipai(self, card: Card) -> bool:
        """比牌 (S3/S13): ♠A, ♥5, ♦5, BJ, SJ and every card of rank L."""
        return card.code in _BIPAI_FIXED or card.rank == self.level

    def is_canmou(self, card: Card) -> bool:
        """參謀 (S3): the 3 of T (正參謀) or the 3 of T's colour-mate (副參謀)."""
        return card.rank == "3" and card.suit in (self.trump, COLOUR_MATE[self.trump])

    def is_ordinary(self, card: Card) -> bool:
        """True for cards that can form tractors (S6): not 比牌 nor 參謀 nor L."""
        return self._t.info[card][2] is not None

    def adjacency_rank(self, card: Card) -> int | None:
        """Position of the card among its suit's ordinary ranks (S6), or None for
        比牌/參謀/L (which never form or join a tractor).  Two ordinary cards of the
        same suit of play are adjacent when these differ by one: level 7 makes
        ♣6 and ♣8 adjacent; ♥5 being a 比牌 makes ♥4 and ♥6 adjacent.
        """
        return self._t.info[card][2]

    def ordinary_ranks(self, suit: str) -> tuple[str, ...]:
        """Ranks (low to high) of ``suit`` that are ordinary cards (S6); for the
        trump suit letter these are the ordinary trumps."""
        return self._t.ordinary_ranks[suit]

    def sort_key(self, card: Card) -> tuple[int, int, int]:
        """See :func:`sort_key`."""
        return self._t.sort_keys[card]


def sort_key(card: Card, ctx: TrumpContext) -> tuple[int, int, int]:
    """Key to sort a hand for display: trumps first (strongest first, S4), then
    the side suits in the order S H D C, each high to low; equal cards by C6.

    >>> ctx = TrumpContext("2", "D")
    >>> from games.engine.cards import parse_cards
    >>> [c.code for c in sorted(parse_cards(["3C", "2C", "KS", "AS", "4D"]), key=ctx.sort_key)]
    ['AS', '2C', '4D', 'KS', '3C']
    """
    return ctx._t.sort_keys[card]


def trump_order(ctx: TrumpContext) -> tuple[Card, ...]:
    """Every distinct trump card, strongest first (S4); equal cards (L of the
    non-trump suits) in C6 order S, H, D, C."""
    return ctx._t.trump_order
