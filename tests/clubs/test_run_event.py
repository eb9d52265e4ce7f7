"""``manage.py run_event`` runs whole bot-only events in the embedded
topology (its own SQLite file, in-process timers and round sweep) and prints
the pairings and the standings under a line ``Standings``; exit status 0."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

# The command runs in a subprocess on its own SQLite file whatever the test
# process's topology: the production half would run it again unchanged.
pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[2]


def run_event(tmp_path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"}}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'event.sqlite3'}"
    env["GAMES_HAND_PAUSE_S"] = "0.2"
    # DATABASE_URL without DJANGO_DEBUG is production, which refuses to start
    # without a secret key: the subprocess gets a test-only one.
    env["DJANGO_SECRET_KEY"] = "run-event-test-only-" + "k" * 40
    proc = subprocess.run(
        [sys.executable, "manage.py", "run_event", *args, "--timeout", "400"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout


def standings_lines(out: str) -> list[str]:
    after = out.split("\nStandings\n", 1)[1]
    return [line for line in after.splitlines() if re.match(r"\s+\d+\. ", line)]


@pytest.mark.slow
def test_shengji_swiss_with_a_bye(tmp_path):
    out = run_event(tmp_path, "--game", "shengji", "--format", "swiss", "--entries", "5", "--rounds", "2")
    assert out.count(" pairing\n") == 2 and out.count("  bye: ") == 2
    assert len(standings_lines(out)) == 5
    assert "Event status: finished" in out


@pytest.mark.slow
def test_baohuang_swiss_with_a_bot_table(tmp_path):
    out = run_event(tmp_path, "--game", "baohuang", "--entries", "7", "--rounds", "2")
    assert out.count("  bots: 3 at T2") == 2
    assert len(standings_lines(out)) == 7


@pytest.mark.slow
def test_round_robin_and_duplicate(tmp_path):
    out = run_event(tmp_path, "--game", "shengji", "--format", "round_robin", "--entries", "3")
    assert out.count(" pairing\n") == 3 and len(standings_lines(out)) == 3
    out = run_event(tmp_path, "--game", "shengji", "--format", "duplicate", "--entries", "4", "--rounds", "1",
                    "--hands", "2")
    lines = standings_lines(out)
    assert len(lines) == 4 and all("maximum 2" in line for line in lines)


@pytest.mark.slow
def test_scheduled_automatic_duplicate_runs_by_itself(tmp_path):
    """the start 5 s ahead; the sweep (here the command's own, as the
    embedded topology's beat) pairs and starts both rounds; nobody else acts."""
    out = run_event(tmp_path, "--game", "baohuang", "--format", "duplicate", "--entries", "10", "--rounds", "2",
                    "--start-in", "5", "--auto")
    assert re.findall(r"^Round (\d) started by the sweep", out, flags=re.M) == ["1", "2"]
    late = float(re.search(r"Round 1 started by the sweep ([\d.]+) s after the scheduled start", out).group(1))
    assert 0 <= late < 10
    assert "Rounds played: 1 2\n" in out
    notices = out.split("\nNotifications\n", 1)[1].split("\nStandings\n", 1)[0]
    assert re.search(r"registration_open: 1 \(1 e-mailed\)", notices)
    assert re.search(r"results: 1 \(1 e-mailed\)", notices)
    assert len(standings_lines(out)) == 10 and "Event status: finished" in out
