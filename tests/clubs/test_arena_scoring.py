"""Arena points (clubs.arena.scoring, pure) and ruling A1 (each game's
``arena_result``): streak doubling, berserk, the clock's end, team totals."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from clubs.arena.scoring import DRAW, LOSS, VOID, WIN, counts, hand_score, ranked, team_totals
from games.engine.baohuang.tournament import arena_result as baohuang_result
from games.engine.shengji.tournament import arena_result as shengji_result


pytestmark = pytest.mark.pure  # no topology: the embedded half runs it (Makefile)


def _run(results, berserk=False):
    streak, points, fires = 0, [], []
    for result, base in results:
        s = hand_score(result, base, streak, berserk=berserk)
        streak = s.streak
        points.append(s.points)
        fires.append(s.fire)
    return points, fires, streak


def test_a_streak_doubles_after_two_wins_until_a_non_win():
    points, fires, streak = _run([(WIN, 2), (WIN, 2), (WIN, 2), (DRAW, 1), (WIN, 2), (LOSS, 0), (WIN, 2)])
    assert points == [2, 2, 4, 2, 2, 0, 2]
    assert fires == [False, False, True, True, False, False, False]
    assert streak == 1


def test_berserk_adds_one_on_a_win_only():
    assert hand_score(WIN, 2, 0, berserk=True).points == 3
    assert hand_score(WIN, 2, 2, berserk=True).points == 5  # on fire: 2 × 2 + 1
    assert hand_score(DRAW, 1, 0, berserk=True).points == 1
    assert hand_score(LOSS, 0, 0, berserk=True).points == 0


def test_a_void_deal_or_a_hand_after_the_clock_counts_nothing():
    assert hand_score(VOID, 0, 2) == hand_score(WIN, 2, 2, counted=False)
    assert hand_score(WIN, 2, 2, counted=False).points == 0 and hand_score(WIN, 2, 2, counted=False).streak == 2
    with pytest.raises(ValueError):
        hand_score("bye", 2, 0)


def test_the_clock_end():
    end = datetime(2026, 11, 27, 18, 0, tzinfo=timezone.utc)
    assert counts(end - timedelta(seconds=1), end)
    assert counts(end, end)
    assert not counts(end + timedelta(milliseconds=1), end)  # still in play at the end
    assert not counts(None, end)  # not completed


def test_team_battle_counts_each_clubs_best_n():
    players = [(1, 10, 9), (2, 10, 1), (3, 10, 8), (4, 20, 7), (5, 20, 7), (6, None, 50), (7, 30, 3)]
    totals = team_totals(players, 2)
    assert [(t.team, t.total, t.counted) for t in totals] == [(10, 17, (1, 3)), (20, 14, (4, 5)), (30, 3, (7,))]


def test_ranks_share_ties():
    assert ranked([(1, 4, 2), (2, 6, 3), (3, 4, 2), (4, 4, 1)]) == [(1, 2), (2, 1), (2, 3), (4, 4)]


def _shengji(gained, dealer=0, x=100):
    return {"complete": True, "levels_gained": {"0": gained[0], "1": gained[1]}, "dealer": dealer,
            "attackers_points": x}


def test_a1_shengji_by_the_teams_result():
    assert shengji_result(_shengji((1, 0))) == [(WIN, 2), (LOSS, 0), (WIN, 2), (LOSS, 0)]
    assert shengji_result(_shengji((0, 2), x=330)) == [(LOSS, 0), (WIN, 2), (LOSS, 0), (WIN, 2)]
    # S17 160-239: roles swap, no level: the attackers (team 1 when seat 0 dealt) win
    assert shengji_result(_shengji((0, 0), dealer=0, x=180))[1] == (WIN, 2)
    assert shengji_result(_shengji((0, 0), dealer=0, x=0)) == [(DRAW, 1)] * 4
    assert shengji_result({"complete": False}) is None


def _baohuang(winner, order, emperor=0, guard=1, solo=False):
    return {"complete": True, "voided": False, "winner": winner, "emperor": emperor, "guard": guard,
            "solo": solo, "finish_order": order}


def test_a1_baohuang_by_side_role_and_place():
    assert baohuang_result(_baohuang("emperor", [1, 0, 2, 3, 4])) == [
        (WIN, 2), (WIN, 3), (LOSS, 0), (LOSS, 0), (LOSS, 0)]  # the guard was 头科: +1
    assert baohuang_result(_baohuang("rebels", [2, 3, 0, 4, 1])) == [
        (LOSS, 0), (LOSS, 0), (WIN, 3), (WIN, 2), (WIN, 2)]
    solo = baohuang_result(_baohuang("emperor", [0, 2, 3, 4, 1], guard=None, solo=True))
    assert solo[0] == (WIN, 4) and solo[1] == (LOSS, 0)  # alone against four (B9): 3, and 头科
    assert baohuang_result(_baohuang("draw", [3, 0, 1, 2, 4]))[3] == (DRAW, 2)
    assert baohuang_result({"complete": True, "voided": True}) is None  # B8: a voided deal
