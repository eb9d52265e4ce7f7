"""Arena grouping (clubs.arena.pairing, pure): whole tables from the pool,
close ranks, and never last time's table-mates together when a grouping
without them exists (checked against every grouping of pools up to 12)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings, strategies as st

from clubs.arena.pairing import Waiting, group, repeats_of

pytestmark = pytest.mark.pure  # no topology: the embedded half runs it (Makefile)


def _partitions(items, size):
    """Every way to cut ``items`` into tables of ``size``."""
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for combo in itertools.combinations(rest, size - 1):
        left = [x for x in rest if x not in combo]
        for tail in _partitions(left, size):
            yield [(head, *combo), *tail]


def _players(ratings, tables_before, size):
    """Players with ratings; ``tables_before``: a previous grouping (index lists)."""
    mates = {i: set() for i in range(len(ratings))}
    for t in tables_before:
        for a in t:
            mates[a] |= set(t) - {a}
    return [Waiting(i, r, 30.0, frozenset(mates[i])) for i, r in enumerate(ratings)]


def _seated(grouping):
    return [tuple(i for g in t for i in g) for t in grouping.tables]


def test_windows_by_rank_for_tables_of_five():
    pool = [Waiting(i, 1000 + 100 * i, 5.0) for i in range(10)]
    g = group(pool, 5)
    assert sorted(map(sorted, _seated(g))) == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    assert g.waiting == [] and g.repeats == 0


def test_the_longest_waiting_sit_first():
    pool = [Waiting(i, 1500, waited_s=float(i)) for i in range(7)]
    g = group(pool, 5)
    assert sorted(_seated(g)[0]) == [2, 3, 4, 5, 6] and sorted(g.waiting) == [0, 1]


def test_pairs_of_pairs_by_matching():
    """升級: partners by rank (min-weight matching), tables of two pairs."""
    ratings = [1000, 1010, 1500, 1510, 2000, 2010, 2500, 2510]
    g = group([Waiting(i, r) for i, r in enumerate(ratings)], 4, partners=True)
    assert sorted(sorted(sum(t, ())) for t in g.tables) == [[0, 1, 2, 3], [4, 5, 6, 7]]
    for t in g.tables:
        assert len(t) == 2 and all(len(pair) == 2 for pair in t)


def test_last_tables_mates_are_split_when_possible():
    """Five tables of five end together: the rank windows would seat each old
    table again; a grouping with one player of each old table at every new
    table exists and is used.  (With two or three old tables, every new table
    of five holds two players of one of them: unavoidable.)"""
    before = [list(range(k, k + 5)) for k in range(0, 25, 5)]
    pool = _players([1500 + i for i in range(25)], before, 5)
    g = group(pool, 5)
    assert g.repeats == 0
    assert all(repeats_of([pool[i] for i in t]) == 0 for t in _seated(g))


def test_a_repeat_is_held_while_the_wait_is_short():
    pool = _players([1500, 1501, 1502, 1503, 1504], [[0, 1, 2, 3, 4]], 5)
    assert group(pool, 5, hold_s=60).tables == []
    assert len(group(pool, 5, hold_s=10).tables) == 1  # waited 30 s: seated all the same


def test_partners_do_not_repeat_last_partner():
    pool = [Waiting(0, 1500, last_partner=1), Waiting(1, 1500, last_partner=0),
            Waiting(2, 1500), Waiting(3, 1500)]
    (table,) = group(pool, 4, partners=True).tables
    assert {0, 1} not in [set(p) for p in table]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_never_last_times_mates_when_another_grouping_exists(data):
    """Property: for random pools of 8 or 12 (tables of four, in pairs) 10,
    15 or 25 (tables of five) with a random previous grouping, the grouping has
    no repeated table-mates whenever some grouping of the same players has
    none (brute force over every grouping)."""
    size = data.draw(st.sampled_from([4, 5]))
    n = data.draw(st.sampled_from([8, 12] if size == 4 else [10, 15, 25]))
    ratings = data.draw(st.lists(st.integers(1000, 2000), min_size=n, max_size=n))
    order = data.draw(st.permutations(list(range(n))))
    cut = data.draw(st.sampled_from([size, size - 1, 3] if n <= 12 else [n // 5]))
    before = [order[i:i + cut] for i in range(0, n, cut)]
    pool = _players(ratings, before, size)
    g = group(pool, size, partners=(size == 4))
    seated = _seated(g)
    assert sorted(i for t in seated for i in t) == list(range(n))
    if n <= 12:
        possible = any(all(repeats_of([pool[i] for i in t]) == 0 for t in p) for p in _partitions(list(range(n)), size))
    else:  # 15 from five old tables of 3, 25 from five of 5: one of each old table per new table
        possible = True
    if possible:
        assert g.repeats == 0, (before, seated)
