"""The hand review's hook for 升級 (#26): one decision as a
:class:`~games.engine.review.ReviewProblem`.

The candidates are the ``search`` bot's (:func:`.search.candidates`: auction
pass and the cheapest bids, the trump suits, the 還牌 and bury choices, the
heuristic's play and a spread of the engine's representative plays), read
from the acting seat's :func:`.view.seat_view`, plus the move actually made;
worlds come from :func:`.search.sample_world` (that view only); a candidate is
scored by :func:`.search.fast_value` after a heuristic play-out: levels gained
by the seat's team minus the other team's (S17), plus
:data:`.search.POINT_WEIGHT` per game point of the seat (S17, S18).

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
from . import state as state_mod
from .state import HandState
from .view import seat_view

#: Unit and thresholds of the 升級 review (see the module docstring).
UNIT = ReviewUnit("levels", (0.25, 0.5, 1.0))


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
        return search.fast_value(rules, state_mod.apply(world, cand), seat, r)

    return ReviewProblem(cands, played, sample, evaluate, lambda a: a, real=state)
