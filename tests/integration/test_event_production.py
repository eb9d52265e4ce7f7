"""Production topology: a 3-round Swiss of 8 bot pairs runs to the end through
the separate Celery worker (every bot move) and beat (the deadline sweep and
the round-clock sweep ``clubs.tasks.sweep_rounds``); round 2 is ended by its
time limit (the hands in progress are finished, no further hand is dealt).

``manage.py run_event --sweep beat`` runs as another process of the site
against the stack's PostgreSQL and Redis: it creates the event and starts the
rounds through the services, and never sweeps itself."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.production


def test_swiss_of_eight_bot_pairs_through_worker_and_beat(production_stack):
    result = production_stack.manage(
        "run_event", "--game", "shengji", "--format", "swiss", "--entries", "8", "--rounds", "3",
        "--hands", "2", "--round-seconds", "2:2", "--no-migrate", "--sweep", "beat", "--timeout", "500",
        timeout=600,
    )
    out = result.stdout
    assert out.count(" pairing\n") == 3
    headers = re.findall(r"Round (\d) results \([\d.]+ s(, ended by its time limit)?\)", out)
    assert [(n, bool(clock)) for n, clock in headers] == [("1", False), ("2", True), ("3", False)]
    rounds = out.split("Round ")
    r1 = next(part for part in rounds if part.startswith("1 results"))
    r2 = next(part for part in rounds if part.startswith("2 results"))
    assert r1.count("[2 hand(s)]") == 4
    # round 2: the clock ran out during hand 1 or 2; no table played a third hand
    assert r2.count(" hand(s)]") == 4 and "[3 hand(s)]" not in r2
    standings = out.split("\nStandings\n", 1)[1]
    assert len(re.findall(r"^\s+\d+\. ", standings, flags=re.M)) == 8
    assert "Event status: finished" in out
