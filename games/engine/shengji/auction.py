"""The 比牌 auction (S13): who names trumps and takes the others' shown cards.

比牌 points at hand level L: ♠A 6, ♥5 5, ♦5 4, BJ 3, SJ 2, a card of rank L 1
(any suit); every other card is worth nothing and cannot be shown.

In seat order from the opener, each player still in the auction either adds one or
more 比牌 from his hand to his face-up pile so that the pile's total exceeds the
highest total so far (verb ``bid``), or passes (``pass``, final).  The auction ends
when three have passed; the fourth wins, even with nothing shown.  He takes every
card the others showed and his own pile goes back to his hand.

>>> from ..cards import parse_cards
>>> pile_total(parse_cards(["AS", "5H", "2C"]), "2")
12
"""

from __future__ import annotations

from collections import Counter
from itertools import product
from operator import mul

from ..base import IllegalAction
from ..cards import Card, holds, tally
from .trumps import bid_points, bid_table

__all__ = [
    "bid_points",
    "pile_total",
    "check_bid",
    "bid_options",
    "next_in_auction",
    "bid_cards_in",
    "cheapest_bid",
]


def pile_total(pile, level: str) -> int:
    """The 比牌 points of a face-up pile (S13)."""
    try:
        return sum(map(bid_table(level).__getitem__, pile))
    except KeyError:  # a card outside the 54 kinds
        return sum(bid_points(c, level) for c in pile)


def bid_cards_in(hand, level: str) -> list[Card]:
    """The 比牌 in ``hand`` (cards worth at least one 比牌 point), in hand order."""
    return [c for c in hand if bid_points(c, level) > 0]


def check_bid(hand, pile, cards, highest: int, level: str) -> int:
    """Validate a bid; return the pile's new total.  Raises :class:`IllegalAction`
    (rule S13) when the bid is empty, names a card the seat does not hold or that
    is not a 比牌, or does not lift the pile above ``highest``.

    >>> from ..cards import parse_cards
    >>> check_bid(parse_cards(["AS", "3C"]), (), parse_cards(["AS"]), 5, "2")
    6
    """
    if not cards:
        raise IllegalAction("a bid shows at least one 比牌 (S13)", "S13")
    if not holds(hand, cards):
        missing = Counter(cards) - Counter(hand)
        raise IllegalAction(
            f"you do not hold {next(iter(missing)).code} to show (S13)", "S13"
        )
    for c in cards:
        if bid_points(c, level) <= 0:
            raise IllegalAction(
                f"{c.code} is not a 比牌: only ♠A, ♥5, ♦5, BJ, SJ and the level card "
                f"{level} can be shown (S13)",
                "S13",
            )
    total = pile_total(pile, level) + pile_total(cards, level)
    if total <= highest:
        raise IllegalAction(
            f"your pile would total {total}; a bid must exceed the highest total "
            f"so far, {highest} (S13)",
            "S13",
        )
    return total


def _order_key(card: Card, level: str):
    # Highest 比牌 value first; level cards in the C6 suit order S, H, D, C.
    return (-bid_points(card, level), "SHDC".index(card.suit) if card.suit else 4)


def bid_options(hand, pile, highest: int, level: str, limit: int = 200) -> list[tuple[Card, ...]]:
    """Every distinct bid by points that exceeds ``highest``, cheapest first.

    Level cards of different suits are worth the same 1 point; a bid using ``k``
    of them takes them in the C6 suit order (S, H, D, C), so the list holds one
    representative per combination of ♠A/♥5/♦5/BJ/SJ counts and level-card count.
    At most ``limit`` bids (the cheapest) are returned; empty when no bid exceeds.
    """
    need = highest - pile_total(pile, level)
    groups: dict[int, list[Card]] = {}
    for c in bid_cards_in(hand, level):
        groups.setdefault(bid_points(c, level), []).append(c)
    if not groups:
        return []
    for cards in groups.values():
        cards.sort(key=lambda c: _order_key(c, level))
    values = sorted(groups, reverse=True)
    out: list[tuple[int, tuple[Card, ...]]] = []
    for counts in product(*(range(len(groups[v]) + 1) for v in values)):
        total = sum(v * n for v, n in zip(values, counts))
        if total <= need or total == 0:
            continue
        cards = tuple(c for v, n in zip(values, counts) for c in groups[v][:n])
        out.append((total, cards))
    out.sort(key=lambda tc: (tc[0], len(tc[1])))
    return [cards for _, cards in out[:limit]]


