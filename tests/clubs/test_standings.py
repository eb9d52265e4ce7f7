"""Standings with their tiebreaks (clubs.tournament.standings), on worked
examples written out here (docs/tournaments.md, "Scoring and standings")."""

from __future__ import annotations

import pytest

from clubs.tournament.standings import (
    TableResult,
    bye_row,
    forfeit_rows,
    match_rows,
    match_standings,
    table_standings,
)

pytestmark = pytest.mark.pure  # no topology: the embedded half runs it (Makefile)


def line(standings):
    return [(s.entry, s.rank, s.score) for s in standings]


def test_match_event_margin_then_points():
    """Four pairs, three rounds (margin = levels ahead at the end of the round):

        R1  A-B  A +2 (game points 180 : 120)    C-D  draw (150 : 150)
        R2  A-C  C +1 (100 : 200)                B-D  B +3 (160 : 90)
        R3  A-D  A +1 (130 : 70)                 B-C  draw (140 : 140)

    Match points: A 2+0+2 = 4, C 1+2+1 = 4, B 0+2+1 = 3, D 1+0+0 = 1.
    A and C tie on 4; margins A 2-1+1 = +2, C 0+1+0 = +1, so A is first.
    """
    rows = [
        *match_rows(1, "A", "B", 2, 180, 120), *match_rows(1, "C", "D", 0, 150, 150),
        *match_rows(2, "A", "C", -1, 100, 200), *match_rows(2, "B", "D", 3, 160, 90),
        *match_rows(3, "A", "D", 1, 130, 70), *match_rows(3, "B", "C", 0, 140, 140),
    ]
    table = match_standings(rows)
    assert line(table) == [("A", 1, 4), ("C", 2, 4), ("B", 3, 3), ("D", 4, 1)]
    a = table[0].tiebreaks
    assert (a["margin"], a["points"]) == (2, 410)
    # Buchholz: A met B (3), C (4), D (1) = 8
    assert a["buchholz"] == 8


def test_match_event_points_then_direct_encounter():
    """Every match is won by one level, so margins are all 0:

        R1  A-B  A +1 (100 : 100)    D-C  D +1 (90 : 90)
        R2  C-A  C +1 (90 : 100)     B-D  B +1 (100 : 90)

    Everyone has 2 match points and margin 0.  Game points: A 200, B 200,
    C 180, D 180.  Buchholz: everyone met two 2-point pairs = 4.
    A and B are still tied: A beat B, so A is first.  C and D likewise: D beat C.
    """
    rows = [
        *match_rows(1, "A", "B", 1, 100, 100), *match_rows(1, "D", "C", 1, 90, 90),
        *match_rows(2, "C", "A", 1, 90, 100), *match_rows(2, "B", "D", 1, 100, 90),
    ]
    table = match_standings(rows)
    assert line(table) == [("A", 1, 2), ("B", 2, 2), ("D", 3, 2), ("C", 4, 2)]
    assert [s.tiebreaks["buchholz"] for s in table] == [4, 4, 4, 4]
    assert [s.tiebreaks["direct"] for s in table] == [2, 0, 2, 0]


def test_match_event_buchholz_and_shared_rank():
    """R1: A beats X (+1, 100 : 100), B beats Y (+1, 100 : 100); R2: A and B
    have byes (2 each, no opponent), X beats Y (+1, 50 : 50).  A and B: 4 match
    points, margin +1, 100 game points; Buchholz A = X's 2, B = Y's 0: A first.
    P and Q have no result yet: 0 match points, margin 0; they share fourth,
    ahead of Y (0 match points but margin -2)."""
    rows = [
        *match_rows(1, "A", "X", 1, 100, 100), *match_rows(1, "B", "Y", 1, 100, 100),
        bye_row(2, "A"), bye_row(2, "B"), *match_rows(2, "X", "Y", 1, 50, 50),
    ]
    table = match_standings(rows, entries=["P", "Q"])
    assert line(table)[:3] == [("A", 1, 4), ("B", 2, 4), ("X", 3, 2)]
    assert table[0].tiebreaks["buchholz"] == 2 and table[1].tiebreaks["buchholz"] == 0
    assert [(s.entry, s.rank) for s in table[3:]] == [("P", 4), ("Q", 4), ("Y", 6)]


def test_forfeit_scores_a_win_and_a_loss():
    table = match_standings(forfeit_rows(1, "A", "B"))
    assert line(table) == [("A", 1, 2), ("B", 2, 0)]
    assert table[0].tiebreaks["margin"] == 0


def test_table_event_firsts_then_tablemates():
    """Six players, two rounds at tables of five (the sixth with bots):

        R1  table: A +4 (1 first), B +2 (1), C 0, D -2 (1), E -4;  F +3 (1) with bots
        R2  table: A +2 (1 first), B +4 (2), C +2 (1), D +4, F -1;  E +1 with bots

    Totals: A 6, B 6, C 2, D 2, F 2, E -3.  Firsts: A 2, B 3, C 1, D 1, F 1.
    B is ahead of A on firsts.  C, D and F tie on 2 and 1 first; tablemates'
    totals: C: R1 A+B+D+E = 6+6+2-3 = 11, R2 A+B+D+F = 16: 27; D the same, 27;
    F: R1 none (bots), R2 A+B+C+D = 16.  C and D share third; F is fifth.
    """
    r1 = ("A", "B", "C", "D", "E")
    r2 = ("A", "B", "C", "D", "F")

    def row(rnd, who, pts, firsts, table):
        return TableResult(rnd, who, pts, firsts, tuple(x for x in table if x != who))

    rows = [
        row(1, "A", 4, 1, r1), row(1, "B", 2, 1, r1), row(1, "C", 0, 0, r1), row(1, "D", -2, 1, r1),
        row(1, "E", -4, 0, r1), row(1, "F", 3, 1, ()),
        row(2, "A", 2, 1, r2), row(2, "B", 4, 2, r2), row(2, "C", 2, 1, r2), row(2, "D", 4, 0, r2),
        row(2, "F", -1, 0, r2), row(2, "E", 1, 0, ()),
    ]
    table = table_standings(rows)
    assert line(table) == [("B", 1, 6), ("A", 2, 6), ("C", 3, 2), ("D", 3, 2), ("F", 5, 2), ("E", 6, -3)]
    assert [s.tiebreaks["tablemates"] for s in table[2:5]] == [27, 27, 16]
