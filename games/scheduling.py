"""When the server acts next: bot moves, timeouts (C5) and the next deal.

:func:`schedule_turn` is called after every commit that leaves a deadline.
Production topology (a Celery broker is configured): the task
``games.tasks.run_turn`` is sent with a countdown.  Embedded topology
(``settings.GAMES_INPROCESS_TASKS``): a daemon ``threading.Timer`` calls the
same function in this process, and a sweep thread (started lazily, once)
runs ``sweep_deadlines`` every two seconds, as Celery beat does in
production.  Deadlines live in the database, so a lost timer or a restart
never hangs a table: the sweep finds every room whose deadline passed.

Tests set ``settings.GAMES_SCHEDULING_DISABLED`` to drive turns by hand.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

SWEEP_INTERVAL_S = 2.0

_sweeper: threading.Thread | None = None
_sweeper_lock = threading.Lock()
_room_locks: dict[int, threading.Lock] = {}
_room_locks_guard = threading.Lock()


def _disabled() -> bool:
    return bool(getattr(settings, "GAMES_SCHEDULING_DISABLED", False))


def room_lock(room_id: int) -> threading.Lock:
    """A per-room lock so two in-process threads do not race for one turn
    (correctness comes from the version check; this only avoids wasted work)."""
    with _room_locks_guard:
        lock = _room_locks.get(room_id)
        if lock is None:
            lock = _room_locks[room_id] = threading.Lock()
        return lock


def schedule_turn(room_id: int, version: int, delay_s: float) -> None:
    """Run ``run_turn(room_id, version)`` after ``delay_s`` seconds."""
    if _disabled():
        return
    delay_s = max(0.0, float(delay_s))
    if settings.GAMES_INPROCESS_TASKS:
        ensure_sweeper()
        timer = threading.Timer(delay_s, _run_inprocess, args=(room_id, version))
        timer.daemon = True
        timer.start()
    else:
        from .tasks import run_turn

        run_turn.apply_async(args=(room_id, version), countdown=delay_s)


def _run_inprocess(room_id: int, version: int) -> None:
    from .tasks import play_turn

    try:
        with room_lock(room_id):
            play_turn(room_id, version)
    except Exception:
        log.exception("in-process turn for room %s version %s failed", room_id, version)
    finally:
        connections.close_all()


def ensure_sweeper() -> None:
    """Start the in-process sweep thread once (embedded topology only).

    Called by every schedule and by the lobby/room pages and websocket
    connects, so after a restart of the web process the first visitor brings
    every overdue table back to life."""
    global _sweeper
    if _disabled() or not settings.GAMES_INPROCESS_TASKS:
        return
    with _sweeper_lock:
        if _sweeper is not None and _sweeper.is_alive():
            return
        _sweeper = threading.Thread(target=_sweep_forever, name="games-sweep", daemon=True)
        _sweeper.start()


def _sweep_forever() -> None:
    from .tasks import sweep

    while True:
        time.sleep(SWEEP_INTERVAL_S)
        if _disabled():
            continue
        try:
            sweep()
        except Exception:
            log.exception("deadline sweep failed")
        finally:
            connections.close_all()
