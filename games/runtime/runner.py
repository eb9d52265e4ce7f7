"""The one turn runner: every server turn (bots, 托管, C5 timeouts, the next
deal, a held hidden decision) runs here, in both topologies.

A due turn is a playing room whose ``Room.deadline`` has passed (a bot's turn
is a deadline at now + the bot delay, :mod:`games.services.deadlines`).  A
runner *claims* a batch of due rooms with one conditional ``UPDATE``
(:func:`claim`): it sets ``Room.claimed_until`` (a lease) on rooms that are due
and unclaimed (or whose lease expired) and gets their ``(id, version)`` back;
it then runs each through :func:`games.services.turns.play_turn`, which
refuses a stale version under the room's row lock.  So:

- two runners never claim the same room in one lease window (the claim is one
  conditional statement: ``FOR UPDATE SKIP LOCKED`` plus the re-checked
  condition on PostgreSQL, the database's single writer on SQLite), and never
  both apply a turn (the version check), whatever happens to the lease;
- a runner killed mid-turn leaves its lease, which expires after
  ``settings.GAMES_RUNNER_LEASE_S``: any runner then claims the room again;
- a move clears the lease in the very statement that bumps the room's version
  (:func:`games.services.frame.lock_room`), so the next deadline is anyone's
  to claim at no extra query; a turn that applied nothing (``stale``,
  ``early``, ``idle``) releases its lease itself.

Where it runs: in production inside each Celery worker's main process (started
on ``worker_ready`` by :mod:`games.runtime.tasks`; several workers share the
work through the claim); in the embedded topology as one in-process thread
started with the server (``config/asgi.py``) or by the first commit that sets
a deadline.  The same :class:`Runner` in both.

When it wakes: at the earliest deadline this process knows of (every commit
in the process announces its deadline, ``room_committed``; so the moves the
runner itself makes, and in the embedded topology every move, are exact) and
at least every ``settings.GAMES_RUNNER_POLL_S`` seconds for the deadlines set
by other processes (a player's move committed by daphne in production).  The
poll is one indexed probe (``room_deadline``) that finds nothing most of the
time; a wake-up message (Redis, LISTEN/NOTIFY) would save at most that poll's
latency, at the price of a second channel that can fail on its own.

Tests set ``settings.GAMES_SCHEDULING_DISABLED``: no runner starts and they
drive turns by hand, with ``play_turn`` or :func:`run_due` (the same claim,
run in the calling thread).
"""

from __future__ import annotations

import heapq
import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Callable

from django.conf import settings
from django.db import close_old_connections, connections
from django.dispatch import receiver
from django.utils import timezone

from games import signals
from games.models import Room
from games.runtime.scheduling import disabled
from games.services import turns

log = logging.getLogger(__name__)

#: What :func:`~games.services.turns.play_turn` answers when it applied a move
#: (the room's version moved on, and the lease with it).
APPLIED = frozenset({"bot", "timeout", "held", "dealt"})
#: At most this many known deadlines are kept in memory; past it, the poll finds them.
MAX_KNOWN = 50_000
#: Rooms claimed at most by one call of :func:`run_due`.
RUN_DUE_BATCH = 500


def lease_s() -> float:
    """Seconds a claim holds a room (``settings.GAMES_RUNNER_LEASE_S``, default
    15): longer than any turn (a search bot's budget is 0.3 s), short enough
    that a killed runner's tables resume soon."""
    return float(getattr(settings, "GAMES_RUNNER_LEASE_S", 15.0))


def poll_s() -> float:
    """Longest sleep of a runner between two claims (``settings.GAMES_RUNNER_POLL_S``)."""
    return max(0.01, float(getattr(settings, "GAMES_RUNNER_POLL_S", 0.25)))


