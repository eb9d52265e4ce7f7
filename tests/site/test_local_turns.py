"""games.runtime.local_turns: the timer heap with which a worker runs its rooms' next
turns itself.  The processes are in
tests/integration/test_local_turns_live.py; here the heap's own contract:
order by due time, hand-over at stop, the cap, a failing turn."""

from __future__ import annotations

import os
import select
import signal
import threading
import time

from games.runtime.local_turns import LocalTurns


class Recorder:
    """``run`` and ``fallback`` that record their calls."""

    def __init__(self, fail_room: int | None = None):
        self.ran: list[tuple[int, int]] = []
        self.handed: list[tuple[int, int, float]] = []
        self.fail_room = fail_room
        self.event = threading.Event()
        self.lock = threading.Lock()

    def run(self, room_id: int, version: int) -> None:
        if room_id == self.fail_room:
            raise RuntimeError("engine bug")
        with self.lock:
            self.ran.append((room_id, version))
        self.event.set()

    def fallback(self, room_id: int, version: int, delay_s: float) -> None:
        self.handed.append((room_id, version, delay_s))


def wait_until(cond, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.01)
    return cond()


def test_turns_run_in_due_order():
    rec = Recorder()
    local = LocalTurns(rec.run, rec.fallback, threads=1)
    try:
        assert local.offer(1, 10, 0.30)
        assert local.offer(2, 20, 0.05)
        assert local.offer(3, 30, 0.15)
        assert wait_until(lambda: len(rec.ran) == 3)
        assert rec.ran == [(2, 20), (3, 30), (1, 10)]
        assert local.ran == 3 and local.pending() == 0
    finally:
        local.stop()


def test_a_turn_waits_for_its_delay():
    rec = Recorder()
    local = LocalTurns(rec.run, rec.fallback, threads=2)
    try:
        local.offer(5, 1, 30.0)
        local.offer(6, 1, 0.0)
        assert wait_until(lambda: rec.ran == [(6, 1)])
        time.sleep(0.2)
        assert rec.ran == [(6, 1)] and local.pending() == 1  # room 5 is not due for 30 s
    finally:
        local.stop()


def test_stop_hands_pending_turns_to_the_broker_and_refuses_new_ones():
    rec = Recorder()
    local = LocalTurns(rec.run, rec.fallback, threads=1)
    local.offer(7, 3, 20.0)
    local.offer(8, 4, 10.0)
    assert local.stop() == 2
    assert [(r, v) for r, v, _ in rec.handed] == [(8, 4), (7, 3)]  # soonest first
    assert 9.0 < rec.handed[0][2] <= 10.0 and 19.0 < rec.handed[1][2] <= 20.0  # remaining countdown
    assert rec.ran == []
    assert not local.offer(9, 1, 0.0), "a stopped heap sends turns to the broker"


def test_full_heap_sends_turns_to_the_broker():
    rec = Recorder()
    local = LocalTurns(rec.run, rec.fallback, threads=1, max_pending=2)
    try:
        assert local.offer(1, 1, 60) and local.offer(2, 1, 60)
        assert not local.offer(3, 1, 60)
    finally:
        local.stop()


def test_a_failing_turn_does_not_stop_the_others():
    rec = Recorder(fail_room=1)
    local = LocalTurns(rec.run, rec.fallback, threads=1)
    try:
        local.offer(1, 1, 0.0)
        local.offer(2, 1, 0.05)
        assert wait_until(lambda: rec.ran == [(2, 1)])
        assert local.ran == 1
    finally:
        local.stop()


def test_a_forked_child_starts_its_own_heap():
    """A prefork pool may fork a new child from a parent that runs local turns:
    the child inherits the object but not its threads, so it must neither keep
    turns in it nor stop it, and ``start`` gives it its own (threads > 0)."""
    from games.runtime import local_turns

    rec = Recorder()
    assert local_turns.start(rec.run, rec.fallback, threads=1)
    parent = local_turns.current()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report, never return into pytest
        ok = False
        try:
            refused = not local_turns.offer(1, 1, 0.0)  # the inherited copy has no timer
            stopped = local_turns.stop() == 0
            local_turns.start(rec.run, rec.fallback, threads=1)
            fresh = local_turns.current()
            ok = refused and stopped and fresh is not None and fresh is not parent \
                and fresh.pid == os.getpid() and local_turns.offer(2, 1, 0.0)
        finally:
            os.write(w, b"1" if ok else b"0")
            os._exit(0)
    os.close(w)
    try:
        ready, _, _ = select.select([r], [], [], 20)  # bounded: a stuck child is killed
        answer = os.read(r, 1) if ready else b"timeout"
        if not ready:
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        assert answer == b"1"
        assert local_turns.current() is parent and parent.pid == os.getpid()
    finally:
        os.close(r)
        local_turns.stop()
