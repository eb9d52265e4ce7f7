"""Production topology: the turn runner (``games.runtime.runner``) inside the
Celery workers, and nothing is lost or doubled when a worker stops.

The worker runs Celery's default prefork pool (as ``deploy/supervisord.conf``
does); the runner lives in its main process and claims due rooms from the
database (no turn goes through the broker).  A clean stop finishes the turns
under way; a ``kill -9`` leaves its leases, which expire
(``GAMES_RUNNER_LEASE_S`` = 5 here) and a restarted runner takes the tables
again; two workers share the tables through the claim.  Either way every hand
completes with a contiguous log that replays to its result.  The latency from
a deadline to its move is printed (``-s``), not asserted.
"""

from __future__ import annotations

import signal

import pytest

from .conftest import production_services_configured, running
from .live import first_hand, poll
from .stack import LiveStack

pytestmark = pytest.mark.production


@pytest.fixture(scope="module")
def prefork_stack(tmp_path_factory):
    """daphne + a prefork Celery worker (2 children) + beat, PostgreSQL, Redis."""
    if not production_services_configured():
        pytest.skip("needs the production topology (make test-production)")
    stack = LiveStack.production(tmp_path_factory.mktemp("runner"),
                                 worker_args=("--pool=prefork", "--concurrency=2"),
                                 extra_env={"GAMES_RUNNER_LEASE_S": "5"})
    with running(stack) as stack:
        yield stack


def check_complete(hand: dict) -> None:
    actions = hand["actions"]
    assert [a["seq"] for a in actions] == list(range(len(actions))), "contiguous, no duplicate"
    assert hand["rebuild"]["ok"], hand["rebuild"]["error"]
    assert hand["rebuild"]["complete"] is True
    assert hand["rebuild"]["summary_matches"] is True


def _done(stack, room_id):
    return poll(lambda: stack.ops("hand_log", room_id=room_id),
                lambda lg: first_hand(lg)["complete"], 180, 1.0, "the hand to complete")


def test_the_runner_plays_without_the_broker_and_prints_its_latency(prefork_stack):
    """A hand of bots (bot delay 100 ms) completes through the worker's runner;
    no turn task goes through the broker.  Prints how late the moves came."""
    stack = prefork_stack
    room = stack.ops("bot_room", humans=1, bot_delay_ms=100, autoplay=True, ready=True)
    check_complete(first_hand(_done(stack, room["room_id"])))
    worker_log = stack.procs["worker"].log_text()
    assert "turn runner started" in worker_log and "run_turn" not in worker_log
    late = stack.ops("turn_latency", room_id=room["room_id"])
    chained = late["chained_ms"]
    print(f"\nrunner latency, deadline -> move: first move (deadline set by another process, "
          f"found by the poll) {late['first_ms']} ms; chained moves ({len(chained)}): "
          f"median {chained[len(chained) // 2]} ms, p90 {chained[int(len(chained) * 0.9)]} ms, "
          f"max {chained[-1]} ms")
    stack.ops("close", room_id=room["room_id"])


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_worker_stop_loses_no_turn(prefork_stack, how):
    """The worker is stopped mid-hand (clean: its turns under way finish;
    ``kill -9``: its leases expire) and started again: the hand goes on and
    completes, nothing logged before changed.  Bots at 250 ms a move: a
    hand of 200-odd moves takes a minute, so it is still mid-way when the
    stop comes (at 80 ms, on a loaded 2-core CI machine, where each
    ``ops`` call is a few seconds of a Django start, the hand once ended
    between the read of its sixth action and the stop)."""
    stack = prefork_stack
    room = stack.ops("bot_room", humans=1, bot_delay_ms=250, autoplay=True, ready=True)
    room_id = room["room_id"]
    log = poll(lambda: stack.ops("hand_log", room_id=room_id),
               lambda lg: len(first_hand(lg)["actions"]) >= 6, 60, 0.5, "six actions")
    assert not first_hand(log)["complete"], "the hand finished before the stop: slow the bots"
    stack.procs["worker"].stop(getattr(signal, how), timeout=30)
    stopped = stack.ops("hand_log", room_id=room_id)
    stack.procs["worker"].start()
    stack.wait_ready("worker")
    hand = first_hand(_done(stack, room_id))
    check_complete(hand)
    before = first_hand(stopped)["actions"]
    assert hand["actions"][: len(before)] == before, "nothing logged before the stop changed"
    assert len(hand["actions"]) > len(before)
    stack.ops("close", room_id=room_id)


def test_two_workers_share_the_tables_and_a_killed_one_loses_nothing(prefork_stack):
    """A second worker joins; four tables play on both runners; the first is
    killed -9 mid-hand and not restarted: the other takes its tables once the
    leases expire, and every hand completes exactly once."""
    stack = prefork_stack
    second = stack.add_worker()
    rooms = [stack.ops("bot_room", humans=1, bot_delay_ms=80, autoplay=True, ready=True)["room_id"]
             for _ in range(4)]
    poll(lambda: [stack.ops("hand_log", room_id=r) for r in rooms],
         lambda logs: all(len(first_hand(lg)["actions"]) >= 4 for lg in logs), 90, 0.5, "four actions each")
    stack.procs["worker"].stop(signal.SIGKILL)
    stopped = {r: first_hand(stack.ops("hand_log", room_id=r))["actions"] for r in rooms}
    try:
        for room_id in rooms:
            hand = first_hand(_done(stack, room_id))
            check_complete(hand)
            assert hand["actions"][: len(stopped[room_id])] == stopped[room_id]
            stack.ops("close", room_id=room_id)
    finally:
        stack.procs["worker"].start()
        stack.wait_ready("worker")
        stack.procs[second].stop(signal.SIGTERM, timeout=30)
        del stack.procs[second]
