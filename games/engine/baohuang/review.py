"""The hand review's hook for 保皇: one decision as a
:class:`~games.engine.review.ReviewProblem`.

The candidates are the ``search`` bot's (:func:`.search.candidates`, built
from the acting seat's :func:`.search.infoset` and :func:`.view.knowledge`
only) plus the move actually made; worlds come from
:func:`.search.sample_world` (the seat's information set); a candidate is
scored by :func:`.search.outcome_value` after a heuristic play-out: the seat's
game points (B12, doubling included, room multiplier 1) plus the next hand's
tribute (B13) at :data:`.search.TRIBUTE_CARD` per card.

Thresholds (:data:`UNIT`, game points of loss per decision), chosen from the
game's smallest steps of result: an *inaccuracy* costs half a point (one
tribute card, B13); a *mistake* one game point (a rebel's whole result moves
by one point, B12); a *blunder* two points (a doubling of a rebel's result, or
the emperor's side losing a step).
"""

from __future__ import annotations

import random

from ..base import Action
from ..review import ReviewProblem, ReviewUnit
from . import search
from .order import RANK_OF, shape_to_cards
from .state import HandState
from .view import knowledge

#: Unit and thresholds of the 保皇 review (see the module docstring).
UNIT = ReviewUnit("game points", (0.5, 1.0, 2.0))


def _key(verb: str, arg) -> tuple:
    return (verb, arg)


def action_candidate(action: Action) -> tuple:
    """An engine action as a search candidate ``(verb, arg)``; plays as rank
    shapes (high to low), which is what the search compares."""
    if action.verb == "play":
        return ("play", tuple(sorted((RANK_OF[c] for c in action.arg), reverse=True)))
    return (action.verb, action.arg)


def review_problem(state: HandState, action: Action, rng: random.Random) -> ReviewProblem | None:
    """The decision ``action`` of ``action.seat`` in ``state`` (see module doc);
    None outside the crown, declaration and play phases."""
    seat = action.seat
    if state.phase not in ("crown", "declare", "play") or state.to_act != seat:
        return None
    info = search.infoset(state, seat)
    kn = knowledge(state, seat)
    cands, _default = search.candidates(info, kn, rng)
    cands = list(cands)
    mine = action_candidate(action)
    if mine in cands:
        played = cands.index(mine)
    else:
        cands.append(mine)
        played = len(cands) - 1
    hand = state.hands[seat]

    def sample(r):
        return search.sample_world(info, r)

    def evaluate(world, cand, r):
        verb, arg = cand
        nxt = search.step(world, seat, verb, arg)
        if nxt.phase == "done":
            return search.value(nxt, seat)
        if nxt.phase == "voided":
            return 0.0
        return search.outcome_value(search.fast_rollout(nxt, r), seat)

    def to_action(cand):
        if cand == mine:
            return action
        verb, arg = cand
        if verb == "play":
            return Action(seat, verb, shape_to_cards(hand, arg))
        return Action(seat, verb, arg)

    return ReviewProblem(cands, played, sample, evaluate, to_action, real=state)
