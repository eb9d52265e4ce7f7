"""How likely a sampled world made the plays seen: inference for 保皇's search.

:func:`~.search.sample_world` deals the unseen cards at random among the hands
consistent with the hard facts (sizes, the one 3 each, the crown pile's 2s,
tribute, 買3 …).  The plays themselves say more: a seat that led a lone 5
probably held no 4, one that passed on a cheap beat probably had none, and the
guard, who never beats his emperor, shows himself by what he lets pass.  This
module scores a world by how often the :mod:`.bots` heuristic, seated in each
other seat of that world and seeing only what that seat saw at the time, would
have done something else than what was played (:func:`surprise`); the search
keeps the likelier of a few drawn worlds (:func:`pick`, sampling-importance
resampling with weight ``exp(-RATE × surprise)``).

The model of the other players is the heuristic, so the weights are soft: a
human or a search bot often plays otherwise, and a world where it did is made
less likely, never impossible.

Only public information is read: the seats' plays, 讓 and 過 in order
(:func:`public_plays`, from the hand's log; the crown and the declarations are
not read: a secret declaration is hidden), and the world itself.

>>> from games.engine.baohuang.rules import BaohuangRules
>>> rules = BaohuangRules()
>>> match = rules.new_match({})
>>> st = rules.start_hand(match, rules.deal(match, 5))
>>> import random; rng = random.Random(1)
>>> while len(public_plays(st.log)) < 20:
...     st = rules.apply(st, rules.bot_action(st, st.to_act, "heuristic", rng))
>>> surprise(st, st.to_act, public_plays(st.log))  # heuristic players, the real deal
0.0
"""

from __future__ import annotations

import math
import random

from . import bots
from .play import _play_facts, next_in_round
from .order import H4

#: Verbs of :func:`public_plays` entries.
PLAY, PASS, YIELD = 0, 1, 2

#: Surprise of a decline of the other kind (過 for 讓 or the reverse): the
#: heuristic's choice between them says whether a beat is held for later,
#: a weaker signal than playing or not.
DECLINE_MISMATCH = 0.5

#: ``exp(-RATE × surprise)`` is a world's weight: each play the heuristic
#: would not have made in that world divides its weight by about e^RATE.
RATE = 1.0

#: Worlds drawn per world kept by :func:`pick`.
DRAWS = 3


def public_plays(log) -> tuple:
    """The play phase's public actions in order: ``(seat, verb, shape)`` with
    ``verb`` :data:`PLAY` (``shape`` the rank shape, high to low), :data:`PASS`
    or :data:`YIELD` (``shape`` None).  Crown and declaration actions are
    skipped (a secret declaration is hidden information)."""
    out = []
    for a in log:
        v = a.verb
        if v == "play":
            out.append((a.seat, PLAY, _play_facts(a.arg)[1]))
        elif v == "pass":
            out.append((a.seat, PASS, None))
        elif v == "yield":
            out.append((a.seat, YIELD, None))
    return tuple(out)


def surprise(world, me: int, plays: tuple) -> float:
    """How many of ``plays`` (:func:`public_plays` of the hand so far) by seats
    other than ``me`` the heuristic would not have made in ``world`` (a
    :class:`~.state.HandState` at the present moment, whose hands are one
    sample of the unseen cards): 1 per play or decline that differs from the
    heuristic's, :data:`DECLINE_MISMATCH` for a decline of the other kind.

    Each seat is judged on what it saw at the time (its own cards then, the
    roles as :func:`~.view.guard_visible` and :func:`~.view.solo_visible`
    would show them), the rank counts rebuilt by giving back every card
    played since the play began.  0.0 when no play has been made."""
    if not plays:
        return 0.0
    rcs = [list(r) for r in world.rcs]
    sizes = list(world.sizes)
    for s, verb, shape in plays:
        if verb == PLAY:
            row = rcs[s]
            for r in shape:
                row[r] += 1
            sizes[s] += len(shape)
    emp, guard, solo, declared = world.emperor, world.guard, world.solo, world.guard_declared
    lead, follow = bots._lead, bots._follow
    params = bots.PARAMS
    kn = bots.PlayKnowledge()
    kn.phase = "play"
    kn.emperor = emp
    kn.sizes = sizes
    h4_played = False
    top = None
    yielded = passed = 0
    total = 0.0
    for s, verb, shape in plays:
        if s != me:
            # what seat s saw then, set as :func:`.search.fast_rollout` sets it
            # (inline there too: it is the play-outs' inner loop)
            rc = tuple(rcs[s])
            kn.seat = s
            kn.rc = rc
            kn.size = sizes[s]
            vis = h4_played or s == guard
            kn.guard = guard if (vis or declared == "open") else None
            kn.i_am_guard = s == guard and guard is not None
            kn.solo = solo if (solo == "open" or h4_played or s == emp) else None
            kn.top = top
            if top is None:
                if lead(kn, params) != shape:
                    total += 1.0
            else:
                kn.can_yield = not yielded >> s & 1
                h_verb, h_shape = follow(kn, params)
                if verb == PLAY:
                    if h_verb != "play" or h_shape != shape:
                        total += 1.0
                elif h_verb == "play":
                    total += 1.0
                elif (h_verb == "yield") != (verb == YIELD):
                    total += DECLINE_MISMATCH
        if verb == PLAY:
            row = rcs[s]
            for r in shape:
                row[r] -= 1
            sizes[s] -= len(shape)
            if H4 in shape:
                h4_played = True
            top = (s, shape)
        elif verb == PASS:
            passed |= 1 << s
        else:
            yielded |= 1 << s
        top_seat = top[0]
        if next_in_round(s, top_seat, sizes, passed) is None:
            top = None
            yielded = passed = 0
    return total


def pick(draw, me: int, plays: tuple, rng: random.Random, draws: int = DRAWS,
         rate: float = RATE):
    """One world kept among ``draws`` worlds from ``draw(rng)`` (None: no
    world), each with weight ``exp(-rate × surprise)``: sampling-importance
    resampling, so the kept worlds lean towards those that explain the plays
    seen.  None if ``draw`` gives none."""
    worlds = []
    scores = []
    for _ in range(draws):
        w = draw(rng)
        if w is None:
            break
        worlds.append(w)
        scores.append(surprise(w, me, plays))
    if not worlds:
        return None
    if len(worlds) == 1:
        return worlds[0]
    low = min(scores)
    weights = [math.exp(-rate * (x - low)) for x in scores]
    x = rng.random() * sum(weights)
    for w, weight in zip(worlds, weights):
        x -= weight
        if x < 0:
            return w
    return worlds[-1]
