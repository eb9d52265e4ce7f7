"""Determinized Monte Carlo search shared by both games' ``search`` bots.

A game supplies, for one decision of one seat:

* ``candidates``: a short list of legal actions to compare (index ``default``
  is the heuristic's own choice, the one kept when the search has no evidence);
* ``sample(rng)``: one *world*, a full game state drawn at random among those
  consistent with everything the seat knows (never the real hidden cards);
* ``evaluate(world, action, rng, deadline)``: the seat's real result (game points,
  levels …) after ``action`` and a fast rollout to the end of the hand; the
  rollout raises :class:`OutOfTime` once ``time.perf_counter()`` passes
  ``deadline`` (None: no limit), and the search drops that world.

:func:`flat_monte_carlo` evaluates every candidate on the same sampled worlds
with the same rollout seed (common random numbers, so differences between
candidates are not drowned in the luck of the deal) until the time budget or
the playout cap runs out, and returns the candidate with the best paired mean
over the default, switching away from the default only when the advantage is
larger than ``margin`` standard errors (few playouts must not make the bot play
worse than its heuristic).

It races the candidates: from ``prune_after`` worlds on, a candidate whose
paired deficit to the best one so far exceeds ``prune`` standard errors of
that paired difference is no longer played out (the default never leaves), so
the budget goes to the candidates still in contention, which get more worlds
each.  A candidate dropped is never chosen: the best one beat it with
confidence on the same worlds.

Time is checked before every play-out: one is started only if the mean
play-out so far still fits before the deadline, so the bot answers within its
budget plus the spread of one play-out (and the first one when the budget is
smaller than a single play-out).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

#: Default time budget per decision, milliseconds.
DEFAULT_BUDGET_MS = 300.0


class OutOfTime(Exception):
    """Raised by a rollout that passed the decision's deadline."""


def check_time(deadline: float | None, clock: Callable[[], float] = time.perf_counter) -> None:
    """Raise :class:`OutOfTime` if ``deadline`` (a ``perf_counter`` value) has passed."""
    if deadline is not None and clock() > deadline:
        raise OutOfTime


@dataclass(frozen=True)
class SearchConfig:
    """How hard the search bot thinks.

    ``budget_ms``: wall time per decision; ``max_playouts``: a cap on worlds
    sampled (None: only the budget counts; tests set a small cap and a huge
    budget so that results are deterministic); ``margin``: standard errors the
    best candidate must lead the default by before the bot deviates from it;
    ``min_worlds``: worlds before the search may stop early because the answer
    is settled; ``min_switch``: worlds needed before it may deviate at all;
    ``slack``: the share of the budget kept free for the last play-out step
    and the answer (the search itself stops at ``budget × (1 - slack)``);
    ``prune``: standard errors of the paired difference by which a candidate
    must trail the best one before it is dropped from the race (None: every
    candidate is played out in every world, as before the race);
    ``prune_after``: worlds before any candidate may be dropped (at least 2:
    one world has no spread to judge).
    """

    budget_ms: float = DEFAULT_BUDGET_MS
    max_playouts: int | None = None
    margin: float = 1.0
    min_worlds: int = 12
    min_switch: int = 4
    slack: float = 0.15
    prune: float | None = 3.0
    prune_after: int = 4


@dataclass
class SearchStats:
    """What one decision did (for tests and the ``simulate`` figures)."""

    worlds: int = 0
    playouts: int = 0
    means: list[float] = field(default_factory=list)
    chosen: int = 0
    dropped: list[int] = field(default_factory=list)


def _settled(dsum, dsq, worlds, default) -> bool:
    """True when more worlds would not change the answer much: every candidate
    gave the default's result in every world so far, or the best candidate
    leads every other one by more than four standard errors of the paired
    difference against the default."""
    if not any(dsq):
        return True
    means = [d / worlds for d in dsum]
    ses = [math.sqrt(max(q / worlds - m * m, 0.0) / max(worlds - 1, 1)) for q, m in zip(dsq, means)]
    best = max(range(len(means)), key=means.__getitem__)
    for i in range(len(means)):
        if i != best and means[best] - means[i] <= 4 * (ses[best] + ses[i]):
            return False
    return True


