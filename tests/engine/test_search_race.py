"""The search races its candidates (games/engine/search.py, ``flat_monte_carlo``
with ``SearchConfig.prune``): a candidate that trails the best one by more than
``prune`` standard errors of their paired difference stops being played out,
the default never does, and the budget that frees buys more worlds for the
candidates still in contention.  Synthetic candidates with a known value and
the world's luck shared between them (common random numbers)."""

from __future__ import annotations

import random

from games.engine.search import SearchConfig, SearchStats, flat_monte_carlo

#: candidate -> its true advantage over the default; every world adds the same
#: luck to all of them (and candidate "close" a little luck of its own)
VALUES = {"default": 0.0, "better": 1.0, "awful": -3.0, "close": 1.0}
CANDIDATES = list(VALUES)


class Counting:
    """An ``evaluate`` that counts its calls per candidate and may advance a
    fake clock by ``cost`` seconds a play-out."""

    def __init__(self, cost: float = 0.0):
        self.calls = {c: 0 for c in CANDIDATES}
        self.now = 0.0
        self.cost = cost

    def clock(self) -> float:
        return self.now

    def __call__(self, world, action, rng, deadline):
        self.calls[action] += 1
        self.now += self.cost
        own = rng.gauss(0.0, 0.5) if action == "close" else 0.0
        return world + VALUES[action] + own


def sample(rng: random.Random) -> float:
    return rng.gauss(0.0, 5.0)  # the deal's luck, shared by every candidate


def search(config: SearchConfig, evaluate: Counting, seed: int = 3):
    stats = SearchStats()
    chosen = flat_monte_carlo(CANDIDATES, 0, sample, evaluate, random.Random(seed), config,
                              clock=evaluate.clock, stats=stats)
    return chosen, stats


def test_a_candidate_far_behind_leaves_the_race_and_the_default_stays():
    evaluate = Counting()
    config = SearchConfig(budget_ms=1e9, max_playouts=40, min_worlds=10**6, prune=2.0,
                          prune_after=4)
    chosen, stats = search(config, evaluate)
    assert chosen == "better"
    # 4 points behind "better" in every world: out as soon as the race may drop anyone
    assert evaluate.calls["awful"] == 4
    assert CANDIDATES.index("awful") in stats.dropped
    assert evaluate.calls["default"] == 40
    assert evaluate.calls["better"] == 40
    assert stats.worlds == 40


def test_without_the_race_every_candidate_is_played_in_every_world():
    evaluate = Counting()
    config = SearchConfig(budget_ms=1e9, max_playouts=40, min_worlds=10**6, prune=None)
    chosen, stats = search(config, evaluate)
    assert chosen == "better"
    assert set(evaluate.calls.values()) == {40}
    assert stats.dropped == []


def test_a_contender_tied_with_the_leader_is_mostly_kept():
    # "close" is worth exactly what "better" is, with a spread of 0.5 a world
    # of its own: checked after every world, the race must not drop it often
    # (each check is a test at 3 standard errors; 40 worlds are 37 checks)
    kept = 0
    for seed in range(40):
        evaluate = Counting()
        config = SearchConfig(budget_ms=1e9, max_playouts=40, min_worlds=10**6)
        search(config, evaluate, seed)
        kept += evaluate.calls["close"] == 40
    assert kept >= 34  # 35 at 3 standard errors; at 2 it is 33, at 1 it is 16


def test_a_dropped_candidate_is_never_chosen_even_when_it_was_the_default_choice_rival():
    # every candidate but the default is far behind: the race ends with the
    # default alone, and the search answers it without more worlds
    evaluate = Counting()
    values = {"default": 0.0, "better": -2.0, "awful": -3.0, "close": -5.0}

    def worse(world, action, rng, deadline):
        evaluate.calls[action] += 1
        return world + values[action]

    stats = SearchStats()
    chosen = flat_monte_carlo(CANDIDATES, 0, sample, worse, random.Random(1),
                              SearchConfig(budget_ms=1e9, max_playouts=40, min_worlds=10**6),
                              stats=stats)
    assert chosen == "default"
    assert stats.worlds == 4
    assert sorted(stats.dropped) == [1, 2, 3]


def test_the_race_buys_more_worlds_in_the_same_time():
    # 1 ms a play-out, 100 ms a decision: dropping the awful candidate leaves
    # three play-outs a world instead of four
    flat, raced = Counting(cost=0.001), Counting(cost=0.001)
    _, flat_stats = search(SearchConfig(budget_ms=100, min_worlds=10**6, prune=None), flat)
    _, raced_stats = search(SearchConfig(budget_ms=100, min_worlds=10**6), raced)
    assert raced_stats.worlds > flat_stats.worlds
    assert raced.calls["better"] > flat.calls["better"]


def test_the_race_waits_for_a_second_world_whatever_prune_after_says():
    # one world has no spread: a deficit in it is no evidence (and no division by 0)
    evaluate = Counting()
    chosen, stats = search(SearchConfig(budget_ms=1e9, max_playouts=10, min_worlds=10**6,
                                        prune_after=1), evaluate)
    assert chosen == "better"
    assert evaluate.calls["awful"] == 2
