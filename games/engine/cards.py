"""Card notation shared by both games (ruling C1) and seeded decks (ruling C3).

A card is an immutable, interned :class:`Card`.  Codes are rank then suit:

>>> Card.parse("10H")
Card('TH')
>>> Card.parse("BJ*").marked
True
>>> format_cards(parse_cards(["AS", "sj", "4H*"]))
['AS', 'SJ', '4H*']

Ranks ``2 3 4 5 6 7 8 9 T J Q K A`` (``10`` accepted on input), suits ``S H D C``;
jokers ``SJ`` and ``BJ`` have no suit.  Baohuang's marked cards are ``BJ*`` and
``4H*``.  Hands are multisets: with several decks the same card occurs several
times, and because cards are interned, equal cards are the same object.

This module has no Django imports and no game rules: ordering and trump logic
live in each game's package.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

try:
    from _collections import _count_elements
except ImportError:  # another Python: the same loop in Python
    def _count_elements(mapping, iterable):
        get = mapping.get
        for elem in iterable:
            mapping[elem] = get(elem, 0) + 1

RANKS = "23456789TJQKA"
"""Plain ranks, low to high by face value (games define their own orders)."""
SUITS = "SHDC"
"""Suits in the tie-break order of ruling C6: S, H, D, C."""
JOKERS = ("SJ", "BJ")

SUIT_NAMES_ZH = {"S": "黑桃", "H": "红桃", "D": "方块", "C": "梅花"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class CardError(ValueError):
    """An unknown card code (ruling C1).  The message names the bad code."""


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One physical card.

    ``rank`` is one of ``RANKS`` or ``"SJ"``/``"BJ"`` for jokers; ``suit`` is one of
    ``SUITS`` or ``None`` for jokers; ``marked`` is true only for baohuang's ``BJ*``
    and ``4H*``.

    Cards are interned: ``Card("A", "S")``, ``Card.parse("AS")``, a copy and an
    unpickled card are all the same object, so equality and hashing are
    identity (fast, C-level), which matters in the engines' hot loops.
    """

    rank: str
    suit: str | None
    marked: bool = False

    def __new__(cls, rank: str, suit: str | None, marked: bool = False) -> "Card":
        key = (rank, suit, marked)
        existing = _BY_FIELDS.get(key)
        if existing is not None:
            return existing
        if _SEALED:
            raise CardError(f"no such card: {rank!r} {suit!r} marked={marked}")
        card = object.__new__(cls)
        _BY_FIELDS[key] = card
        return card

    def __reduce__(self):
        return (_card_from_code, (self.code,))

    def __copy__(self) -> "Card":
        return self

    def __deepcopy__(self, memo) -> "Card":
        return self

    @property
    def code(self) -> str:
        """The C1 output code, e.g. ``"TH"``, ``"SJ"``, ``"BJ*"``."""
        if self.suit is None:
            base = self.rank
        else:
            base = self.rank + self.suit
        return base + "*" if self.marked else base

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    @classmethod
    def parse(cls, code: str) -> "Card":
        """Return the interned card for ``code``; raise :class:`CardError` if unknown."""
        if isinstance(code, Card):
            return code
        if not isinstance(code, str):
            raise CardError(f"not a card code: {code!r}")
        key = code.strip().upper()
        try:
            return _INTERN[key]
        except KeyError:
            raise CardError(f"unknown card code: {code!r}") from None


def _card_from_code(code: str) -> Card:
    """Unpickling hook: the interned card for ``code``."""
    return _INTERN[code]


_BY_FIELDS: dict[tuple, "Card"] = {}
_SEALED = False


def _build_intern() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for rank in RANKS:
        for suit in SUITS:
            card = Card(rank, suit)
            table[card.code] = card
            if rank == "T":
                table["10" + suit] = card
    for joker in JOKERS:
        table[joker] = Card(joker, None)
    table["BJ*"] = Card("BJ", None, True)
    table["4H*"] = Card("4", "H", True)
    return table


_INTERN = _build_intern()
_SEALED = True

BJ_MARKED = _INTERN["BJ*"]
FOUR_H_MARKED = _INTERN["4H*"]


