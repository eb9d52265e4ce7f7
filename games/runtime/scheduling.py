"""The one place that knows the topology: where and when a room's turn runs.

*What* a turn does is :func:`games.services.turns.play_turn`; this module
only decides *where* and *when*.  It sits above the services: they never
import it, but announce a committed room (``room_committed``) and a turn that
came early (``turn_due``) through :mod:`games.signals`, whose receivers here
schedule the room's next turn for its deadline.

- Production topology (a Celery broker is configured,
  ``settings.GAMES_INPROCESS_TASKS`` false): :func:`schedule_turn` sends the
  task ``games.tasks.run_turn`` with a countdown and :func:`dispatch` sends it
  at once; Celery beat runs ``games.tasks.sweep_deadlines``.  Inside a Celery
  worker process the turns it schedules itself (the next move of a room whose
  move it just committed) stay in that process instead
  (:mod:`games.runtime.local_turns`), with the database deadline and the
  sweeps still the source of truth.
- Embedded topology (``GAMES_INPROCESS_TASKS``): a daemon
  ``threading.Timer`` runs the turn in this process, and a sweep thread
  (started with the server by ``config/asgi.py``, or by the first schedule)
  sweeps every two seconds, as Celery beat does in production.

Deadlines live in the database, so a lost timer or a restart never hangs a
table: the sweep finds every room whose deadline passed.  Tests set
``settings.GAMES_SCHEDULING_DISABLED`` to drive turns by hand (the sweep then
runs due turns in the calling thread).
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import connections

from django.dispatch import receiver
from django.utils import timezone

from games import signals
from games.runtime import local_turns
from games.services import turns

log = logging.getLogger(__name__)

SWEEP_INTERVAL_S = 2.0
#: The Celery task names (``games/runtime/tasks.py`` registers them).
RUN_TURN_TASK = "games.tasks.run_turn"

_sweeper: threading.Thread | None = None
_sweeper_lock = threading.Lock()
_room_locks: dict[int, threading.Lock] = {}
_room_locks_guard = threading.Lock()
def disabled() -> bool:
    """True when tests drive turns by hand (``settings.GAMES_SCHEDULING_DISABLED``)."""
    return bool(getattr(settings, "GAMES_SCHEDULING_DISABLED", False))


def inprocess() -> bool:
    """True when turns run in this process (embedded topology, or tests)."""
    return bool(settings.GAMES_INPROCESS_TASKS) or disabled()


def room_lock(room_id: int) -> threading.Lock:
    """A per-room lock so two in-process threads do not race for one turn
    (correctness comes from the version check; this only avoids wasted work)."""
    with _room_locks_guard:
        lock = _room_locks.get(room_id)
        if lock is None:
            lock = _room_locks[room_id] = threading.Lock()
        return lock


def celery_task(name: str):
    """The registered Celery task ``name`` (the apps' ``tasks`` modules are
    loaded by Celery's own autodiscovery the first time)."""
    from celery import current_app

    try:
        return current_app.tasks[name]
    except KeyError:  # NotRegistered: this process has not imported games.runtime.tasks yet
        current_app.loader.import_default_modules()
        return current_app.tasks[name]


def schedule_turn(room_id: int, version: int, delay_s: float) -> None:
    """Run the turn of ``(room_id, version)`` after ``delay_s`` seconds."""
    if disabled():
        return
    delay_s = max(0.0, float(delay_s))
    if settings.GAMES_INPROCESS_TASKS:
        ensure_sweeper()
        timer = threading.Timer(delay_s, _run_inprocess, args=(room_id, version))
        timer.daemon = True
        timer.start()
    elif not local_turns.offer(room_id, version, delay_s):
        send_turn(room_id, version, delay_s)


def send_turn(room_id: int, version: int, delay_s: float) -> None:
    """Send ``run_turn(room_id, version)`` to the broker with a countdown of
    ``delay_s`` seconds (production topology).

    Never holds a task longer than half the broker's visibility timeout: a
    task woken early finds the deadline not due and reschedules itself for
    the rest ("early"), instead of being redelivered as a duplicate."""
    celery_task(RUN_TURN_TASK).apply_async(args=(room_id, version),
                                            countdown=min(max(0.0, delay_s), max_countdown_s()))


def start_local_turns(threads: int) -> bool:
    """In a Celery worker process: keep the turns this process schedules in
    memory and run them here (:mod:`games.runtime.local_turns`); the broker gets the
    pending ones back at :func:`stop_local_turns`.  False when ``threads`` ≤ 0
    or in the embedded topology (its timers already run in-process)."""
    if inprocess():
        return False
    return local_turns.start(_run_local, send_turn, threads)


def stop_local_turns() -> int:
    """Hand this process's pending local turns to the broker; how many."""
    return local_turns.stop()


def _run_local(room_id: int, version: int) -> None:
    with room_lock(room_id):
        turns.play_turn(room_id, version)


def max_countdown_s() -> float:
    """Longest countdown given to the broker: half its visibility timeout (s)."""
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}
    return max(1.0, float(options.get("visibility_timeout", 3600)) / 2)


