"""Bots.  They decide from the seat's own knowledge only (:func:`.view.knowledge`,
the same visibility as :func:`.view.view`) plus the legal actions.

* ``random``: uniform over the legal actions (in :mod:`.rules`).
* ``heuristic``: plays like a sensible human:

  - crown: accepts when the hand (with the pile offered) is strong: 4H*, jokers,
    2s and aces weighed; solo/guard: 明 only with a very strong hand;
  - leading: sheds the lowest rank group whole, without jokers; keeps jokers and
    4H* for control; when everything left (but the 3) forms one set, plays it;
  - following: beats an opponent with the cheapest set (cost: attached jokers,
    high ranks, split groups); uses jokers only when the hand is nearly done or
    the player on top is close to finishing; does not beat a known partner
    unless it finishes the hand; declines with 讓 first, then 過.

:func:`heuristic` returns ``(verb, arg)`` where a play's ``arg`` is a rank shape;
:mod:`.rules` turns it into cards from the bot's own hand.
"""

from __future__ import annotations

from .order import BJ, H4, SJ, THREE, TWO
from .sets import beating_shapes

ACE = 11


def strength(rc, extra_bj: int = 0, extra_twos: int = 0) -> float:
    """A rough control score of a hand: 4H* 3, BJ 2, SJ 1.5, 2 1, A 0.4."""
    return (3 * rc[H4] + 2 * (rc[BJ] + extra_bj) + 1.5 * rc[SJ] + (rc[TWO] + extra_twos)
            + 0.4 * rc[ACE])


def _groups(rc) -> int:
    return sum(1 for r in range(1, SJ) if rc[r])


def heuristic(kn, rng) -> tuple[str, object]:
    """The heuristic decision for knowledge ``kn``: ``(verb, arg)``."""
    ph = kn.phase
    rc = kn.rc
    if ph == "crown":
        bj_extra = 1 if kn.pile_twos or rc[BJ] == 0 else 0
        s = strength(rc, bj_extra, kn.pile_twos) - 0.35 * _groups(rc)
        return "crown", "accept" if s >= CROWN_THRESHOLD else "pass"
    if ph == "declare":
        verb = "solo" if kn.seat == kn.emperor else "guard"
        s = strength(rc) - 0.35 * _groups(rc)
        limit = OPEN_SOLO if verb == "solo" else OPEN_GUARD
        return verb, "open" if s >= limit else "secret"
    if kn.top is None:
        return "play", _lead(kn)
    return _follow(kn)


CROWN_THRESHOLD = 5.0
OPEN_SOLO = 12.0
OPEN_GUARD = 11.0


def _side(kn, other: int) -> int:
    """+1 known partner, -1 known opponent, 0 unknown."""
    me, emp = kn.seat, kn.emperor
    if kn.solo is not None:
        return -1
    if me == emp:
        return 1 if kn.guard == other else (0 if kn.guard is None else -1)
    if kn.i_am_guard:
        return 1 if other == emp else -1
    # a rebel (or so it seems to me)
    if other == emp:
        return -1
    if kn.guard is not None:
        return -1 if other == kn.guard else 1
    return 0


def _lead(kn):
    rc = kn.rc
    if kn.size == rc[THREE]:
        return (THREE,)
    body = [r for r in range(1, SJ) if rc[r]]
    specials = (H4,) * rc[H4] + (BJ,) * rc[BJ] + (SJ,) * rc[SJ]
    if len(body) <= 1:
        # Everything but the 3 fits in one set: play it all.
        if body:
            r = body[0]
            return specials + (r,) * rc[r]
        return specials
    if len(body) == 2 and specials:
        # Two groups left: the higher one with all the jokers, the lower later.
        hi = body[-1]
        return specials + (hi,) * rc[hi]
    r = body[0]
    return (r,) * rc[r]


def _follow(kn):
    rc = kn.rc
    top_seat, tshape = kn.top
    side = _side(kn, top_seat)
    options = beating_shapes(rc, tshape)
    decline = ("yield", True) if kn.can_yield else ("pass", True)
    if not options:
        return decline
    non3 = kn.size - rc[THREE]
    top_left = kn.sizes[top_seat]
    best, best_cost = None, 1e9
    for sh in options:
        n_special = 0
        cost = 0.0
        for r in sh:
            if r == H4:
                cost += 14
                n_special += 1
            elif r == BJ:
                cost += 9
                n_special += 1
            elif r == SJ:
                cost += 6
                n_special += 1
        body = len(sh) - n_special
        if body:
            r = sh[-1]
            left = rc[r] - body
            cost += r * 0.35 + (2.5 if r == TWO else 0)
            if left:
                cost += 2.0 + (1.5 if left == 1 else 0)
        if len(sh) == non3:
            cost -= 100  # this set empties the hand (the 3 then follows)
        if cost < best_cost:
            best, best_cost = sh, cost
    if best_cost < -50:
        return "play", best
    if side == 1:
        return decline
    urgency = 0.0
    if top_left <= 6 and side == -1:
        urgency += 10
    if non3 <= 8:
        urgency += 6
    if side == 0:
        urgency -= 2
    limit = 5.5 + urgency
    if best_cost <= limit:
        return "play", best
    return decline