def parse_cards(codes: Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse a list of codes into a tuple of interned cards.

    Raises :class:`CardError` naming the first unknown code; a bare string
    (rather than a list) is refused, since ``"AS"`` would otherwise parse as two
    characters.
    """
    if isinstance(codes, str):
        raise CardError(f"expected a list of card codes, got the string {codes!r}")
    try:
        return tuple(Card.parse(c) for c in codes)
    except TypeError:
        raise CardError(f"expected a list of card codes, got {codes!r}") from None


def format_cards(cards: Iterable[Card]) -> list[str]:
    """The C1 codes of ``cards``, in the given order."""
    return [c.code for c in cards]


def standard_deck() -> list[Card]:
    """One 54-card deck: 52 suited cards then ``SJ`` and ``BJ`` (no marks)."""
    deck = [_INTERN[r + s] for s in SUITS for r in RANKS]
    deck += [_INTERN["SJ"], _INTERN["BJ"]]
    return deck


def new_seed() -> int:
    """A fresh shuffle seed from a cryptographically secure source (C3).

    Seeds are non-negative 63-bit integers so they fit a database bigint.
    """
    return secrets.randbits(63)


def shuffled(cards: Sequence[Card], seed: int) -> list[Card]:
    """A copy of ``cards`` shuffled deterministically by ``seed`` (C3).

    The same seed and input order always give the same result, on any machine,
    because :class:`random.Random` is seeded with an int (Mersenne Twister):
    ``random.Random(seed).shuffle``'s permutation (:func:`shuffle`).
    """
    out = list(cards)
    shuffle(out, random.Random(seed))
    return out


def shuffle(items: list, rng: random.Random) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does, leaving
    ``rng`` in the same state (C3: seeded deals and sampled worlds unchanged).

    Fisher–Yates from the end, each index drawn as CPython's ``_randbelow``
    draws it for a :class:`random.Random`: ``getrandbits`` of the bound's bit
    length, redrawn while too large.  Written out so that the compiled engine
    (``make engine-fast``) runs it as C, where ``random.shuffle`` stays
    interpreted Python (5 % of a compiled 升级 ``simulate``);
    ``tests/engine/test_shuffled.py`` compares the two.

    >>> a, b = list(range(10)), list(range(10))
    >>> r1, r2 = random.Random(7), random.Random(7)
    >>> shuffle(a, r1); r2.shuffle(b)
    >>> a == b and r1.random() == r2.random()
    True
    """
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def suit_tiebreak(card: Card) -> int:
    """Index of the card's suit in the C6 order S, H, D, C (jokers last)."""
    return SUITS.index(card.suit) if card.suit else len(SUITS)


def counter(cards: Iterable[Card]) -> Counter[Card]:
    """A multiset of cards."""
    return Counter(cards)


def tally(cards: Iterable[Card]) -> dict[Card, int]:
    """``{card: copies}`` of ``cards`` as a plain dict: what ``Counter(cards)``
    holds, keys in first-seen order, by the same C counting loop, without
    Counter's Python-level ``__init__``/``update`` (about four times faster for
    a few cards; the engines count hands and plays in their hot loops).  A
    missing card is absent: read it with ``.get(card, 0)``, not ``[card]``."""
    got: dict[Card, int] = {}
    _count_elements(got, cards)
    return got


def remove_cards(hand: Sequence[Card], cards: Iterable[Card]) -> tuple[Card, ...]:
    """``hand`` minus the multiset ``cards``.

    Raises ``ValueError`` naming a card that the hand does not hold (often enough).
    The relative order of the remaining cards is kept.
    """
    if type(cards) is not tuple and type(cards) is not list:
        cards = tuple(cards)
    out = list(hand)
    try:
        for card in cards:
            out.remove(card)  # the first occurrence: the order of the rest is kept
        return tuple(out)
    except ValueError:
        pass
    # not held (often enough): name the first missing card as the Counter does
    need = Counter(cards)
    out = []
    for card in hand:
        if need.get(card, 0) > 0:
            need[card] -= 1
        else:
            out.append(card)
    missing = [c for c, n in need.items() if n > 0]
    if missing:
        raise ValueError(f"you do not hold {missing[0].code}")
    return tuple(out)


def holds(hand: Sequence[Card], cards: Iterable[Card]) -> bool:
    """True if the multiset ``cards`` is contained in ``hand``."""
    need: dict[Card, int] = {}
    for card in cards:
        need[card] = need.get(card, 0) + 1
    if type(hand) is not tuple and type(hand) is not list:
        hand = list(hand)
    for card, n in need.items():
        if hand.count(card) < n:
            return False
    return True
