"""The exact transportation solver behind the search bots' world samplers
(games/engine/flow.py): every class's supply goes only where it is allowed,
every sink gets exactly its demand, None when no such deal exists, and the
amounts vary with the random generator when several deals exist."""

import random

from games.engine.flow import transport


def check(supply, allowed, demand, got):
    assert got is not None
    for (c, s), n in got.items():
        assert n > 0 and s in allowed[c]
    for c, n in supply.items():
        assert sum(m for (c2, _s), m in got.items() if c2 == c) == n
    for s, n in demand.items():
        assert sum(m for (_c, s2), m in got.items() if s2 == s) == n


def test_a_tight_feasible_deal_is_found_exactly():
    # seat 0 void in D, S, C (only trumps T and hearts H); seat 2 void in T;
    # a greedy that puts D/S/C on seat 2 first leaves seat 0 short — the flow does not
    supply = {"T": 5, "H": 3, "D": 4, "S": 2, "C": 2}
    allowed = {"T": [0, 1, "kitty"], "H": [0, 1, 2, "kitty"], "D": [1, 2, "kitty"],
               "S": [1, 2, "kitty"], "C": [1, 2, "kitty"]}
    demand = {0: 6, 1: 4, 2: 4, "kitty": 2}
    for seed in range(20):
        got = transport(supply, allowed, demand, random.Random(seed))
        check(supply, allowed, demand, got)
        assert got.get(("T", 0), 0) + got.get(("H", 0), 0) == 6


def test_no_deal_when_the_voids_leave_too_few_cards():
    # seat 0 needs 6 cards but only 5 of the suits it may hold remain (Hall's condition)
    supply = {"T": 3, "H": 2, "D": 11}
    allowed = {"T": [0, 1], "H": [0, 1], "D": [1, 2]}
    demand = {0: 6, 1: 5, 2: 5}
    assert transport(supply, allowed, demand, random.Random(0)) is None


def test_totals_that_differ_have_no_deal():
    assert transport({"T": 3}, {"T": [0]}, {0: 4}, random.Random(0)) is None


def test_amounts_vary_with_the_generator_and_repeat_with_its_seed():
    supply = {"T": 4, "H": 4}
    allowed = {"T": [0, 1], "H": [0, 1]}
    demand = {0: 4, 1: 4}
    seen = {tuple(sorted(transport(supply, allowed, demand, random.Random(s)).items()))
            for s in range(30)}
    assert len(seen) > 1
    assert transport(supply, allowed, demand, random.Random(5)) == \
        transport(supply, allowed, demand, random.Random(5))
