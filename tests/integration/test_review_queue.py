""" in the production topology: a finished hand with a human is reviewed
on the Celery review queue (``<CELERY_NAMESPACE>.reviews``: the stack's own
namespace), which the live worker does not consume (the tables keep being
served, the review waits); a review worker started as deploy/supervisord.conf
starts it (``CARDROOM_WORKER_ROLE=reviews``, no ``-Q``, ``--concurrency 1``)
finds that queue by itself, computes and stores it.

The reviewer runs here at normal priority, not at deploy's ``nice -n 19`` nor in
the ``SCHED_IDLE`` class the review worker puts itself in
(``CARDROOM_REVIEW_IDLE=0``, games/runtime/tasks.py): the priority is the operating
system's business, not the queue's, and on a CI machine whose two cores the test
processes keep busy a nice-19 process got so little CPU that its Celery start-up
and a 300 ms review did not finish in 180 s, and a ``SCHED_IDLE`` one had not
finished the review (about 3 s of CPU) after 300 s.
"""

from __future__ import annotations

import sys
import time

import pytest

from .stack import LiveStack, Proc, running

pytestmark = pytest.mark.production

WAIT_S = 300  # per phase; under a CI machine's full load a phase took 3 min


def _wait(predicate, what: str, stack, timeout: float = WAIT_S):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"{what} not reached in {timeout} s\n{stack.logs()}")


def test_reviews_wait_on_their_queue_for_the_review_worker(tmp_path):
    stack = LiveStack.production(tmp_path, extra_env={
        "GAMES_REVIEW_BUDGET_MS": "300",
        # the test waits for reviews on a busy machine: no governor
        # (its tests: tests/site/test_review_governor.py)
        "GAMES_REVIEW_IDLE_BELOW": "off"})
    with running(stack):
        room = stack.ops("bot_room", game="baohuang", humans=1, bot_delay_ms=20,
                         autoplay=True, ready=True, prefix="rq")

        def finished():
            log = stack.ops("hand_log", room_id=room["room_id"])
            done = [h for h in log["hands"] if h["complete"] and len(h["actions"]) > 20]
            return done[0]["id"] if done else None

        hand_id = _wait(finished, "a finished hand", stack)
        # the review is asked for once the hand's commit is done (on_commit,
        # games.services.hands): a moment after the hand reads complete
        _wait(lambda: stack.ops("review_status", hand_id=hand_id)["status"] == "pending",
              "the review asked for", stack)
        # the live worker keeps playing a new table's moves ...
        other = stack.ops("bot_room", game="baohuang", humans=1, bot_delay_ms=20,
                          autoplay=True, ready=True, prefix="rq2")
        _wait(lambda: sum(len(h["actions"]) for h in stack.ops(
            "hand_log", room_id=other["room_id"])["hands"]) > 10, "live moves", stack)
        # ... and never takes the review off its queue
        assert stack.ops("review_status", hand_id=hand_id)["status"] == "pending"
        stack.ops("close", room_id=other["room_id"])
        stack.ops("close", room_id=room["room_id"])

        env = dict(stack.env, CARDROOM_WORKER_ROLE="reviews", CARDROOM_REVIEW_IDLE="0")
        reviewer = Proc("reviewer", [sys.executable, "-m", "celery", "-A",
                                     "config", "worker", "--concurrency", "1",
                                     "--pool=solo", "--loglevel=INFO", "--without-gossip",
                                     "--without-mingle", "-n", "reviewer-it@%h"],
                        env, tmp_path / "reviewer.log")
        stack.procs["reviewer"] = reviewer
        reviewer.start()
        status = _wait(lambda: (lambda s: s if s["status"] == "done" else None)(
            stack.ops("review_status", hand_id=hand_id)), "the review done", stack)
        assert status["decisions"] > 20 and status["cpu_ms"] > 0
        log = (tmp_path / "reviewer.log").read_text(errors="replace")
        assert "Task games.tasks.review_hand[" in log
        assert "turn runner started" not in log  # the review worker plays no turns
