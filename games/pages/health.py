"""Health checks for each process kind: web, worker, beat.

``manage.py health KIND`` (exit 0 healthy, 1 not, one line per check) is for an
operator or a supervisor's probe; ``GET /healthz`` is the web process's own
answer for a load balancer (200 or 503, JSON).  Each check returns
``(ok, detail)``:

* **web** (:func:`check_web`): the database answers ``SELECT 1`` on a
  connection taken from this process's pool within ``DB_HEALTH_TIMEOUT``
  seconds, or the pool, with none free, took connections back from other
  requests during that wait (busy, not down; the detail gives the pool's state:
  connections open, idle, requests waiting); in the production topology
  Redis (channel layer and rate-limit cache) answers PING.
* **worker** (:func:`check_worker`): the broker accepts a connection, then a
  Celery worker answers a broadcast ping through it within ``timeout`` seconds,
  and a worker runs the deadline sweeps beat sends (:func:`check_sweeps`: a
  worker that answers pings but consumes no queue beat sends to fails here).
* **beat** (:func:`check_beat`): beat *sent* its ``sweep_deadlines`` task
  within ``max_age`` seconds (beat's own process records it, the record used to be made by the worker running the task, so a dead
  worker was reported as a dead beat).

Each failing line starts with the part at fault (``database``, ``redis``,
``broker``, ``worker``, ``beat``), never another one's name.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection

from games.pages import pool_returns
from games.runtime import heartbeats
import redis
from kombu.utils.url import maybe_sanitize_url
from celery import current_app

log = logging.getLogger(__name__)

# The stamps the processes leave (beat, the sweeps) are written by
# games.runtime.heartbeats, the layer that runs them; this module only reads them.
BEAT_KEY, SWEEP_RAN_KEY = heartbeats.BEAT_KEY, heartbeats.SWEEP_RAN_KEY
BEAT_STARTED_KEY = heartbeats.BEAT_STARTED_KEY
#: seconds: beat sends the sweep every 2 s, so a worker that has run none for
#: this long while beat sends them is not taking beat's tasks
SWEEP_STALE_S = 60.0


def pool_state() -> dict | None:
    """The database pool of this process, or None when it has none (SQLite,
    ``DB_POOL_MAX_SIZE=0``): ``{"size": open connections, "max": max_size,
    "idle": connections free in the pool, "waiting": threads waiting for one,
    "timeouts": requests that gave up waiting since start}``."""
    pool = getattr(connection, "pool", None)
    if pool is None:
        return None
    stats = pool.get_stats()
    return {
        "size": stats.get("pool_size", 0),
        "max": pool.max_size,
        "idle": stats.get("pool_available", 0),
        "waiting": stats.get("requests_waiting", 0),
        "timeouts": stats.get("requests_errors", 0),
    }


def _pool_text(state: dict | None) -> str:
    if state is None:
        return ""
    return (f" (pool: {state['size']}/{state['max']} open, {state['idle']} idle, "
            f"{state['waiting']} waiting, {state['timeouts']} timed out)")


def _answered(pool) -> int:
    """A running count of what the database answered through ``pool``:
    connections given back in working order (:mod:`games.pages.pool_returns`)
    plus connections opened.  Two readings apart tell a busy pool (it grew)
    from a stuck one."""
    stats = pool.get_stats()
    return (pool_returns.count() + stats.get("connections_num", 0)
            - stats.get("connections_errors", 0))


def check_database(timeout: float | None = None) -> tuple[bool, str]:
    """``SELECT 1`` on a connection that this process can get within ``timeout``
    seconds (default ``settings.DB_HEALTH_TIMEOUT``): from its pool when it has
    one, with the pool's state in the detail.

    A pool that had no connection free for the check is *busy*, not down, when
    other requests gave connections back in working order meanwhile, or new
    ones opened (the database answers them; :func:`_answered`): healthy, the
    detail saying ``database busy``.  Reporting a saturated process as failed
    would make a load balancer pull it at its busiest and pile its load on the
    others (a 503 of ``/healthz`` in a burst: CI of stop 29).  A pool that
    took nothing back while every connection was taken (held, or stuck on a
    database that stopped answering) fails, as does any other error."""
    timeout = float(getattr(settings, "DB_HEALTH_TIMEOUT", 2.0)) if timeout is None else timeout
    pool = getattr(connection, "pool", None)
    before = _answered(pool) if pool is not None else 0
    try:
        if pool is not None:
            pool.open()
            with pool.connection(timeout=timeout) as conn:
                conn.execute("SELECT 1").fetchone()
        else:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
    except Exception as exc:
        state = pool_state() if pool is not None else None
        if exc.__class__.__name__ == "PoolTimeout":
            served = _answered(pool) - before
            if served > 0:
                return True, (f"database busy: no connection free within {timeout:g} s, "
                              f"{served} given back by other requests meanwhile{_pool_text(state)}")
            what = f"no connection within {timeout:g} s, none given back meanwhile"
        else:
            what = f"{exc.__class__.__name__}: {exc}"
        return False, f"database: {what}{_pool_text(state)}"
    return True, f"database ok{_pool_text(pool_state())}"


def check_redis() -> tuple[bool, str]:
    url = getattr(settings, "REDIS_URL", None)
    if not url:
        return True, "redis not used (embedded topology)"

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


def _broker_name() -> str:
    return maybe_sanitize_url(settings.CELERY_BROKER_URL or "")


def check_broker(timeout: float = 3.0) -> tuple[bool, str]:
    """The broker accepts a connection within ``timeout`` seconds."""

    try:
        with current_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
    except Exception as exc:
        return False, f"broker {_broker_name()}: {exc.__class__.__name__}: {exc}"
    return True, f"broker {_broker_name()} ok"


def check_worker(timeout: float = 3.0) -> list[tuple[bool, str]]:
    """The broker answers and a worker answers a ping through it; a broker
    that does not answer is reported as the broker's failure, not the worker's."""
    if settings.GAMES_INPROCESS_TASKS:
        return [(True, "no worker (embedded topology: turns run in the web process)")]

    broker = check_broker(timeout)
    if not broker[0]:
        return [broker]
    try:
        replies = current_app.control.ping(timeout=timeout) or []
    except Exception as exc:
        return [broker, (False, f"worker ping: {exc.__class__.__name__}: {exc}")]
    if not replies:
        return [broker, (False, f"worker: none answered a ping within {timeout:g} s")]
    names = sorted(name for reply in replies for name in reply)
    return [broker, (True, f"{len(names)} worker(s) answered: {', '.join(names)}"), check_database(),
            check_sweeps()]


class _CacheDown(Exception):
    pass


def _age(key: str) -> float | None:
    """Seconds since ``key``'s stamp, None when there is none; raises
    :class:`_CacheDown` when the cache (Redis) does not answer."""
    try:
        value = cache.get(key)
    except Exception as exc:
        raise _CacheDown(f"{exc.__class__.__name__}: {exc}") from exc
    return None if value is None else max(0.0, time.time() - float(value))


def check_beat(max_age: float = 10.0) -> list[tuple[bool, str]]:
    """Beat sent its deadline sweep (every 2 s) within ``max_age`` seconds.
    Whether a worker ran it is the worker's business (:func:`check_worker`);
    a Redis that does not answer is Redis's failure."""
    if settings.GAMES_INPROCESS_TASKS:
        return [(True, "no beat (embedded topology: the web process sweeps)")]
    try:
        age = _age(BEAT_KEY)
    except _CacheDown as exc:
        return [(False, f"redis (where beat records its sweeps): {exc}")]
    if age is None:
        return [(False, "beat: has sent no sweep (beat down or never started)")]
    if age > max_age:
        return [(False, f"beat: last sweep sent {age:.1f} s ago (> {max_age:g} s)")]
    return [(True, f"beat: last sweep sent {age:.1f} s ago")]


