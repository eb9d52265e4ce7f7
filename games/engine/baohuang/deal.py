"""The deck and the deal (ruling B1; seeded shuffles per C3).

Four decks with jokers minus eleven 3s: 205 cards.  The five 3s left are ♠, ♥,
♦, ♣ and a second ♠.  One big joker is ``BJ*`` and one ♥4 is ``4H*``.  Each of the
five seats receives 41 cards: seat ``i`` gets cards ``41*i … 41*i+40`` of the
shuffled deck.

>>> len(deck()), sum(c.code == "BJ*" for c in deck()), sum(c.code == "4H*" for c in deck())
(205, 1, 1)
>>> d = deal_cards(7); [len(h) for h in d.hands]
[41, 41, 41, 41, 41]
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..base import RecordError
from ..cards import Card, CardError, format_cards, parse_cards, shuffled, standard_deck

SEATS = 5
HAND_SIZE = 41
DECK_SIZE = 205


def deck() -> list[Card]:
    """The 205-card B1 deck in a fixed order (before shuffling)."""
    cards: list[Card] = []
    for _ in range(4):
        cards.extend(c for c in standard_deck() if c.rank != "3")
    cards += [Card.parse(c) for c in ("3S", "3H", "3D", "3C", "3S")]
    cards[cards.index(Card.parse("BJ"))] = Card.parse("BJ*")
    cards[cards.index(Card.parse("4H"))] = Card.parse("4H*")
    assert len(cards) == DECK_SIZE
    return cards


DECK_COUNTER: Counter = Counter(deck())
#: :func:`deck` built once (cards are immutable): what :func:`deal_cards` shuffles.
_DECK: tuple[Card, ...] = tuple(deck())


@dataclass(frozen=True, slots=True)
class Deal:
    """What each seat received before anything moved (before 買3, the crown and
    tribute): five tuples of 41 cards, in dealing order.  ``seed`` is the
    shuffle seed when the deal was shuffled here (None from a record)."""

    hands: tuple[tuple[Card, ...], ...]
    seed: int | None = None

    def to_record(self) -> dict:
        """``{"deal": {"0": [codes], … "4": [codes]}}`` as in hand records."""
        return {"deal": {str(s): format_cards(h) for s, h in enumerate(self.hands)}}


def deal_cards(seed: int) -> Deal:
    """Shuffle the B1 deck with ``seed`` (C3) and deal 41 cards to each seat."""
    cards = shuffled(_DECK, seed)
    hands = tuple(tuple(cards[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(SEATS))
    return Deal(hands, seed)


def deal_from_record(hand: dict) -> Deal:
    """Read a record hand's ``deal`` (five lists of 41 codes keyed ``"0"``…``"4"``,
    or a list of five lists) and check it is exactly the B1 deck.

    Raises :class:`RecordError` for unknown codes, wrong hand sizes or a deck
    that is not the 205 cards of B1 (one ``BJ*``, one ``4H*``, five 3s ♠♥♦♣♠).
    """
    if not isinstance(hand, dict):
        raise RecordError("a hand must be an object")
    raw = hand.get("deal")
    if isinstance(raw, dict):
        keys = sorted(raw, key=str)
        if keys != [str(s) for s in range(SEATS)]:
            raise RecordError(f"deal must have the seats 0..4 as keys, got {keys}")
        lists = [raw[str(s)] for s in range(SEATS)]
    elif isinstance(raw, list) and len(raw) == SEATS:
        lists = raw
    else:
        raise RecordError("deal must be an object with five seats '0'..'4'")
    hands = []
    for s, codes in enumerate(lists):
        if not isinstance(codes, list):
            raise RecordError(f"deal of seat {s} must be a list of card codes")
        try:
            cards = parse_cards(codes)
        except CardError as exc:
            raise RecordError(f"seat {s}: {exc}") from None
        if len(cards) != HAND_SIZE:
            raise RecordError(f"seat {s} must receive {HAND_SIZE} cards, got {len(cards)} (B1)")
        hands.append(cards)
    got = Counter(c for h in hands for c in h)
    if got != DECK_COUNTER:
        extra = got - DECK_COUNTER
        missing = DECK_COUNTER - got
        parts = []
        if extra:
            parts.append("too many " + ", ".join(f"{c.code}×{n}" for c, n in sorted(extra.items(), key=str)))
        if missing:
            parts.append("missing " + ", ".join(f"{c.code}×{n}" for c, n in sorted(missing.items(), key=str)))
        raise RecordError("the deal is not the B1 deck of 205 cards: " + "; ".join(parts))
    return Deal(tuple(hands), None)
