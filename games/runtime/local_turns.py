"""Worker-local turns: a Celery worker runs the next turns of its rooms itself.

A bot or 托管 move cost the worker about 12 ms of CPU in Celery's
own machinery (publish to Redis, receive, hold until the ETA, ack) on top of
the move itself, plus two Redis round trips of latency.  When a turn runs in
a worker process, the turn it schedules next (the room's new deadline) is kept
here instead: a heap of ``(due time, room, version)`` served by one timer
thread and a small pool of turn threads in the same process.

What stays true (the README's guarantees):

- the deadline lives in the database; this heap is only a wake-up.  If the
  worker dies, its pending turns are simply overdue rooms, which beat's sweep
  (every 2 s) or any worker's own sweep thread (:mod:`games.runtime.worker_sweep`)
  dispatches as ordinary tasks;
- a turn carries the version it was scheduled for and
  :func:`games.services.turns.play_turn` re-checks it under the room's row
  lock, so a turn run here *and* by a sweep is applied once;
- on a clean shutdown (Celery's ``worker_shutdown``) the pending turns are
  handed to the broker with their remaining countdown, so a restart does not
  even wait for the sweep;
- a player's move (in daphne) still schedules through Celery, so rooms spread
  over the workers; only the chain of moves a worker itself commits stays on it.

Started by :mod:`games.runtime.tasks` on ``worker_ready`` with
``settings.GAMES_WORKER_LOCAL_TURNS`` threads (0 turns it off: every move then
goes through the broker, as before).  Only :mod:`games.runtime.scheduling` calls
:func:`offer`; nothing here imports the services.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from django.db import close_old_connections

log = logging.getLogger(__name__)

#: At most this many pending turns are kept; past it, turns go to the broker.
MAX_PENDING = 20_000


class LocalTurns:
    """Timer heap + turn threads of one worker process.

    ``run(room_id, version)`` runs one turn (the caller wraps the room lock);
    ``fallback(room_id, version, delay_s)`` sends a turn to the broker (used
    for the pending turns at :meth:`stop`).  ``threads`` turn threads run due
    turns concurrently; the timer thread only pops due entries.
    """

    def __init__(self, run: Callable[[int, int], object], fallback: Callable[[int, int, float], None],
                 threads: int = 4, max_pending: int = MAX_PENDING):
        self._run = run
        self._fallback = fallback
        self._max_pending = max_pending
        self._heap: list[tuple[float, int, int, int]] = []
        self._seq = itertools.count()
        self._cond = threading.Condition()
        self._stopped = False
        self._pool = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="games-local-turn")
        self._timer = threading.Thread(target=self._loop, name="games-local-timer", daemon=True)
        self.ran = 0  # turns run here (for tests and ``manage.py health``-style checks)
        #: The process that owns the threads: a forked child (a prefork pool
        #: replacing a child) inherits this object but none of its threads.
        self.pid = os.getpid()
        self._timer.start()

    def offer(self, room_id: int, version: int, delay_s: float) -> bool:
        """Keep the turn ``(room_id, version)`` for ``delay_s`` seconds; False
        (the caller then uses the broker) when stopped or full."""
        with self._cond:
            if self._stopped or len(self._heap) >= self._max_pending:
                return False
            heapq.heappush(self._heap, (time.monotonic() + max(0.0, delay_s), next(self._seq), room_id, version))
            self._cond.notify()
        return True

    def pending(self) -> int:
        """How many turns wait in the heap."""
        with self._cond:
            return len(self._heap)

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._stopped:
                    now = time.monotonic()
                    if self._heap and self._heap[0][0] <= now:
                        break
                    self._cond.wait(None if not self._heap else self._heap[0][0] - now)
                if self._stopped:
                    return
                _, _, room_id, version = heapq.heappop(self._heap)
            try:
                self._pool.submit(self._turn, room_id, version)
            except RuntimeError:  # pool shut down between the check and the submit
                return

    def _turn(self, room_id: int, version: int) -> None:
        try:
            close_old_connections()
            self._run(room_id, version)
            self.ran += 1
        except Exception:
            log.exception("local turn for room %s version %s failed (the sweep will retry)", room_id, version)
        finally:
            close_old_connections()

    def stop(self, timeout: float = 10.0) -> int:
        """Stop taking turns, hand the pending ones to the broker (remaining
        countdown), wait up to ``timeout`` s for running turns; returns how
        many were handed over.  A failed hand-over is logged: the database
        deadline stays and a sweep runs the turn.  Turns already due finish."""
        with self._cond:
            self._stopped = True
            pending, self._heap = self._heap, []
            self._cond.notify_all()
        now = time.monotonic()
        handed = 0
        for due, _, room_id, version in sorted(pending):
            try:
                self._fallback(room_id, version, max(0.0, due - now))
                handed += 1
            except Exception:
                log.warning("room %s version %s: not handed to the broker; the sweep will run it",
                            room_id, version, exc_info=True)
        self._timer.join(timeout)
        self._pool.shutdown(wait=True)  # turns already due finish (each is one short transaction)
        return handed


_local: LocalTurns | None = None
_guard = threading.Lock()


def start(run: Callable[[int, int], object], fallback: Callable[[int, int, float], None], threads: int) -> bool:
    """Start this process's :class:`LocalTurns` (once); False when ``threads`` ≤ 0."""
    global _local
    if threads <= 0:
        return False
    with _guard:
        if _local is None or _local.pid != os.getpid():  # none yet, or a copy inherited by a fork
            _local = LocalTurns(run, fallback, threads)
    return True


def offer(room_id: int, version: int, delay_s: float) -> bool:
    """Keep the turn here if this process runs local turns; else False."""
    local = _local
    # A forked child's inherited copy has no threads: never keep a turn there.
    return local is not None and local.pid == os.getpid() and local.offer(room_id, version, delay_s)


def current() -> LocalTurns | None:
    """This process's :class:`LocalTurns`, or None."""
    return _local


def stop(timeout: float = 10.0) -> int:
    """Stop this process's local turns (see :meth:`LocalTurns.stop`)."""
    global _local
    with _guard:
        local, _local = _local, None
    if local is None or local.pid != os.getpid():
        return 0
    return local.stop(timeout)
