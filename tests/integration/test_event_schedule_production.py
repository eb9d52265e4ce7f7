"""Production topology: a 3-round automatic Swiss of 8 bot pairs runs
from its scheduled start to published results with nobody acting: ``manage.py
run_event --start-in 5 --auto --sweep beat`` only creates and schedules the
event and watches; Celery beat's sweep (``clubs.tasks.sweep_rounds``, run by
the worker) starts every round, the worker plays every bot move.  The worker
is killed (SIGKILL) and restarted once round 1 has started: no round is
skipped or doubled, and the results notice goes out once."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time

import pytest

from .stack import REPO

pytestmark = pytest.mark.production


def test_automatic_swiss_runs_from_its_scheduled_start_through_a_worker_restart(production_stack, tmp_path):
    log = tmp_path / "run_event.out"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "run_event", "--game", "shengji", "--format", "swiss", "--entries", "8",
             "--rounds", "3", "--hands", "1", "--start-in", "5", "--auto", "--gap", "2", "--no-migrate",
             "--sweep", "beat", "--timeout", "500"],
            cwd=REPO, env=production_stack.env, stdout=out, stderr=subprocess.STDOUT,
        )
    try:
        limit = time.monotonic() + 120
        while "Round 1 started by the sweep" not in log.read_text():
            assert proc.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < limit, log.read_text()[-3000:]
            time.sleep(0.5)
        production_stack.restart("worker", sig=signal.SIGKILL)
        proc.wait(timeout=560)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    text = log.read_text()
    assert proc.returncode == 0, text[-3000:]
    started = re.findall(r"^Round (\d) started by the sweep", text, flags=re.M)
    assert started == ["1", "2", "3"]
    late = float(re.search(r"Round 1 started by the sweep ([\d.]+) s after the scheduled start", text).group(1))
    assert 0 <= late < 30
    assert re.findall(r"^Round (\d) results", text, flags=re.M) == ["1", "2", "3"]
    assert "Rounds played: 1 2 3\n" in text
    assert re.search(r"^  results: 1 \(", text, flags=re.M)  # the organiser, once
    assert re.search(r"^  registration_open: 1 \(", text, flags=re.M)
    standings = text.split("\nStandings\n", 1)[1]
    assert len(re.findall(r"^\s+\d+\. ", standings, flags=re.M)) == 8
    assert "Event status: finished" in text
