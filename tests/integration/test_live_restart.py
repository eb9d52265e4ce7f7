"""Production topology: kill the web and worker processes in the middle of a hand,
start them again, and the hand goes on to completion with no action lost or
repeated (the action log is contiguous, it replays legally with the engine to
the stored result, and nothing logged before the crash was rewritten).

Deadlines live in the database and ``celery beat`` sweeps them, so the turns
whose tasks died with the worker are found again; tasks delivered twice carry a
stale version and do nothing.
"""

from __future__ import annotations

import asyncio
import signal
import time

import pytest

from .live import first_hand, next_fragment, poll, table_socket, wait_for_version

pytestmark = pytest.mark.production


def test_hand_survives_web_and_worker_restart(production_stack):
    stack = production_stack
    room = stack.ops("bot_room", humans=1, bot_delay_ms=250, autoplay=True, ready=True)
    room_id = room["room_id"]
    log = poll(lambda: stack.ops("hand_log", room_id=room_id),
               lambda lg: len(first_hand(lg)["actions"]) >= 6, 60, 0.5, "six actions")
    assert not first_hand(log)["complete"], "the hand finished before the crash: slow the bots"

    # Crash: the worker is killed outright (its in-flight and countdown tasks
    # die with it), daphne is stopped.  Beat keeps queueing sweeps meanwhile.
    stack.procs["worker"].stop(signal.SIGKILL)
    stack.procs["web0"].stop(signal.SIGTERM)
    during = stack.ops("hand_log", room_id=room_id)
    time.sleep(2.0)  # deadlines pass while nobody can act
    frozen = stack.ops("hand_log", room_id=room_id)
    assert len(first_hand(frozen)["actions"]) == len(first_hand(during)["actions"])

    stack.procs["web0"].start()
    stack.procs["worker"].start()
    stack.wait_ready("web0")
    stack.wait_ready("worker")

    async def watch() -> int:
        async with table_socket(stack, room_id, room["users"][0]["cookie"]) as ws:
            first, _c, _h = await next_fragment(ws)
            version, _html = await wait_for_version(ws, first + 3, timeout=60)
            return version - first

    assert asyncio.run(watch()) >= 3, "the restarted daphne pushes the worker's moves"

    done = poll(lambda: stack.ops("hand_log", room_id=room_id),
                lambda lg: first_hand(lg)["complete"], 180, 1.0, "the hand to complete")
    stack.ops("close", room_id=room_id)

    hand = first_hand(done)
    actions = hand["actions"]
    seqs = [a["seq"] for a in actions]
    assert seqs == list(range(len(actions))), "seqs contiguous from 0, no gap, no duplicate"
    before = first_hand(frozen)["actions"]
    assert actions[: len(before)] == before, "nothing logged before the crash changed"
    assert len(actions) > len(before), "the hand went on after the restart"
    assert hand["rebuild"]["ok"], hand["rebuild"]["error"]
    assert hand["rebuild"]["complete"] is True
    assert hand["rebuild"]["summary_matches"] is True, "stored result == engine's result"
    assert {a["actor"] for a in actions} <= {"bot", "auto"}
