"""Health checks for each process kind (issue #8): web, worker, beat.

``manage.py health KIND`` (exit 0 healthy, 1 not, one line per check) is for an
operator or a supervisor's probe; ``GET /healthz`` is the web process's own
answer for a load balancer (200 or 503, JSON).  Each check returns
``(ok, detail)``:

* **web** (:func:`check_web`): the database answers ``SELECT 1``; in the
  production topology Redis (channel layer and rate-limit cache) answers PING.
* **worker** (:func:`check_worker`): a Celery worker answers a broadcast ping
  through the broker within ``timeout`` seconds.
* **beat** (:func:`check_beat`): beat's ``sweep_deadlines`` task ran within
  ``max_age`` seconds (it records the time in the cache each run, every 2 s).
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection

log = logging.getLogger(__name__)

BEAT_KEY = "games:health:beat"
WORKER_SWEEP_KEY = "games:health:worker-sweep"


def _stamp(key: str) -> None:
    try:
        cache.set(key, time.time(), timeout=3600)
    except Exception:  # Redis down: the health check will say so
        log.debug("health stamp %s not stored", key, exc_info=True)


def beat_ran() -> None:
    """Called by beat's sweep task each time it runs."""
    _stamp(BEAT_KEY)


def worker_swept() -> None:
    """Called by a worker's own sweep thread each time it ran."""
    _stamp(WORKER_SWEEP_KEY)


def check_database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return True, "database ok"
    except Exception as exc:
        return False, f"database: {exc.__class__.__name__}: {exc}"


def check_redis() -> tuple[bool, str]:
    url = getattr(settings, "REDIS_URL", None)
    if not url:
        return True, "redis not used (embedded topology)"
    import redis

    try:
        client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        try:
            client.ping()
        finally:
            client.close()
        return True, "redis ok"
    except Exception as exc:
        return False, f"redis: {exc.__class__.__name__}: {exc}"


def check_web() -> list[tuple[bool, str]]:
    return [check_database(), check_redis()]


def check_worker(timeout: float = 3.0) -> list[tuple[bool, str]]:
    if settings.GAMES_INPROCESS_TASKS:
        return [(True, "no worker (embedded topology: turns run in the web process)")]
    from celery import current_app

    try:
        replies = current_app.control.ping(timeout=timeout) or []
    except Exception as exc:
        return [(False, f"worker ping: {exc.__class__.__name__}: {exc}")]
    if not replies:
        return [(False, f"no worker answered a ping within {timeout:.0f} s")]
    names = sorted(name for reply in replies for name in reply)
    return [(True, f"{len(names)} worker(s) answered: {', '.join(names)}"), check_database()]


def _age(key: str) -> float | None:
    try:
        value = cache.get(key)
    except Exception:
        return None
    return None if value is None else max(0.0, time.time() - float(value))


def check_beat(max_age: float = 10.0) -> list[tuple[bool, str]]:
    if settings.GAMES_INPROCESS_TASKS:
        return [(True, "no beat (embedded topology: the web process sweeps)")]
    age = _age(BEAT_KEY)
    if age is None:
        return [(False, "beat: no sweep recorded (beat down, worker down or Redis down)")]
    if age > max_age:
        return [(False, f"beat: last sweep {age:.1f} s ago (> {max_age:.0f} s)")]
    return [(True, f"beat: last sweep {age:.1f} s ago")]


CHECKS = {"web": check_web, "worker": check_worker, "beat": check_beat}


def run(kind: str) -> list[tuple[bool, str]]:
    """The checks of ``kind`` (``web``, ``worker``, ``beat``, or ``all``)."""
    if kind == "all":
        return [r for fn in CHECKS.values() for r in fn()]
    return CHECKS[kind]()
