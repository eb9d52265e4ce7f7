"""When matchmaker passes run.

A pass is requested after every join (at once, and again when the party's
bot wait is over) and runs periodically while anyone waits, so a lost
request or a restart never strands a queue:

- production (a Celery broker): ``quickplay.tasks.matchmake`` with a
  countdown; beat runs ``quickplay.tasks.matchmake_all`` every
  :data:`TICK_S` seconds;
- embedded (``settings.GAMES_INPROCESS_TASKS``): a daemon timer runs the same
  pass in this process, and a ticker thread (started by the first request)
  runs ``matchmake_all`` every :data:`TICK_S` seconds.  A per-game lock keeps
  two threads of the process from running a pass at once (SQLite takes no
  row locks); correctness never depends on it (see ``services.run_pass``).

Tests set ``settings.GAMES_SCHEDULING_DISABLED`` and call passes by hand.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import connections

from . import services

log = logging.getLogger(__name__)

TICK_S = 1.0

_ticker: threading.Thread | None = None
_ticker_lock = threading.Lock()
_game_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()


def _disabled() -> bool:
    return bool(getattr(settings, "GAMES_SCHEDULING_DISABLED", False))


def game_lock(game: str) -> threading.Lock:
    with _guard:
        return _game_locks.setdefault(game, threading.Lock())


def request_pass(game: str, delay_s: float = 0.0) -> None:
    """Run a pass for ``game`` after ``delay_s`` seconds."""
    if _disabled():
        return
    delay_s = max(0.0, float(delay_s))
    if settings.GAMES_INPROCESS_TASKS:
        ensure_ticker()
        timer = threading.Timer(delay_s, run_inprocess, args=(game,))
        timer.daemon = True
        timer.start()
    else:
        from celery import current_app  # the project's app (config.celery), set up with Django

        current_app.send_task("quickplay.tasks.matchmake", args=(game,), countdown=delay_s)


def run_inprocess(game: str) -> None:
    """One pass in this process (a timer or the ticker)."""
    try:
        with game_lock(game):
            services.run_pass(game)
    except Exception:
        log.exception("in-process matchmaker pass for %s failed", game)
    finally:
        connections.close_all()


def ensure_ticker() -> None:
    """Start the embedded ticker thread once (no-op in production)."""
    global _ticker
    if _disabled() or not settings.GAMES_INPROCESS_TASKS:
        return
    with _ticker_lock:
        if _ticker is not None and _ticker.is_alive():
            return
        _ticker = threading.Thread(target=_tick_forever, name="quickplay-ticker", daemon=True)
        _ticker.start()


def _tick_forever() -> None:
    while True:
        time.sleep(TICK_S)
        if _disabled():
            continue
        try:
            for game in services.games_waiting():
                run_inprocess(game)
        except Exception:
            log.exception("matchmaker tick failed")
        finally:
            connections.close_all()
