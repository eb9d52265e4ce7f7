"""``manage.py run_event --format teams``: a whole team-duplicate event of
bot teams, rounds started by the sweep, prints each match's IMPs and VPs and
the team standings (bounded: the command's own --timeout, the subprocess's)."""

from __future__ import annotations

import re

import pytest

from .test_run_event import run_event, standings_lines

# The command runs in a subprocess on its own SQLite file whatever the test
# process's topology: the production half would run it again unchanged.
pytestmark = pytest.mark.pure


@pytest.mark.slow
def test_teams_event_prints_imps_vps_and_standings(tmp_path):
    out = run_event(tmp_path, "--game", "shengji", "--format", "teams", "--entries", "16", "--rounds", "3",
                    "--auto")
    matches = re.findall(r"  Match \d+ \(T(\d+)\+T(\d+)\): .+: IMPs (\d+)-(\d+), VPs (\d+\.\d\d)-(\d+\.\d\d)", out)
    assert len(matches) == 3 * 8  # 16 teams: 8 matches a round, each at two tables
    for t1, t2, ia, ib, va, vb in matches:
        assert int(t2) == int(t1) + 1
        assert abs(float(va) + float(vb) - 20) < 1e-9
        assert (float(va) > float(vb)) == (int(ia) > int(ib)) or ia == ib
    # the bot teams alternate heuristic and random bots (run_event's default for
    # board formats): where the two meet, the tables differ and IMPs change hands
    assert any(ia != ib for _, _, ia, ib, _, _ in matches)
    lines = standings_lines(out)
    assert len(lines) == 16 and all("imp_quotient" in line for line in lines)
    assert "(4 player(s) each)" in out and "Event status: finished" in out
