"""Production topology: a Celery worker runs its rooms' next turns itself
(``games.runtime.local_turns``), and nothing is lost when it stops.

The worker runs Celery's default prefork pool (as ``deploy/supervisord.conf``
does), so the turns chain in the pool's child process.  The broker sees one
``run_turn`` per chain start, not one per move; a clean stop hands the pending
turns back to the broker, a ``kill -9`` leaves them to the deadline sweeps;
either way the hand completes with a contiguous log that replays to its result.
"""

from __future__ import annotations

import re
import signal

import pytest

from .conftest import production_services_configured, running
from .live import first_hand, poll
from .stack import LiveStack

pytestmark = pytest.mark.production

RECEIVED = re.compile(r"Task games\.tasks\.run_turn\[[0-9a-f-]+\] received")


@pytest.fixture(scope="module")
def prefork_stack(tmp_path_factory):
    """daphne + a prefork Celery worker (2 children) + beat, PostgreSQL, Redis."""
    if not production_services_configured():
        pytest.skip("needs the production topology (make test-production)")
    stack = LiveStack.production(tmp_path_factory.mktemp("local-turns"),
                                 worker_args=("--pool=prefork", "--concurrency=2"))
    with running(stack) as stack:
        yield stack


def received_turn_tasks(stack: LiveStack, name: str = "worker") -> int:
    return len(RECEIVED.findall(stack.procs[name].log_text()))


def check_complete(hand: dict) -> None:
    actions = hand["actions"]
    assert [a["seq"] for a in actions] == list(range(len(actions))), "contiguous, no duplicate"
    assert hand["rebuild"]["ok"], hand["rebuild"]["error"]
    assert hand["rebuild"]["complete"] is True
    assert hand["rebuild"]["summary_matches"] is True


def test_moves_chain_in_the_worker_without_a_task_each(prefork_stack):
    """30 bot moves reach the database while the worker received only a few
    ``run_turn`` tasks (the start of the hand, sweeps): the rest ran locally."""
    stack = prefork_stack
    before = received_turn_tasks(stack)
    room = stack.ops("bot_room", humans=1, bot_delay_ms=50, autoplay=True, ready=True)
    log = poll(lambda: stack.ops("hand_log", room_id=room["room_id"]),
               lambda lg: len(first_hand(lg)["actions"]) >= 30, 90, 0.5, "thirty actions")
    moves = len(first_hand(log)["actions"])
    tasks = received_turn_tasks(stack) - before
    assert tasks <= moves // 3, (tasks, moves)
    done = poll(lambda: stack.ops("hand_log", room_id=room["room_id"]),
                lambda lg: first_hand(lg)["complete"], 180, 1.0, "the hand to complete")
    check_complete(first_hand(done))
    stack.ops("close", room_id=room["room_id"])


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_worker_stop_loses_no_turn(prefork_stack, how):
    """The worker is stopped mid-hand (clean: its pending turns go back to the
    broker; ``kill -9``: the deadline sweeps find them) and started again:
    the hand goes on and completes, nothing logged before changed."""
    stack = prefork_stack
    room = stack.ops("bot_room", humans=1, bot_delay_ms=80, autoplay=True, ready=True)
    room_id = room["room_id"]
    log = poll(lambda: stack.ops("hand_log", room_id=room_id),
               lambda lg: len(first_hand(lg)["actions"]) >= 6, 60, 0.5, "six actions")
    assert not first_hand(log)["complete"], "the hand finished before the stop: slow the bots"
    stack.procs["worker"].stop(getattr(signal, how), timeout=30)
    stopped = stack.ops("hand_log", room_id=room_id)
    stack.procs["worker"].start()
    stack.wait_ready("worker")
    done = poll(lambda: stack.ops("hand_log", room_id=room_id),
                lambda lg: first_hand(lg)["complete"], 180, 1.0, "the hand to complete")
    hand = first_hand(done)
    check_complete(hand)
    before = first_hand(stopped)["actions"]
    assert hand["actions"][: len(before)] == before, "nothing logged before the stop changed"
    assert len(hand["actions"]) > len(before)
    stack.ops("close", room_id=room_id)
