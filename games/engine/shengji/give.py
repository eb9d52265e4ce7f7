"""還牌 (S14): the auction winner gives back as many cards as he took.

After naming trumps, the auction winner gives each loser (a seat whose shown cards
he took) as many cards as he took from that seat, in one ``give`` action mapping
loser seat -> cards.  Two constraints, judged on the winner's hand after taking:

- **points**: no point card (any 5, 10 or K);
- **suits**: after giving he still holds at least one card of each suit he held
  before.  Suits are the suits of play once trumps are named (S3, S9): the three
  side suits and the trumps (all trumps are one suit), i.e. ``ctx.suit_of``.

If no give satisfies both, the suit constraint yields first, and only as far as
needed: no point cards, and at most ``needed - Σ spare`` suits given up (each suit
whose cards are all non-point can supply one more card, its last); if there are not
even enough non-point cards, the point constraint yields as little as possible:
every non-point card is given, plus the fewest point cards.

>>> from ..cards import parse_cards
>>> from .trumps import TrumpContext
>>> ctx = TrumpContext("2", "H")
>>> hand = parse_cards("4D 6D 3S 4S 2C".split())   # ♦ and ♠ spare one each, ♣2 a trump
>>> give_mode(hand, 3, ctx), max_suits_given_up(hand, 3, ctx)
('no_points', 1)

:func:`give_mode` names the constraints that apply; :func:`check_give` refuses a
give with a message naming S14; :func:`can_complete` tells the UI whether a partial
selection can still be completed; :func:`choose_give` builds a legal give.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Mapping

from ..base import IllegalAction
from ..cards import Card, holds
from .trumps import CARD_POINTS, card_points

#: Both constraints apply.
STRICT = "strict"
#: The suit constraint yielded: only "no point cards" applies.
NO_POINTS = "no_points"
#: Not enough non-point cards: all of them go, plus the fewest point cards.
YIELD_ALL = "yield_all"


def _suit_counts(hand, ctx) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """``(total, nonpoint, caps)`` of ``hand``, per suit of play, as plain dicts
    in first-seen order: its cards, its non-point cards (S16; a suit without
    one is absent: read with ``.get``), and how many non-point cards can go
    while one card of the suit stays (S14).  One pass over the hand, which
    every S14 question below starts from."""
    info = ctx._t.info
    points = CARD_POINTS
    total: dict[str, int] = {}
    nonpoint: dict[str, int] = {}
    for c in hand:
        s = info[c][0]
        total[s] = total.get(s, 0) + 1
        if not points[c]:
            nonpoint[s] = nonpoint.get(s, 0) + 1
    caps = {}
    for s, n in total.items():
        p = nonpoint.get(s, 0)
        caps[s] = p if n > p else max(p - 1, 0)
    return total, nonpoint, caps


def _mode(nonpoint: dict[str, int], caps: dict[str, int], needed: int) -> str:
    """:func:`give_mode` from the counts of :func:`_suit_counts`."""
    if sum(caps.values()) >= needed:
        return STRICT
    if sum(nonpoint.values()) >= needed:
        return NO_POINTS
    return YIELD_ALL


def max_suits_given_up(hand, needed: int, ctx) -> int:
    """How many suits of play the give may empty (S14): 0 when both constraints
    can hold, else the fewest that make ``needed`` non-point cards available."""
    _, _, caps = _suit_counts(hand, ctx)
    return max(needed - sum(caps.values()), 0)


def give_mode(hand, needed: int, ctx) -> str:
    """Which S14 constraints apply to giving ``needed`` cards from ``hand``."""
    _, nonpoint, caps = _suit_counts(hand, ctx)
    return _mode(nonpoint, caps, needed)


def _flatten(give: Mapping[int, Iterable[Card]]) -> list[Card]:
    return [c for cards in give.values() for c in cards]


def _violation(hand, given: list[Card], needed: int, ctx, partial: bool) -> str | None:
    """Why ``given`` (complete, or a partial selection) breaks S14, or None."""
    if not holds(hand, given):
        missing = Counter(given) - Counter(hand)
        return f"you do not hold {next(iter(missing)).code} (S14)"
    if len(given) > needed:
        return f"you give back {needed} cards in all, not {len(given)} (S14)"
    total, nonpoint, caps = _suit_counts(hand, ctx)
    mode = _mode(nonpoint, caps, needed)
    points = [c for c in given if card_points(c)]
    if mode in (STRICT, NO_POINTS):
        if points:
            return f"no point cards (5, 10, K) in 還牌: {points[0].code} (S14)"
    else:
        allowed = needed - sum(nonpoint.values())
        if len(points) > allowed:
            return (
                f"give every non-point card before a point card: at most {allowed} "
                f"point card(s) (S14)"
            )
    if mode == NO_POINTS:
        # the suit constraint yields only as far as needed (S14)
        used = Counter(ctx.suit_of(c) for c in given)
        k = max(needed - sum(caps.values()), 0)  # max_suits_given_up
        emptied = [s for s, n in used.items() if n >= total[s]]
        if len(emptied) > k:
            return (f"you may give up only {k} suit{'s' if k != 1 else ''} to make up the "
                    f"cards; this give empties {len(emptied)} (S14)")
        if partial:
            room = sum(caps[s] - used.get(s, 0) for s in caps if s not in emptied)
            spare_suits = sum(1 for s in caps if s not in emptied and total[s] == nonpoint.get(s, 0))
            room += min(k - len(emptied), spare_suits)
            if room < needed - len(given):
                return "this selection cannot be completed without giving up another suit (S14)"
    if mode == STRICT:
        used = Counter(ctx.suit_of(c) for c in given)
        for s, n in used.items():
            if n > caps.get(s, 0):
                name = "trumps" if s == "T" else {"S": "spades", "H": "hearts",
                                                  "D": "diamonds", "C": "clubs"}[s]
                return f"you must keep at least one card of {name} (S14)"
        if partial:
            room = sum(max(caps[s] - used.get(s, 0), 0) for s in caps)
            if room < needed - len(given):
                return "this selection cannot be completed without breaking a suit (S14)"
    return None


def check_give(hand, owed: Mapping[int, int], give: Mapping[int, tuple[Card, ...]], ctx) -> None:
    """Validate a complete give; raise :class:`IllegalAction` (rule S14).

    ``owed`` maps each loser seat to the number of cards taken from it; ``give``
    maps loser seat -> cards and must cover exactly those seats and counts.
    """
    if set(give) != set(owed):
        want = ", ".join(str(s) for s in sorted(owed))
        raise IllegalAction(f"give back to exactly these seats: {want} (S14)", "S14")
    for seat, n in owed.items():
        if len(give[seat]) != n:
            raise IllegalAction(
                f"seat {seat} showed {n} card(s): give back exactly {n}, not "
                f"{len(give[seat])} (S14)",
                "S14",
            )
    why = _violation(hand, _flatten(give), sum(owed.values()), ctx, partial=False)
    if why:
        raise IllegalAction(why, "S14")


def can_complete(hand, owed: Mapping[int, int], partial: Mapping[int, Iterable[Card]], ctx):
    """For the UI: can this partial selection still become a legal give?

    Returns ``(True, None)`` or ``(False, reason)``; ``partial`` maps loser seats
    to the cards picked so far (any seat may be missing or short).
    """
    for seat, cards in partial.items():
        if seat not in owed:
            return False, f"seat {seat} showed no cards: nothing goes back to it (S14)"
        if len(tuple(cards)) > owed[seat]:
            return False, f"seat {seat} gets back only {owed[seat]} card(s) (S14)"
    given = [c for cards in partial.values() for c in cards]
    why = _violation(hand, given, sum(owed.values()), ctx, partial=True)
    return (why is None), why


def choose_give(hand, owed: Mapping[int, int], ctx, low_key=None, prefer=None) -> dict[int, tuple[Card, ...]]:
    """A legal give: the lowest cards (by ``low_key``, default the trump order)
    that the applicable S14 constraints allow, optionally preferring suits in
    ``prefer`` (a suit -> priority function; lower goes first).  Losers are served
    in the order of ``owed`` (auction order).
    """
    needed = sum(owed.values())
    _, nonpoint, caps = _suit_counts(hand, ctx)
    mode = _mode(nonpoint, caps, needed)
    key = low_key or (lambda c: ctx.order(c))
    pool = sorted(hand, key=(lambda c: (prefer(c), key(c))) if prefer else key)
    if mode == YIELD_ALL:
        chosen = [c for c in pool if not card_points(c)]
        chosen += [c for c in pool if card_points(c)][: needed - len(chosen)]
    else:
        # the spare non-point cards (none of their suit emptied), lowest
        # first; then, where they are too few (NO_POINTS: the suit
        # constraint yields only so far), the last cards of as few
        # all-non-point suits as needed.  In STRICT the spares suffice.
        spare: list[Card] = []
        rest: list[Card] = []
        used: dict[str, int] = {}
        for c in pool:
            if card_points(c):
                continue
            s = ctx.suit_of(c)
            u = used.get(s, 0)
            if u < caps[s]:
                used[s] = u + 1
                spare.append(c)
            else:
                rest.append(c)
        chosen = spare[:needed] + rest[: max(needed - len(spare), 0)]
    out: dict[int, tuple[Card, ...]] = {}
    i = 0
    for seat, n in owed.items():
        out[seat] = tuple(chosen[i : i + n])
        i += n
    return out
