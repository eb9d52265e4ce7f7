"""A Celery worker's own deadline sweep: beat is not a single point of failure.

With beat down, a worker killed mid-task left its task in Redis'
unacknowledged set until the visibility timeout, and nothing else looked at
the overdue table.  Every worker process now runs a daemon thread (started on
Celery's ``worker_ready`` signal by :mod:`games.runtime.tasks`, in the worker's main process) that every
``settings.GAMES_WORKER_SWEEP_S`` seconds (default 5) runs the turn of each
room whose deadline passed more than a second ago, itself, through
:func:`games.runtime.scheduling.sweep` with ``direct=True``.

Running a turn from several places at once (beat's sweep, this thread in every
worker, a redelivered task) is harmless: :func:`games.runtime.tasks.play_turn`
carries the version it saw and the service re-checks it under the room's row
lock, so exactly one of them applies and the others return ``"stale"``.  As
the thread needs no broker, tables whose deadlines pass keep going while Redis
is down; the only thing lost then is the websocket push, which a page
recovers on reconnect.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import connections

from games.runtime import heartbeats

log = logging.getLogger(__name__)

_stop = threading.Event()
_thread: threading.Thread | None = None


def _loop(interval: float, sweep) -> None:
    while not _stop.wait(interval):
        try:
            sweep()
            heartbeats.worker_swept()
        except Exception:
            log.warning("worker sweep failed (database down?); retrying", exc_info=True)
        finally:
            connections.close_all()


def start(sweep) -> bool:
    """Start the thread calling ``sweep()`` (no arguments) once per process;
    False when disabled.  :mod:`games.runtime.tasks` starts it on ``worker_ready``."""
    global _thread
    interval = float(getattr(settings, "GAMES_WORKER_SWEEP_S", 5.0) or 0)
    if interval <= 0 or getattr(settings, "GAMES_INPROCESS_TASKS", False):
        return False
    if _thread is not None and _thread.is_alive():
        return True
    _stop.clear()
    _thread = threading.Thread(target=_loop, args=(interval, sweep), name="games-worker-sweep", daemon=True)
    _thread.start()
    log.info("worker deadline sweep every %.1f s", interval)
    return True


def stop() -> None:
    """Ask the thread to stop (Celery's ``worker_shutdown``)."""
    _stop.set()


