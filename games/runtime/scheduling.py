"""The one place that knows the topology: where and when a room's turn runs.

*What* a turn does is :func:`games.services.turns.play_turn`; this module
only decides *where*: :func:`configure` is given that function (and the
sweep) by :meth:`games.apps.GamesConfig.ready`, so nothing here imports the
services.

- Production topology (a Celery broker is configured,
  ``settings.GAMES_INPROCESS_TASKS`` false): :func:`schedule_turn` sends the
  task ``games.tasks.run_turn`` with a countdown and :func:`dispatch` sends it
  at once; Celery beat runs ``games.tasks.sweep_deadlines``.  Inside a Celery
  worker process the turns it schedules itself (the next move of a room whose
  move it just committed) stay in that process instead
  (:mod:`games.runtime.local_turns`, issue #12), with the database deadline and the
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
from typing import Callable

from django.conf import settings
from django.db import connections

from games.runtime import local_turns

log = logging.getLogger(__name__)

SWEEP_INTERVAL_S = 2.0
#: The Celery task names (``games/runtime/tasks.py`` registers them).
RUN_TURN_TASK = "games.tasks.run_turn"
#: Hand reviews: a low-priority task on its own queue (settings.GAMES_REVIEW_QUEUE,
#: under CELERY_NAMESPACE; CELERY_TASK_ROUTES sends it there), which the live
#: worker does not consume (a separate review worker, ``CARDROOM_WORKER_ROLE=reviews``,
#: one process at ``nice 19``, does: deploy/supervisord.conf).
REVIEW_TASK = "games.tasks.review_hand"

_sweeper: threading.Thread | None = None
_sweeper_lock = threading.Lock()
_room_locks: dict[int, threading.Lock] = {}
_room_locks_guard = threading.Lock()
_turn: Callable[[int, int], str] | None = None
_sweep: Callable[[], int] | None = None


def configure(turn: Callable[[int, int], str], sweep: Callable[[], int]) -> None:
    """Give the functions that run one room's turn (``turn(room_id,
    version)``) and a sweep (``sweep() -> rooms handled``)."""
    global _turn, _sweep
    _turn, _sweep = turn, sweep


def _disabled() -> bool:
    return bool(getattr(settings, "GAMES_SCHEDULING_DISABLED", False))


def inprocess() -> bool:
    """True when turns run in this process (embedded topology, or tests)."""
    return bool(settings.GAMES_INPROCESS_TASKS) or _disabled()


def room_lock(room_id: int) -> threading.Lock:
    """A per-room lock so two in-process threads do not race for one turn
    (correctness comes from the version check; this only avoids wasted work)."""
    with _room_locks_guard:
        lock = _room_locks.get(room_id)
        if lock is None:
            lock = _room_locks[room_id] = threading.Lock()
        return lock


def _celery_task(name: str):
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
    if _disabled():
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
    _celery_task(RUN_TURN_TASK).apply_async(args=(room_id, version),
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
        _turn(room_id, version)


def max_countdown_s() -> float:
    """Longest countdown given to the broker: half its visibility timeout (s)."""
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}
    return max(1.0, float(options.get("visibility_timeout", 3600)) / 2)


def dispatch(room_id: int, version: int) -> None:
    """Run an overdue turn now: here (embedded, tests) or as a task."""
    if inprocess():
        with room_lock(room_id):
            try:
                _turn(room_id, version)
            except Exception:
                log.exception("sweep: room %s failed", room_id)
    else:
        _celery_task(RUN_TURN_TASK).apply_async(args=(room_id, version))


def _run_inprocess(room_id: int, version: int) -> None:
    try:
        with room_lock(room_id):
            _turn(room_id, version)
    except Exception:
        log.exception("in-process turn for room %s version %s failed", room_id, version)
    finally:
        connections.close_all()


def ensure_sweeper() -> None:
    """Start the in-process sweep thread once (embedded topology only).

    Called by ``config/asgi.py`` when the server starts and by every
    in-process schedule, so after a restart of the web process every overdue
    table comes back to life."""
    global _sweeper
    if _disabled() or not settings.GAMES_INPROCESS_TASKS:
        return
    with _sweeper_lock:
        if _sweeper is not None and _sweeper.is_alive():
            return
        _sweeper = threading.Thread(target=_sweep_forever, name="games-sweep", daemon=True)
        _sweeper.start()


def _sweep_forever() -> None:
    while True:
        time.sleep(SWEEP_INTERVAL_S)
        if _disabled():
            continue
        try:
            _sweep()
        except Exception:
            log.exception("deadline sweep failed")
        finally:
            connections.close_all()


# ------------------------------------------------------------ reviews (#26)

_review: Callable[[int], str] | None = None
_review_queue = None
_review_thread: threading.Thread | None = None
_review_pool = None


def configure_review(run: Callable[[int], str]) -> None:
    """Give the function that computes and stores one hand's review
    (``services.reviews.run_review(hand_id)``)."""
    global _review
    _review = run


def schedule_review(hand_id: int) -> None:
    """Review hand ``hand_id`` in the background, after live turns.

    Production: the task :data:`REVIEW_TASK` on the review queue (``settings.GAMES_REVIEW_QUEUE``)
    (only the review worker consumes it, so a review never holds a live
    worker's slot).  Embedded: one daemon thread takes hand ids in order and
    has each review computed in a child process at ``nice 19``
    (:func:`run_review_job`), so the web process's threads never wait for it
    (a review in a thread would share the GIL with the live tables).
    Disabled scheduling (tests): nothing; tests call the review directly."""
    if _disabled():
        return
    if settings.GAMES_INPROCESS_TASKS:
        _review_thread_queue().put(hand_id)
    else:
        _celery_task(REVIEW_TASK).apply_async(args=(hand_id,), queue=settings.GAMES_REVIEW_QUEUE,
                                              priority=9)


def _review_thread_queue():
    global _review_queue, _review_thread
    import queue

    with _sweeper_lock:
        if _review_queue is None:
            _review_queue = queue.Queue()
        if _review_thread is None or not _review_thread.is_alive():
            _review_thread = threading.Thread(target=_review_forever, name="games-review",
                                              daemon=True)
            _review_thread.start()
    return _review_queue


def _review_forever() -> None:
    while True:
        hand_id = _review_queue.get()
        try:
            _review(hand_id)
        except Exception:
            log.exception("review of hand %s failed", hand_id)
        finally:
            connections.close_all()


def _nice_child() -> None:
    """The embedded review process's start: ``nice 19``, and the review
    governor's pause and resume lines on its stderr (the web process's log;
    the spawned child has no logging configured otherwise)."""
    import logging
    import os

    try:
        os.nice(19)
    except OSError:  # pragma: no cover
        pass
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    governor_log = logging.getLogger("games.runtime.governor")
    governor_log.addHandler(handler)
    governor_log.setLevel(logging.INFO)


def run_review_job(fn: Callable, args: tuple):
    """``fn(*args)`` (plain data in and out): in a child process at nice 19
    when called from the embedded topology's review thread, else here (a
    Celery review worker is itself a low-priority process; tests)."""
    global _review_pool
    if threading.current_thread() is not _review_thread:
        return fn(*args)
    if _review_pool is None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        _review_pool = ProcessPoolExecutor(
            max_workers=1, mp_context=multiprocessing.get_context("spawn"),
            initializer=_nice_child)
    return _review_pool.submit(fn, *args).result()
