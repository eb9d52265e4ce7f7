"""Round robin by the circle method (clubs.tournament.round_robin)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubs.tournament.round_robin import round_robin_round, round_robin_schedule, rounds_needed
from clubs.tournament.swiss import PairingError


pytestmark = pytest.mark.pure  # no topology: the embedded half runs it (Makefile)


@given(st.integers(2, 40))
def test_every_pair_meets_exactly_once(n):
    entries = [f"e{i}" for i in range(n)]
    schedule = round_robin_schedule(entries)
    assert len(schedule) == rounds_needed(n) == (n - 1 if n % 2 == 0 else n)
    met = Counter()
    byes = Counter()
    for pairs, bye in schedule:
        seen = [x for p in pairs for x in p] + ([bye] if bye is not None else [])
        assert sorted(seen) == sorted(entries)  # everyone exactly once per round
        met.update(frozenset(p) for p in pairs)
        if bye is not None:
            byes[bye] += 1
    assert set(met) == {frozenset(p) for p in combinations(entries, 2)}
    assert set(met.values()) == {1}
    assert (byes == Counter(entries)) if n % 2 else not byes


def test_five_entries_berger_table():
    """n = 5: five rounds, each entry has one bye; round 1 (index 0) pairs
    2-5 and 3-4 with 1 on the bye (Berger table for 5-6 players)."""
    pairs, bye = round_robin_round([1, 2, 3, 4, 5], 0)
    assert bye == 1 and {frozenset(p) for p in pairs} == {frozenset((2, 5)), frozenset((3, 4))}


def test_fixed_entry_alternates_sides():
    firsts = [round_robin_round(list(range(6)), r)[0][0][0] == 0 for r in range(5)]
    assert firsts == [True, False, True, False, True]


def test_round_out_of_range_refused():
    with pytest.raises(PairingError):
        round_robin_round([1, 2, 3, 4], 3)
    with pytest.raises(PairingError):
        round_robin_round([1], 0)