def claim(limit: int, now: datetime | None = None) -> tuple[datetime, list[tuple[int, int]]]:
    """Claim at most ``limit`` due rooms, oldest deadline first, in one
    conditional ``UPDATE … RETURNING``; returns ``(lease, [(room id, version)])``
    where ``lease`` is the ``claimed_until`` written (the claim's token, for
    :func:`release`).

    Due: status playing, ``deadline <= now`` and ``claimed_until`` NULL or
    before ``now``.  PostgreSQL: the rooms are picked with ``FOR UPDATE SKIP
    LOCKED`` (a room locked by a move or by another runner's claim is left)
    and the condition is checked again on the locked row.  SQLite: the
    statement runs under the database's one write lock, so no other claim
    interleaves; a read-only probe first keeps an idle poll from taking that
    lock."""
    now = now or timezone.now()
    until = now + timedelta(seconds=lease_s())
    if limit <= 0:
        return until, []
    conn = connections[Room.objects.db]
    qn = conn.ops.quote_name
    meta = Room._meta
    table, pk = qn(meta.db_table), qn(meta.pk.column)
    col = {name: qn(meta.get_field(name).column) for name in ("status", "deadline", "claimed_until", "version")}
    at = conn.ops.adapt_datetimefield_value(now)
    due = (f"{col['status']} = %s AND {col['deadline']} <= %s"
           f" AND ({col['claimed_until']} IS NULL OR {col['claimed_until']} < %s)")
    due_params = [Room.Status.PLAYING.value, at, at]
    pick = f"SELECT {pk} FROM {table} WHERE {due} ORDER BY {col['deadline']}, {pk} LIMIT %s"
    with conn.cursor() as cursor:
        if conn.vendor == "postgresql":
            # the pick in a CTE: a locking CTE runs once (as an IN subquery the
            # planner may run it again per row, and with SKIP LOCKED and equal
            # deadlines each run can pick other rooms: more than ``limit``)
            sql = (f"WITH picked AS ({pick} FOR UPDATE SKIP LOCKED)"
                   f" UPDATE {table} SET {col['claimed_until']} = %s WHERE {pk} IN (SELECT {pk} FROM picked)"
                   f" AND {due} RETURNING {pk}, {col['version']}")
            params = [*due_params, limit, conn.ops.adapt_datetimefield_value(until), *due_params]
        else:
            cursor.execute(f"SELECT 1 FROM {table} WHERE {due} LIMIT 1", due_params)
            if cursor.fetchone() is None:
                return until, []
            sql = (f"UPDATE {table} SET {col['claimed_until']} = %s WHERE {pk} IN ({pick})"
                   f" RETURNING {pk}, {col['version']}")
            params = [conn.ops.adapt_datetimefield_value(until), *due_params, limit]
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return until, [(int(room_id), int(version)) for room_id, version in rows]


def release(room_id: int, lease: datetime) -> bool:
    """Give back the lease ``lease`` on ``room_id`` (only if it is still that
    one): the room's turn applied nothing, so its deadline is claimable again."""
    return bool(Room.objects.filter(pk=room_id, claimed_until=lease).update(claimed_until=None))


def run_claimed(room_id: int, version: int, lease: datetime,
                run: Callable[[int, int], str] = None) -> str:
    """Run one claimed turn: ``play_turn(room_id, version)``; a turn that applied
    nothing releases its lease.  An exception propagates and leaves the lease,
    so the room is retried when it expires (not in a tight loop)."""
    result = (run or turns.play_turn)(room_id, version)
    if result not in APPLIED:
        release(room_id, lease)
    return result


def run_due(limit: int = RUN_DUE_BATCH) -> int:
    """Claim the due rooms and run their turns here, in the calling thread;
    returns how many were claimed.  For tests and for beat's safety sweep
    (:mod:`games.runtime.tasks`): the same claim as every runner."""
    lease, batch = claim(limit)
    for room_id, version in batch:
        try:
            run_claimed(room_id, version, lease)
        except Exception:
            log.exception("turn of room %s version %s failed (retried when its lease expires)", room_id, version)
    return len(batch)