def check_sweeps(max_age: float = SWEEP_STALE_S, beat_max_age: float = 10.0) -> tuple[bool, str]:
    """A worker ran beat's deadline sweep (``sweep_deadlines``) within ``max_age``
    seconds, judged only while beat is sending it (its stamp is at most
    ``beat_max_age`` seconds old; a silent beat is :func:`check_beat`'s failure)
    and has been running for ``max_age`` seconds (so a stack just started is not
    failed before its first sweep ran).  Fails, naming the worker, when beat
    sends the sweeps and no worker runs them: a worker that answers pings but
    does not consume the queue beat sends to.  A cache (Redis) that does not
    answer leaves the sweeps unjudged: the worker rides out a Redis outage
    through RabbitMQ, and ``health web`` names Redis."""
    try:
        sent = _age(BEAT_KEY)
        ran = _age(SWEEP_RAN_KEY)
        started = _age(BEAT_STARTED_KEY)
    except _CacheDown as exc:  # Redis's failure, which health web reports; the worker may be fine
        return True, f"worker: deadline sweeps not judged (redis, where they are recorded: {exc})"
    if sent is None or sent > beat_max_age:
        return True, "worker: deadline sweeps not judged (beat is not sending them: see health beat)"
    if ran is not None and ran <= max_age:
        return True, f"worker: ran beat's deadline sweep {ran:.1f} s ago"
    if started is not None and started <= max_age:
        return True, f"worker: no deadline sweep run yet (beat started {started:.1f} s ago)"
    since = "none in the last hour" if ran is None else f"the last {ran:.1f} s ago"
    return False, (f"worker: beat sends the deadline sweep every 2 s but no worker ran one "
                   f"({since}, > {max_age:g} s): is a worker consuming beat's queue?")


CHECKS = {"web": check_web, "worker": check_worker, "beat": check_beat}


def run(kind: str) -> list[tuple[bool, str]]:
    """The checks of ``kind`` (``web``, ``worker``, ``beat``, or ``all``)."""
    if kind == "all":
        return [r for fn in CHECKS.values() for r in fn()]
    return CHECKS[kind]()
