"""Tribute (進貢, ruling B13) and settlement on leaving (B14).

Tribute is owed by the previous hand's result at the same table and paid
automatically in the next hand **after 買3 and the crown, before the solo/guard
declaration** (so the declaring player decides with his final cards; the first
lead follows the declaration).  A voided deal pays nothing and the tribute stays
owed.

Who pays (``d`` = 2 when doubled, else 1; 明獨 always doubles, 明保 doubles when
the emperor's side won; on a draw the emperor's side pays, as if it lost):

* emperor's side won (no solo): each rebel pays ``d`` cards; the pool is sorted
  high to low and the guard takes the highest ``d`` of it, the emperor the rest;
* emperor's side lost or drew (no solo): the emperor pays ``2d``, the guard ``d``;
  the pool is sorted high to low and the rebels, in finishing order, each take
  ``d`` from the top;
* solo won: every other player gives the emperor up to ``d`` 2s (fewer if he
  holds fewer; none if he holds none), in finishing order;
* solo lost or drew: the emperor pays up to ``4d`` 2s, ``d`` to each rebel: rebels in
  finishing order, but the sellers of a 3 in this hand's 買3 and this hand's
  emperor served last (themselves in finishing order); each receiver takes his
  whole share before the next is served; it stops when the emperor's 2s run out.

A payer gives his highest cards by B2, never ``BJ*`` or ``4H*`` and never his 3
(he must keep it, B6); equal ranks are taken in the C6 suit order.  Nothing is
given back.

B14 (our reading, see ``docs/rules-baohuang.md``): a player who leaves while
tribute is owed settles **his own shares** of the nominal tribute in game points,
one point per card times the room multiplier (a payer's share is counted as owed
even if he might have lacked the 2s), and the whole tribute then lapses for the
table (:func:`leave_settlement`; the match continues with ``previous`` cleared).
"""

from __future__ import annotations

from .order import KIND_BJ_MARKED, KIND_H4_MARKED, KINDS, NKINDS, THREE_KINDS, TWO_KINDS
from .scoring import PLACE_POINTS
from .state import Match, Previous

_NOT_GIVEN = frozenset((KIND_BJ_MARKED, KIND_H4_MARKED) + THREE_KINDS)
_GIVABLE = tuple(k for k in range(NKINDS) if k not in _NOT_GIVEN)


def previous_winner(prev: Previous) -> str:
    """``"emperor"``, ``"rebels"`` or ``"draw"`` for the previous hand (B12 signs)."""
    side = {prev.emperor} if prev.solo else {prev.emperor, prev.guard}
    score = sum(PLACE_POINTS[i] for i, s in enumerate(prev.finish_order) if s in side)
    return "emperor" if score > 0 else "rebels" if score < 0 else "draw"


def factor(prev: Previous) -> int:
    """2 when the counts double (明獨; 明保 with the emperor's side winning), else 1."""
    if prev.solo == "open":
        return 2
    if prev.guard_declared == "open" and previous_winner(prev) == "emperor":
        return 2
    return 1


def _rebels(prev: Previous) -> list[int]:
    side = (prev.emperor,) if prev.solo else (prev.emperor, prev.guard)
    return [s for s in prev.finish_order if s not in side]


def _take_highest(hand: list[int], n: int) -> list[int]:
    out = []
    for k in _GIVABLE:
        while hand[k] and len(out) < n:
            hand[k] -= 1
            out.append(k)
        if len(out) == n:
            break
    return out


def _take_twos(hand: list[int], n: int) -> list[int]:
    out = []
    for k in TWO_KINDS:
        while hand[k] and len(out) < n:
            hand[k] -= 1
            out.append(k)
    return out


def pay_tribute(prev: Previous | None, hands: list[list[int]], emperor: int,
                sellers: set[int]) -> list[tuple]:
    """Carry out the tribute owed by ``prev`` on ``hands`` (changed in place).

    ``emperor`` is this hand's emperor and ``sellers`` this hand's 買3 sellers
    (both matter only for a lost solo).  Returns ``(from, to, card)`` tuples in
    the order paid.
    """
    if prev is None:
        return []
    d = factor(prev)
    won = previous_winner(prev) == "emperor"
    rebels = _rebels(prev)
    out: list[tuple] = []
    if prev.solo:
        e = prev.emperor
        if won:
            for s in rebels:
                for k in _take_twos(hands[s], d):
                    hands[e][k] += 1
                    out.append((s, e, KINDS[k]))
        else:
            late = sellers | {emperor}
            order = [s for s in rebels if s not in late] + [s for s in rebels if s in late]
            twos = _take_twos(hands[e], 4 * d)
            i = 0
            for s in order:
                for k in twos[i:i + d]:
                    hands[s][k] += 1
                    out.append((e, s, KINDS[k]))
                i += d
        return out
    e, g = prev.emperor, prev.guard
    pool: list[tuple[int, int]] = []  # (kind, from)
    if won:
        for s in rebels:
            pool += [(k, s) for k in _take_highest(hands[s], d)]
        pool.sort(key=lambda p: p[0])
        receivers = [g] * d + [e] * (2 * d)
    else:
        pool += [(k, e) for k in _take_highest(hands[e], 2 * d)]
        pool += [(k, g) for k in _take_highest(hands[g], d)]
        pool.sort(key=lambda p: p[0])
        receivers = [s for s in rebels for _ in range(d)]
    for (k, frm), to in zip(pool, receivers):
        hands[to][k] += 1
        out.append((frm, to, KINDS[k]))
    return out


def owed_shares(prev: Previous | None) -> list[tuple[int, int, int]]:
    """The nominal tribute owed, as ``(payer, receiver, cards)`` triples (B13 counts).

    Pools are assigned in finishing order: when the emperor's side won, the first
    rebel's share goes to the guard and the others' to the emperor; when it lost,
    the emperor's cards go to the first two rebels and the guard's to the third.
    Used by :func:`leave_settlement` (B14).
    """
    if prev is None:
        return []
    d = factor(prev)
    won = previous_winner(prev) == "emperor"
    rebels = _rebels(prev)
    e, g = prev.emperor, prev.guard
    if prev.solo:
        if won:
            return [(s, e, d) for s in rebels]
        return [(e, s, d) for s in rebels]
    if won:
        return [(rebels[0], g, d), (rebels[1], e, d), (rebels[2], e, d)]
    return [(e, rebels[0], d), (e, rebels[1], d), (g, rebels[2], d)]


def leave_settlement(match: Match, seat: int) -> dict[int, int]:
    """B14: game points when ``seat`` leaves with tribute still owed.

    Returns ``{seat: points}`` for all five seats (zero-sum): each card of a share
    involving the leaver becomes one point from payer to receiver, times the room
    multiplier.  Shares between players who stay lapse without compensation, as
    does the tribute as a whole (:func:`match_after_leave`).

    >>> from .state import Previous
    >>> m = Match(2, Previous(0, 1, None, "secret", (0, 1, 2, 3, 4)))
    >>> leave_settlement(m, 2)
    {0: 0, 1: 2, 2: -2, 3: 0, 4: 0}
    """
    pts = {s: 0 for s in range(5)}
    for frm, to, n in owed_shares(match.previous):
        if seat in (frm, to):
            pts[frm] -= n * match.multiplier
            pts[to] += n * match.multiplier
    return pts


def match_after_leave(match: Match) -> Match:
    """The match after someone left (B14): the tribute lapses."""
    return Match(match.multiplier, None)
