"""The deal (S1) and, on a match's first hand, the shown card (S13).

Four decks with jokers, 216 cards: 52 to each seat and 8 to the kitty.  The shuffle
comes from a seed (C3).  On hand 1 a random card of the 208 dealt to the players is
shown; the seat that receives it opens the auction.  Later hands: the dealer opens.

>>> from .match import new_match
>>> d = make_deal(new_match(), 42)
>>> [len(h) for h in d.hands], len(d.kitty), d.shown in d.hands[d.opener]
([52, 52, 52, 52], 8, True)
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from ..base import RecordError
from ..cards import Card, CardError, format_cards, parse_cards, shuffle, standard_deck
from .match import Match

SEATS = 4
HAND_SIZE = 52
KITTY_SIZE = 8
#: The four-deck multiset of S1 (216 cards).
FULL_DECK: tuple[Card, ...] = tuple(standard_deck() * 4)
FULL_COUNTS: Counter = Counter(FULL_DECK)


@dataclass(frozen=True, slots=True)
class Deal:
    """What each seat received before anything moved, the kitty, the opener.

    ``hands``: four tuples of 52 cards (seat order); ``kitty``: 8 cards;
    ``opener``: the seat that opens the auction; ``shown``: the card shown on a
    match's first hand (None later, or when rebuilt from a record without it).
    """

    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]
    opener: int
    shown: Card | None = None


def make_deal(match: Match, seed: int) -> Deal:
    """Shuffle the 216 cards with ``seed`` and deal them (S1, C3).

    Cards go round the table one at a time from seat 0; the last 8 form the
    kitty.  First hand (``match.dealer`` None): the same seeded generator then
    picks one of the 208 dealt cards to show; its receiver opens (S13).
    """
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    shuffle(deck, rng)
    dealt = deck[: SEATS * HAND_SIZE]
    hands = tuple(tuple(dealt[s::SEATS]) for s in range(SEATS))
    kitty = tuple(deck[SEATS * HAND_SIZE :])
    if match.dealer is None:
        index = rng.randrange(len(dealt))
        return Deal(hands, kitty, index % SEATS, dealt[index])
    return Deal(hands, kitty, match.dealer, None)


def _parse_list(raw, what: str) -> tuple[Card, ...]:
    if not isinstance(raw, list):
        raise RecordError(f"{what} must be a list of card codes")
    try:
        cards = parse_cards(raw)
    except CardError as exc:
        raise RecordError(f"{what}: {exc}") from None
    if any(c.marked for c in cards):
        raise RecordError(f"{what}: marked cards are not part of shengji decks")
    return cards


def deal_from_record(match: Match, hand: dict) -> Deal:
    """The deal of a record hand: ``deal`` (seat -> 52 codes), ``kitty`` (8 codes),
    ``opener`` (required on a match's first hand; later it must be the dealer
    if given) and optionally ``shown`` (a card in the opener's hand).

    Raises :class:`RecordError` on unknown cards, wrong sizes or a multiset that
    is not exactly four decks (S1).
    """
    if not isinstance(hand, dict):
        raise RecordError("a hand must be an object")
    raw = hand.get("deal")
    if not isinstance(raw, dict) or set(map(str, raw)) != {"0", "1", "2", "3"}:
        raise RecordError('deal must map the seats "0".."3" to card lists')
    norm = {str(k): v for k, v in raw.items()}
    hands = tuple(_parse_list(norm[str(s)], f"deal of seat {s}") for s in range(SEATS))
    for s, cards in enumerate(hands):
        if len(cards) != HAND_SIZE:
            raise RecordError(f"seat {s} must receive {HAND_SIZE} cards, got {len(cards)} (S1)")
    kitty = _parse_list(hand.get("kitty"), "kitty")
    if len(kitty) != KITTY_SIZE:
        raise RecordError(f"the kitty must have {KITTY_SIZE} cards, got {len(kitty)} (S1)")
    total: Counter = Counter(kitty)
    for cards in hands:
        total.update(cards)
    if total != FULL_COUNTS:
        extra = total - FULL_COUNTS
        missing = FULL_COUNTS - total
        detail = []
        if extra:
            detail.append("too many " + ", ".join(sorted(c.code for c in extra)))
        if missing:
            detail.append("missing " + ", ".join(sorted(c.code for c in missing)))
        raise RecordError("the deal is not exactly four decks (S1): " + "; ".join(detail))
    opener = hand.get("opener")
    if opener is not None and (
        not isinstance(opener, int) or isinstance(opener, bool) or not 0 <= opener < SEATS
    ):
        raise RecordError(f"opener must be a seat 0..3, got {opener!r}")
    if match.dealer is None:
        if opener is None:
            raise RecordError("opener is required on the first hand of a match (S13)")
    else:
        if opener is not None and opener != match.dealer:
            raise RecordError(
                f"on later hands the dealer opens (S13): expected {match.dealer}, got {opener}"
            )
        opener = match.dealer
    shown = None
    if hand.get("shown") is not None:
        try:
            shown = Card.parse(hand["shown"])
        except CardError as exc:
            raise RecordError(f"shown: {exc}") from None
        if shown not in hands[opener]:
            raise RecordError("the shown card must be in the opener's hand (S13)")
    return Deal(hands, kitty, opener, shown)


def deal_to_record(deal: Deal) -> dict:
    """``{"deal": {...}, "kitty": [...], "opener": n}`` (plus ``shown`` if known)."""
    out: dict = {
        "deal": {str(s): format_cards(h) for s, h in enumerate(deal.hands)},
        "kitty": format_cards(deal.kitty),
        "opener": deal.opener,
    }
    if deal.shown is not None:
        out["shown"] = deal.shown.code
    return out