def flat_monte_carlo(
    candidates: Sequence[Any],
    default: int,
    sample: Callable[[random.Random], Any],
    evaluate: Callable[[Any, Any, random.Random, float | None], float],
    rng: random.Random,
    config: SearchConfig,
    clock: Callable[[], float] = time.perf_counter,
    stats: SearchStats | None = None,
    started: float | None = None,
) -> Any:
    """The candidate with the best mean result over sampled worlds (see module doc).

    ``rng`` is the bot's own generator: with a playout cap and no time limit
    the answer is a pure function of the seat's knowledge and the rng state.
    ``started``: when the decision began (``clock()`` value; default now), so
    the work done before the search counts against the budget too.
    """
    n = len(candidates)
    if n <= 1:
        return candidates[default] if n else None
    deadline = (clock() if started is None else started) + (
        config.budget_ms * (1.0 - config.slack) / 1000.0)
    cap = config.max_playouts
    sums = [0.0] * n
    counts = [0] * n
    # paired differences against the default: sum and sum of squares
    dsum = [0.0] * n
    dsq = [0.0] * n
    alive = list(range(n))  # the candidates still played out, in order
    rows: list[list[float]] = []  # per world, each candidate's result (0.0 once dropped)
    worlds = 0
    playouts = 0
    playout_time = 0.0
    sample_time = 0.0
    # Every alive candidate in a world needs one playout; stop before starting
    # a world that cannot finish, estimating its cost from the worlds so far.
    started = clock()
    while cap is None or worlds < cap:
        now = clock()
        if now >= deadline:
            break
        if worlds:
            per_world = sample_time / worlds + playout_time / playouts * len(alive)
            if now + per_world > deadline:
                break
            if worlds >= config.min_worlds and worlds % 4 == 0 and _settled(
                    [dsum[i] for i in alive], [dsq[i] for i in alive], worlds,
                    alive.index(default)):
                break
        seed = rng.getrandbits(62)
        t0 = clock()
        world = sample(random.Random(seed))
        sample_time += clock() - t0
        if world is None:
            break
        results = []
        for i in alive:
            t0 = clock()
            if cap is None and playouts and t0 + playout_time / playouts > deadline:
                results = None  # the next play-out would end past the deadline
                break
            try:
                results.append(evaluate(world, candidates[i], random.Random(seed ^ 0x5DEECE66D),
                                        None if cap is not None else deadline))
            except OutOfTime:
                results = None
                break
            playouts += 1
            playout_time += clock() - t0
        if results is None:
            break
        worlds += 1
        base = results[alive.index(default)]
        row = [0.0] * n
        for i, r in zip(alive, results):
            row[i] = r
            sums[i] += r
            counts[i] += 1
            d = r - base
            dsum[i] += d
            dsq[i] += d * d
        rows.append(row)
        if config.prune is not None and worlds >= max(2, config.prune_after) and len(alive) > 1:
            alive = _race(alive, default, dsum, rows, worlds, config.prune)
            if alive == [default]:
                break
    best = default
    if worlds >= max(2, config.min_switch):
        best_gain = 0.0
        for i in alive:
            if i == default:
                continue
            mean = dsum[i] / worlds
            var = max(dsq[i] / worlds - mean * mean, 0.0) * worlds / (worlds - 1)
            se = math.sqrt(var / worlds)
            if mean > best_gain and mean > config.margin * se:
                best, best_gain = i, mean
    if stats is not None:
        stats.worlds = worlds
        stats.playouts = playouts
        stats.means = [s / c if c else math.nan for s, c in zip(sums, counts)] if worlds else []
        stats.chosen = best
        stats.dropped = [i for i in range(n) if i not in alive]
    return candidates[best]


def _race(alive: list[int], default: int, dsum: list[float], rows: list[list[float]],
          worlds: int, z: float) -> list[int]:
    """The candidates of ``alive`` left in the race after ``worlds`` worlds.

    The leader is the alive candidate with the best paired mean against the
    default (the default's own is 0).  Any other candidate, the default
    excepted, whose paired deficit to the leader over the same worlds
    (``rows``: every alive candidate was played out in each) exceeds ``z``
    standard errors of that difference, or is positive with no spread at all,
    is dropped."""
    leader = max(alive, key=lambda i: dsum[i])
    kept = []
    for i in alive:
        if i == default or i == leader:
            kept.append(i)
            continue
        total = 0.0
        square = 0.0
        for row in rows:
            d = row[leader] - row[i]
            total += d
            square += d * d
        mean = total / worlds
        var = max(square / worlds - mean * mean, 0.0) * worlds / (worlds - 1)
        if mean > 0.0 and mean > z * math.sqrt(var / worlds):
            continue
        kept.append(i)
    return kept
