"""``run_event --format arena`` runs whole arenas of bot players in the
embedded topology (its own SQLite file) for both games, a team battle of
three clubs included, and prints the leaderboard with streak marks and the
check that every hand completed before the end was scored once."""

from __future__ import annotations

import re

import pytest

from .test_run_event import run_event

# The command runs in a subprocess on its own SQLite file whatever the test
# process's topology: the production half would run it again unchanged.
pytestmark = pytest.mark.pure


def _board(out: str) -> list[str]:
    after = out.split("\nLeaderboard\n", 1)[1]
    return [line for line in after.splitlines() if re.match(r"\s+\d+\. .* pts ", line)]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["shengji", "baohuang"])
def test_a_short_arena_runs_to_its_end(tmp_path, game):
    out = run_event(tmp_path, "--game", game, "--format", "arena", "--minutes", "0.5", "--entries", "12",
                    "--auto")
    assert len(_board(out)) == 12
    assert re.search(r"hands: (\d+) completed before the end, \1 scored, 0 scored twice, 0 not scored", out), out
    assert re.search(r"table 2: ", out)


@pytest.mark.slow
def test_a_team_battle_of_three_clubs(tmp_path):
    out = run_event(tmp_path, "--game", "baohuang", "--format", "arena", "--minutes", "0.4", "--entries", "10",
                    "--teams", "3", "--team-size", "2", "--auto")
    teams = out.split("\nTeams\n", 1)[1].splitlines()[:3]
    assert [t.strip()[:2] for t in teams] == ["1.", "2.", "3."]
    assert all(re.search(r"\d+ pts  \(", t) for t in teams)
