"""Duplicate matchpoints (clubs.tournament.duplicate) on hand-built results."""

from __future__ import annotations

from fractions import Fraction

import pytest

from clubs.tournament.duplicate import board_matchpoints, matchpoints, percentage
from clubs.tournament.standings import percentage_standings


pytestmark = pytest.mark.pure  # no topology: the embedded half runs it (Makefile)


def test_matchpoints_one_board_four_tables():
    """Side 0's scores on one board at four tables: T1 +3, T2 +1, T3 +3, T4 -2.
    T1: beats T2, T4 (2) and ties T3 (½) = 2½.  T3 likewise 2½.  T2 beats T4 = 1.
    T4 beats nobody = 0.  Top is 3 per table; the total is 4·3/2 = 6."""
    mps = matchpoints({"T1": 3, "T2": 1, "T3": 3, "T4": -2})
    assert mps == {"T1": Fraction(5, 2), "T2": Fraction(1), "T3": Fraction(5, 2), "T4": Fraction(0)}
    assert sum(mps.values()) == 6


def test_board_matchpoints_every_seat():
    """Three tables of a five-seat game, one board; seat scores written out:
        T1: ( 4, -1, -1, -1, -1)
        T2: ( 2,  1, -1, -1, -1)
        T3: ( 4, -2,  0, -1, -1)
    Seat 0: T1 ties T3 and beats T2 = 1½, T3 the same, T2 0.
    Seat 1: T2 beats both = 2, T1 beats T3 = 1, T3 0.
    Seat 2: T3 beats both = 2, T1 and T2 tie each other = ½ each.
    Seats 3 and 4: all tie = 1 each.  Maximum 2 everywhere."""
    got = board_matchpoints({
        "T1": (4, -1, -1, -1, -1),
        "T2": (2, 1, -1, -1, -1),
        "T3": (4, -2, 0, -1, -1),
    })
    half = Fraction(1, 2)
    want = {
        ("T1", 0): 3 * half, ("T2", 0): 0, ("T3", 0): 3 * half,
        ("T1", 1): 1, ("T2", 1): 2, ("T3", 1): 0,
        ("T1", 2): half, ("T2", 2): half, ("T3", 2): 2,
        ("T1", 3): 1, ("T2", 3): 1, ("T3", 3): 1,
        ("T1", 4): 1, ("T2", 4): 1, ("T3", 4): 1,
    }
    assert {k: mp for k, (mp, top) in got.items()} == want
    assert {top for _, top in got.values()} == {2}


def test_percentage_and_standings_over_boards():
    """Pair A: 1½/2 and 2/2 = 3½/4 = 87.5 %; B: ½/2 and 0/2 = 12.5 %; C: 1/2 + 1/2 = 50 %."""
    assert percentage([(Fraction(3, 2), 2), (Fraction(2), 2)]) == 87.5
    rows = [("A", 1.5, 2), ("A", 2, 2), ("B", 0.5, 2), ("B", 0, 2), ("C", 1, 2), ("C", 1, 2)]
    table = percentage_standings(rows)
    assert [(s.entry, s.rank, s.score) for s in table] == [("A", 1, 87.5), ("C", 2, 50.0), ("B", 3, 12.5)]
    assert percentage([]) == 0.0


def test_one_table_board_compares_nothing():
    assert board_matchpoints({"T1": (3, -3)}) == {("T1", 0): (0, 0), ("T1", 1): (0, 0)}


def test_tables_must_report_the_same_seats():
    with pytest.raises(ValueError):
        board_matchpoints({"T1": (1, 2), "T2": (1, 2, 3)})
