"""Team duplicate's pure scoring (clubs.tournament.teams): the IMP scale,
a two-table match's swings, IMPs and victory points (WBF 2013, 16 boards),
team standings, and the two tables of each match with the seats swapped."""

from __future__ import annotations

import pytest

from clubs.tournament.scoring import wbf_vp
from clubs.tournament.teams import (BYE_VP, TeamResult, board_swing, imps, score_match, team_standings,
                                    team_tables)


pytestmark = pytest.mark.pure  # no topology: the embedded half runs it (Makefile)


@pytest.mark.parametrize("swing, expected", [
    (0, 0), (0.05, 0), (0.08, 0),     # under 20 bridge points: a flat board
    (0.1, 1), (0.25, 2), (0.5, 3),    # 22, 55, 110 points
    (1, 6), (2, 10),                  # 220 → 6 (220-269), 440 → 10 (430-499)
    (4, 13),                          # 880 → 13 (750-899): a four-level swing is a slam swing
    (4.1, 14), (20, 24), (-1, -6), (-4, -13),
])
def test_imp_scale(swing, expected):
    assert imps(swing) == expected


def test_imps_grow_with_the_swing_and_are_odd_in_it():
    values = [imps(x / 20) for x in range(0, 400)]
    assert values == sorted(values) and values[-1] == 24
    assert all(imps(-x / 20) == -imps(x / 20) for x in range(400))


def test_board_swing_is_both_tables_of_team_a():
    # team A defends at table 1 and the attackers make +1 level against it (A: -1);
    # at table 2 A attacks the same deal and makes +2 (A: +2): A gains one level
    assert board_swing(-1.0, 2.0) == 1.0
    assert board_swing(-1.0, None) is None  # not played at both tables: counts for nobody


def test_a_16_board_match_scored_against_the_wbf_table():
    first = [-1.0, 0.5, 0.0, 1.0] + [0.0] * 12   # team A's scores at table 1 (as entry 0)
    second = [2.0, -0.5, 0.25, -1.0] + [0.0] * 12  # and at table 2 (as entry 1)
    m = score_match(first, second)
    assert m.swings[:4] == (1.0, 0.0, 0.25, 0.0)
    assert m.board_imps[:4] == (6, 0, 2, 0)
    assert (m.imps_a, m.imps_b, m.margin) == (8, 0, 8)
    assert (m.vp_a, m.vp_b) == wbf_vp(8, 16) == (12.29, 7.71)


@pytest.mark.parametrize("margin, vps", [(0, (10.0, 10.0)), (10, (12.8, 7.2)), (20, (15.0, 5.0)),
                                         (-20, (5.0, 15.0)), (60, (20.0, 0.0)), (80, (20.0, 0.0))])
def test_match_vps_at_several_margins(margin, vps):
    # a margin made of whole boards: +2 levels is 10 IMPs, -0.5 level is -3 IMPs
    boards = []
    left = margin
    while left >= 10:
        boards.append(2.0)
        left -= 10
    while left <= -10:
        boards.append(-2.0)
        left += 10
    assert left == 0
    boards += [0.0] * (16 - len(boards)) if len(boards) < 16 else []
    m = score_match(boards, [0.0] * len(boards), boards=16)
    assert m.margin == margin
    assert (m.vp_a, m.vp_b) == vps
    assert m.vp_a + m.vp_b == 20


def test_unplayed_boards_are_flat_and_vps_count_the_scheduled_boards():
    m = score_match([1.0, None], [0.0, 0.0], boards=2)
    assert m.board_imps == (6, None)
    assert (m.vp_a, m.vp_b) == wbf_vp(6, 2)


def test_team_standings_by_vps_then_imp_quotient():
    rows = [
        TeamResult(1, 2, 15.0, 30, 10), TeamResult(2, 1, 5.0, 10, 30),
        TeamResult(3, 4, 15.0, 20, 5), TeamResult(4, 3, 5.0, 5, 20),
        TeamResult(5, None, BYE_VP),
    ]
    table = team_standings([1, 2, 3, 4, 5], rows)
    assert [s.team for s in table] == [3, 1, 5, 2, 4]   # 3's quotient 4 beats 1's 3
    assert [s.rank for s in table] == [1, 2, 3, 4, 5]
    assert table[0].vp == 15.0 and table[2].vp == 12.0


def test_team_standings_share_a_rank_on_a_complete_tie():
    rows = [TeamResult(1, 2, 10.0, 3, 3), TeamResult(2, 1, 10.0, 3, 3)]
    assert [s.rank for s in team_standings([1, 2], rows)] == [1, 1]


def test_each_match_is_two_tables_with_the_seats_swapped():
    tables = team_tables([[7, 9], [8, 10]])
    assert [t["entries"] for t in tables] == [[7, 9], [9, 7], [8, 10], [10, 8]]
    assert [t["leg"] for t in tables] == [0, 1, 0, 1]
    assert [t["match"] for t in tables] == [0, 0, 1, 1]
