"""The hand review's hook for 升級: one decision as a
:class:`~games.engine.review.ReviewProblem`.

The candidates are the ``search`` bot's (:func:`.search.candidates`: auction
pass and the cheapest bids, the trump suits, the 還牌 and bury choices, the
heuristic's play and a spread of the engine's representative plays), read
from the acting seat's :func:`.view.seat_view`, plus the move actually made;
worlds come from :func:`.search.sample_world` (that view only); a candidate is
scored after the play-out of :func:`.search.fast_value` by :func:`smooth_value`:
levels of the seat's team minus the other team's, read from the attackers'
points as a line through the S17 bands (:func:`smooth_levels`) rather than
as the table's 80-point steps, plus :data:`.search.POINT_WEIGHT` per game point
of the seat (S17, S18).  The search bot itself keeps the steps.

Thresholds (:data:`UNIT`, levels of loss per decision), chosen from the
game's steps of result: levels change by whole steps (S17), so an expected
loss of a quarter level (one world in four losing a level) is an
*inaccuracy*, half a level a *mistake*, a whole level a *blunder*.
"""

from __future__ import annotations

import random

from ..base import Action
from ..review import ReviewProblem, ReviewUnit
from . import search
from .match import team_of
from . import state as state_mod
from .state import HandState
from .view import seat_view

#: Unit and thresholds of the 升級 review (see the module docstring).
UNIT = ReviewUnit("levels", (0.25, 0.5, 1.0))

#: Knots ``(attackers' points, levels of the attackers minus the
#: defenders')`` of the S17 table read as a line: 0 points (大光) and the
#: middle of each band of :func:`.scoring.result_row` (the bands 5-155, 160-235,
#: 240-315, 320-395 and 400 on give -1, 0, +1, +2, +3), flat beyond the last.
#: The knot at 5 continues the 80 → 197.5 slope down to the band's start, so that
#: the line's mean over 5-155 is the band's -1 (a straight line from 0's -4 to 80's
#: -1 made that band -1.56 on average and 10 points there worth 0.375 levels).
_KNOTS = ((0, -4.0), (5, -1.0 - 75 / 117.5), (80, -1.0), (197.5, 0.0), (277.5, 1.0), (357.5, 2.0),
          (437.5, 3.0))


def smooth_levels(x: float) -> float:
    """The attackers' levels minus the defenders' for attackers' points ``x``
    (kitty included), linear between :data:`_KNOTS`: the expected level
    difference when the points are known only to a band's width.

    >>> smooth_levels(80), smooth_levels(237.5), smooth_levels(500)
    (-1.0, 0.5, 3.0)
    """
    if x <= 0:
        return _KNOTS[0][1]
    for (x0, y0), (x1, y1) in zip(_KNOTS, _KNOTS[1:]):
        if x < x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return _KNOTS[-1][1]


def smooth_value(result, seat: int, dealer: int) -> float:
    """The review's value of a finished hand for ``seat``: the search's
    :func:`.search.value` (levels of the seat's team minus the other's, plus
    :data:`.search.POINT_WEIGHT` per game point) with the levels read from
    the attackers' points by :func:`smooth_levels` instead of the S17 steps
    (``result`` a :class:`~.scoring.HandResult`, ``dealer`` the hand's).

    Why: the steps are 80 points wide, so a move that gives away ten points
    changes the hand's levels in one world in eight and nothing in the
    others; over the few worlds of a review that is noise, and on seeded hands
    the reviewer could not tell a random seat from the search seats (random
    seat's mean loss the worst in 1 hand of 6 at 8 worlds and at 80 worlds,
    scripts/review_figures.py, seeds 2001-2006).  The line has the steps' mean
    and moves by ten points' worth in every world."""
    attackers = 1 - team_of(dealer)
    sign = 1.0 if team_of(seat) == attackers else -1.0
    return (sign * smooth_levels(result.attackers_points)
            + search.POINT_WEIGHT * result.game_points[seat])


def _key(action: Action) -> tuple:
    """Actions equal up to the order of their cards."""
    arg = action.arg
    if action.verb in ("play", "bid", "bury"):
        arg = tuple(sorted(c.code for c in arg))
    elif action.verb == "give":
        arg = tuple((s, tuple(sorted(c.code for c in cards))) for s, cards in arg)
    return (action.seat, action.verb, arg)


def review_problem(rules, state: HandState, action: Action,
                   rng: random.Random) -> ReviewProblem | None:
    """The decision ``action`` of ``action.seat`` in ``state`` (``rules``: the
    :class:`~.rules.ShengjiRules`); None when it is not that seat's turn."""
    seat = action.seat
    if state.phase == "done" or state.to_act != seat:
        return None
    v = seat_view(state, seat)
    match = search.public_match(state)
    cands, _default = search.candidates(rules, state, seat, v, rng)
    cands = list(cands)
    keys = [_key(c) for c in cands]
    if _key(action) in keys:
        played = keys.index(_key(action))
        cands[played] = action
    else:
        cands.append(action)
        played = len(cands) - 1

    def sample(r):
        return search.sample_world(v, match, r)

    def evaluate(world, cand, r):
        result, dealer = search.fast_result(rules, state_mod.apply(world, cand), r)
        return smooth_value(result, seat, dealer)

    return ReviewProblem(cands, played, sample, evaluate, lambda a: a, real=state)
