""" in the production topology: the review worker, started as
deploy/supervisord.conf starts it, runs a review only while the other
processes leave the machine idle (games/runtime/governor.py).  With every CPU
kept busy by real processes, it takes the review off its queue, says in its
log that it pauses, and leaves the review pending.

Only the pause can be shown here: while the test suite's other parts run, the
machine is never idle, so a governed review might never resume.  Its resume
is tested on a scripted /proc/stat (tests/site/test_review_governor.py,
tests/site/test_hand_review.py); the ungoverned review worker computes and
stores reviews in tests/integration/test_review_queue.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from .stack import LiveStack, Proc, running

pytestmark = pytest.mark.production

WAIT_S = 120
#: One spinning process per CPU, each bounded in time (and killed at the end).
BURN = "import time\nend = time.monotonic() + {s}\nwhile time.monotonic() < end: pass\n"


def test_the_review_worker_pauses_while_every_cpu_is_busy(tmp_path):
    stack = LiveStack.production(tmp_path, extra_env={"GAMES_REVIEW_BUDGET_MS": "300",
                                                      "GAMES_REVIEW_IDLE_BELOW": "0.25"})
    burners = []
    with running(stack):
        hand_id = stack.ops("finished_hands", count=1, game="baohuang", prefix="gov")["hands"][0]
        stack.manage("request_reviews", "--last", "1", "--again", timeout=120)
        assert stack.ops("review_status", hand_id=hand_id)["status"] == "pending"
        try:
            burners = [subprocess.Popen(["nice", "-n", "19", sys.executable, "-c",
                                         BURN.format(s=WAIT_S + 60)])
                       for _ in range(os.cpu_count() or 1)]
            reviewer = Proc("reviewer", ["nice", "-n", "19", sys.executable, "-m", "celery", "-A",
                                         "config", "worker", "--concurrency", "1",
                                         "--pool=solo", "--loglevel=INFO", "--without-gossip",
                                         "--without-mingle", "-n", "reviewer-gov@%h"],
                            dict(stack.env, CARDROOM_WORKER_ROLE="reviews"),
                            tmp_path / "reviewer.log")
            stack.procs["reviewer"] = reviewer
            reviewer.start()
            paused = f"review of hand {hand_id} paused: the other processes use"
            deadline = time.monotonic() + WAIT_S
            while paused not in reviewer.log_text() and time.monotonic() < deadline:
                time.sleep(0.5)
            log = reviewer.log_text()
            assert paused in log, f"no pause in {WAIT_S} s\n{log[-3000:]}"
            assert "Task games.tasks.review_hand[" in log  # taken off the queue ...
            time.sleep(2)
            assert stack.ops("review_status", hand_id=hand_id)["status"] == "pending"  # ... waiting
        finally:
            for b in burners:
                b.kill()
                b.wait(timeout=10)