def _play_here(room_id: int, version: int, what: str) -> None:
    """Run the room's turn in this thread under its lock; a failure is logged,
    not raised (the deadline stays in the database: a sweep runs it again)."""
    with room_lock(room_id):
        try:
            turns.play_turn(room_id, version)
        except Exception:
            log.exception("%s: room %s version %s failed", what, room_id, version)


def dispatch(room_id: int, version: int, here: bool = False) -> None:
    """Run an overdue turn now: in this thread (embedded, tests, or ``here``)
    or as a task."""
    if here or inprocess():
        _play_here(room_id, version, "sweep")
    else:
        celery_task(RUN_TURN_TASK).apply_async(args=(room_id, version))


def _run_inprocess(room_id: int, version: int) -> None:
    try:
        _play_here(room_id, version, "in-process turn")
    finally:
        connections.close_all()


def ensure_sweeper() -> None:
    """Start the in-process sweep thread once (embedded topology only).

    Called by ``config/asgi.py`` when the server starts and by every
    in-process schedule, so after a restart of the web process every overdue
    table comes back to life."""
    global _sweeper
    if disabled() or not settings.GAMES_INPROCESS_TASKS:
        return
    with _sweeper_lock:
        if _sweeper is not None and _sweeper.is_alive():
            return
        _sweeper = threading.Thread(target=_sweep_forever, name="games-sweep", daemon=True)
        _sweeper.start()


def _sweep_forever() -> None:
    while True:
        time.sleep(SWEEP_INTERVAL_S)
        if disabled():
            continue
        try:
            sweep()
        except Exception:
            log.exception("deadline sweep failed")
        finally:
            connections.close_all()


def sweep(direct: bool = False) -> int:
    """Run the due turn of every overdue room
    (:func:`games.services.turns.due_rooms`); returns how many rooms were
    handled.  Each goes through :func:`dispatch`: a ``run_turn`` task in the
    production topology, here and now otherwise; with ``direct`` (a worker's
    own sweep thread, :mod:`games.runtime.worker_sweep`) here and now always,
    so tables go on while the broker is down."""
    due = turns.due_rooms()
    for room_id, version in due:
        dispatch(room_id, version, here=direct)
    return len(due)


@receiver(signals.room_committed, dispatch_uid="games.runtime.scheduling.committed")
def _on_room_committed(sender, room_id: int, version: int, deadline=None, **kwargs) -> None:
    """After a room's commit: its next turn for its deadline, if it has one."""
    if deadline is None:
        return
    delay = max(0.0, (deadline - timezone.now()).total_seconds())
    try:
        schedule_turn(room_id, version, delay)
    except Exception:
        # The move is committed: answer it as such.  The deadline is in the
        # database; a sweep runs it once the broker is back (beat, or a
        # worker's own sweep thread).
        log.warning("room %s version %s: turn not scheduled (broker down?); "
                    "the deadline sweep will run it", room_id, version, exc_info=True)


@receiver(signals.turn_due, dispatch_uid="games.runtime.scheduling.turn_due")
def _on_turn_due(sender, room_id: int, version: int, delay_s: float, **kwargs) -> None:
    """A turn ran before its deadline: run it again when it is due."""
    schedule_turn(room_id, version, delay_s)