def _bid_kinds(level: str) -> tuple[dict, tuple, tuple]:
    """``(table, high, ones)`` of a level, built once: its :func:`bid_table`,
    the kinds worth more than 1 point as ``(points, card)`` most points first
    (each value is one kind: ♠A, ♥5, ♦5, BJ, SJ), and the level cards worth 1
    in C6 suit order (S, H, D, C)."""
    got = _BID_KINDS.get(level)
    if got is None:
        table = bid_table(level)
        high = sorted(((p, c) for c, p in table.items() if p > 1), key=lambda pc: -pc[0])
        ones = sorted((c for c, p in table.items() if p == 1), key=lambda c: _order_key(c, level))
        got = _BID_KINDS[level] = (table, tuple(high), tuple(ones))
    return got


_BID_KINDS: dict = {}


def cheapest_bid(hand, pile, highest: int, level: str) -> tuple[Card, ...] | None:
    """The cheapest bid (fewest 比牌 points; among equal totals the most cards,
    i.e. level cards rather than a ♠A) that lifts the pile above ``highest``,
    or None when no bid can.  Level cards are taken in C6 suit order.

    The hand is read as counts of its 比牌 kinds (:func:`_bid_kinds`), one
    count (:func:`~games.engine.cards.tally`) instead of a points lookup per
    card; a hand holding a card outside the 54 kinds goes the per-card way
    (:func:`_cheapest_bid_cards`).

    >>> from ..cards import parse_cards
    >>> [c.code for c in cheapest_bid(parse_cards(["AS", "2C", "2S", "BJ"]), (), 3, "2")]
    ['BJ', '2S']
    """
    table, high_kinds, one_kinds = _bid_kinds(level)
    counts = tally(hand)
    if not counts.keys() <= table.keys():
        return _cheapest_bid_cards(hand, pile, highest, level)
    get = counts.get
    values: list[int] = []
    groups: list[tuple[Card, ...]] = []
    for v, c in high_kinds:
        n = get(c)
        if n:
            values.append(v)
            groups.append((c,) * n)
    ones: list[Card] = []
    for c in one_kinds:
        n = get(c)
        if n:
            ones += (c,) * n
    if not values and not ones:
        return None
    return _cheapest_of(values, groups, ones, highest - pile_total(pile, level))


def _cheapest_of(values, groups, ones, need: int) -> tuple[Card, ...] | None:
    """:func:`cheapest_bid`'s choice from the held 比牌 worth more than 1 point
    (``values`` most first, ``groups`` the cards of each), the level cards
    ``ones`` in the order they are taken, and the points ``need`` that the
    bid must exceed: every combination of counts in product order, the first
    with the least total and then the most cards; None if none exceeds."""
    best = None
    n_ones = len(ones)
    for counts in product(*(range(len(g) + 1) for g in groups)):
        high = sum(map(mul, values, counts))
        k = max(0, need + 1 - high)
        if k > n_ones or high + k == 0:
            continue
        key = (high + k, -(sum(counts) + k))
        if best is None or key < best[0]:
            best = (key, counts, k)
    if best is None:
        return None
    _key, counts, k = best
    return tuple(c for g, n in zip(groups, counts) for c in g[:n]) + tuple(ones[:k])


def _cheapest_bid_cards(hand, pile, highest: int, level: str) -> tuple[Card, ...] | None:
    """:func:`cheapest_bid` card by card (any cards, marked ones included)."""
    groups: dict[int, list[Card]] = {}
    for c in hand:
        p = bid_points(c, level)
        if p:
            groups.setdefault(p, []).append(c)
    if not groups:
        return None
    ones = sorted(groups.pop(1, []), key=lambda c: _order_key(c, level))
    values = sorted(groups, reverse=True)
    return _cheapest_of(values, [groups[v] for v in values], ones,
                        highest - pile_total(pile, level))


def next_in_auction(seat: int, passed) -> int:
    """The next seat after ``seat`` that has not passed (S13, C2 seat order)."""
    for step in range(1, 5):
        s = (seat + step) % 4
        if s not in passed:
            return s
    raise ValueError("everybody has passed")
