"""Swiss seating of individuals at tables of five (clubs.tournament.tables)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubs.tournament.swiss import PairingError
from clubs.tournament.tables import TableEntry, swiss_tables, table_repeats


pytestmark = pytest.mark.pure  # no topology: the embedded half runs it (Makefile)


def simulate(n: int, rounds: int, seed: int):
    """Seat ``rounds`` rounds of ``n`` players with random points; yield each
    round's (entries, seating)."""
    rng = random.Random(seed)
    score = dict.fromkeys(range(n), 0)
    mates = {i: Counter() for i in range(n)}
    seats = {i: [0] * 5 for i in range(n)}
    bot_tables = Counter()
    for _ in range(rounds):
        order = sorted(range(n), key=lambda i: (-score[i], i))
        entries = [TableEntry(i, r, dict(mates[i]), tuple(seats[i]), bot_tables[i]) for r, i in enumerate(order)]
        seating = swiss_tables(entries)
        yield entries, seating
        for t, table in enumerate(seating.tables):
            humans = [p for p in table if p is not None]
            for s, p in enumerate(table):
                if p is None:
                    continue
                seats[p][s] += 1
                score[p] += rng.randint(-6, 6)
                bot_tables[p] += t == seating.bot_table
                mates[p].update(q for q in humans if q != p)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 61), st.integers(1, 4), st.integers(0, 10**6))
def test_tables_of_five_with_fewest_bots(n, rounds, seed):
    """Every player sits exactly once per round at a table of five seats;
    ceil(n/5) tables; 5*T - n bots, all at one table (none if n % 5 == 0)."""
    for entries, seating in simulate(n, rounds, seed):
        assert sorted(seating.ids()) == sorted(e.id for e in entries)
        assert all(len(t) == 5 for t in seating.tables)
        tables = -(-n // 5)
        assert len(seating.tables) == tables
        assert seating.bots == tables * 5 - n
        with_bots = [i for i, t in enumerate(seating.tables) if None in t]
        assert with_bots == ([] if n % 5 == 0 else [seating.bot_table])


@settings(max_examples=60, deadline=None)
@given(st.integers(6, 39), st.integers(2, 5), st.integers(0, 10**6))
def test_bot_table_like_a_bye(n, rounds, seed):
    """Nobody sits at a bot table a second time while another player has not sat at one."""
    for entries, seating in simulate(n, rounds, seed):
        if seating.bot_table is None:
            continue
        at_bots = set(seating.tables[seating.bot_table]) - {None}
        chosen = [e.bot_tables for e in entries if e.id in at_bots]
        others = [e.bot_tables for e in entries if e.id not in at_bots]
        assert not others or max(chosen) <= min(others)


@settings(max_examples=40, deadline=None)
@given(st.integers(10, 60), st.integers(0, 10**6))
def test_fewer_repeats_than_seating_by_rank(n, seed):
    """Over three rounds, each round repeats no more tablemates than the naive
    seating (consecutive ranks, same bot table) would."""
    for entries, seating in simulate(n, 3, seed):
        bot = set(seating.tables[seating.bot_table]) if seating.bot_table is not None else set()
        rest = [e for e in sorted(entries, key=lambda e: e.rank) if e.id not in bot]
        naive = sum(table_repeats(rest[i : i + 5]) for i in range(0, len(rest), 5))
        by_id = {e.id: e for e in entries}
        ours = sum(
            table_repeats([by_id[p] for p in t if p is not None])
            for i, t in enumerate(seating.tables)
            if i != seating.bot_table
        )
        assert ours <= naive


def test_second_round_of_25_repeats_nobody():
    """25 players after one round at five tables: a seating without a repeated
    tablemate exists (one from each old table), and it is found."""
    entries, seating = list(simulate(25, 2, seed=7))[1]
    assert seating.repeats == 0


def test_seats_rotate():
    """Five players who sat in seats 0..4 last round: each gets another seat."""
    entries = [TableEntry(i, i, seats=tuple(int(s == i) for s in range(5))) for i in range(5)]
    (table,) = swiss_tables(entries).tables
    assert all(table[s] != s for s in range(5))


def test_bots_sit_with_the_lowest_ranked():
    entries = [TableEntry(i, i) for i in range(7)]
    seating = swiss_tables(entries)
    assert seating.bots == 3 and seating.bot_table == 1
    assert set(seating.tables[1]) == {5, 6, None}


def test_refuses_empty_and_duplicates():
    with pytest.raises(PairingError):
        swiss_tables([])
    with pytest.raises(PairingError):
        swiss_tables([TableEntry(1), TableEntry(1)])