class Runner:
    """The loop of one process: a claiming thread and ``threads`` turn threads.

    ``run(room_id, version)`` is the turn (``play_turn``).  The loop claims at
    most as many rooms as it has free turn threads, so it never holds a lease
    it cannot serve at once; it sleeps until the earliest deadline it was told
    of (:meth:`wake`), a freed thread, or ``poll`` seconds."""

    def __init__(self, run: Callable[[int, int], str] | None = None, threads: int = 4,
                 poll: float | None = None, name: str = "games-runner"):
        self._run = run or turns.play_turn
        self._threads = max(1, int(threads))
        self._poll = poll_s() if poll is None else max(0.01, float(poll))
        self._cond = threading.Condition()
        self._known: list[float] = []  # UNIX times of deadlines this process knows
        self._busy = 0
        self._stopped = False
        self._pool = ThreadPoolExecutor(max_workers=self._threads, thread_name_prefix=f"{name}-turn")
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        #: The process that owns the threads (a forked child inherits the object, not its threads).
        self.pid = os.getpid()
        self.ran = 0  # turns run (any answer)
        self.claims = 0  # claim statements sent
        self._thread.start()

    def wake(self, at: float | None = None) -> None:
        """Tell the loop of a deadline at UNIX time ``at`` (None: now)."""
        with self._cond:
            if len(self._known) < MAX_KNOWN:
                heapq.heappush(self._known, time.time() if at is None else float(at))
            self._cond.notify()

    def alive(self) -> bool:
        """True while the claiming thread runs."""
        return self._thread.is_alive() and not self._stopped

    def _wait_for_work(self, next_poll: float) -> int:
        """Block until a turn thread is free and a claim is due; the free
        threads (0 when stopped)."""
        with self._cond:
            while not self._stopped:
                now = time.time()
                free = self._threads - self._busy
                while self._known and self._known[0] <= now:
                    heapq.heappop(self._known)
                    next_poll = now  # a known deadline came: claim now
                if free > 0 and now >= next_poll:
                    return free
                if free <= 0:
                    self._cond.wait(self._poll)
                    continue
                until = min(next_poll, self._known[0]) if self._known else next_poll
                self._cond.wait(max(0.0, until - now))
            return 0

    def _loop(self) -> None:
        next_poll = 0.0
        while True:
            free = self._wait_for_work(next_poll)
            if not free:
                return
            try:
                lease, batch = claim(free)
                self.claims += 1
            except Exception:
                log.warning("turn runner: claim failed (database down?); retrying", exc_info=True)
                connections.close_all()
                next_poll = time.time() + max(1.0, self._poll)
                continue
            # A full batch: more may be due, claim again as soon as a thread is free.
            next_poll = 0.0 if len(batch) >= free else time.time() + self._poll
            with self._cond:
                self._busy += len(batch)
            for room_id, version in batch:
                try:
                    self._pool.submit(self._turn, room_id, version, lease)
                except RuntimeError:  # shut down meanwhile: the lease expires, another runner takes it
                    return

    def _turn(self, room_id: int, version: int, lease: datetime) -> None:
        try:
            close_old_connections()
            run_claimed(room_id, version, lease, self._run)
        except Exception:
            log.exception("turn of room %s version %s failed (retried when its lease expires)", room_id, version)
        finally:
            self.ran += 1
            close_old_connections()
            with self._cond:
                self._busy -= 1
                self._cond.notify()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop claiming; wait up to ``timeout`` s for the turns under way.
        What is not yet claimed stays due in the database for the next runner."""
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
        self._thread.join(timeout)
        self._pool.shutdown(wait=True)


_runner: Runner | None = None
_guard = threading.Lock()


def start(threads: int | None = None) -> Runner:
    """Start this process's runner once (``threads`` turn threads, default
    ``settings.GAMES_RUNNER_THREADS``); the running one if already started."""
    global _runner
    with _guard:
        if _runner is None or _runner.pid != os.getpid() or not _runner.alive():
            count = int(getattr(settings, "GAMES_RUNNER_THREADS", 4)) if threads is None else threads
            _runner = Runner(threads=count)
            log.info("turn runner started: %d threads, poll %.2f s, lease %.0f s",
                     count, _runner._poll, lease_s())
        return _runner


def ensure_started() -> Runner | None:
    """Embedded topology: start the in-process runner (``config/asgi.py`` at
    start-up, a command, or the first commit with a deadline).  None in the
    production topology (the Celery workers run it) or when tests drive turns."""
    if disabled() or not settings.GAMES_INPROCESS_TASKS:
        return None
    return start()


def current() -> Runner | None:
    """This process's runner, or None."""
    runner = _runner
    return runner if runner is not None and runner.pid == os.getpid() else None


def stop(timeout: float = 10.0) -> None:
    """Stop this process's runner (a worker's ``worker_shutdown``)."""
    global _runner
    with _guard:
        runner, _runner = _runner, None
    if runner is not None and runner.pid == os.getpid():
        runner.stop(timeout)


@receiver(signals.room_committed, dispatch_uid="games.runtime.runner.committed")
def _on_room_committed(sender, room_id: int, version: int, deadline=None, **kwargs) -> None:
    """After a room's commit with a deadline: this process's runner learns it
    (the embedded topology starts its runner here if none runs yet)."""
    if deadline is None:
        return
    runner = current() or ensure_started()
    if runner is not None:
        runner.wake(deadline.timestamp())


@receiver(signals.turn_due, dispatch_uid="games.runtime.runner.turn_due")
def _on_turn_due(sender, room_id: int, version: int, delay_s: float, **kwargs) -> None:
    """A turn ran before its deadline (clock skew): claim again when it is due."""
    runner = current()
    if runner is not None:
        runner.wake(time.time() + max(0.0, delay_s))
