"""Health checks per process kind: ``/healthz`` and ``manage.py health``.

The production answers (a worker's ping, beat's sweep stamp, Redis down) are
exercised on real processes in tests/integration/test_faults.py."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.pages import health
from games.runtime import heartbeats

pytestmark = pytest.mark.django_db


def test_healthz_answers_200_with_its_checks(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True and body["checks"][0].startswith("database ok")


def test_healthz_answers_503_when_the_database_fails(client, monkeypatch):
    monkeypatch.setattr(health, "check_database", lambda: (False, "database: down"))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"ok": False, "checks": ["database: down", health.check_redis()[1]],
                               "pool": health.pool_state()}


def test_health_command_exit_status(capsys, monkeypatch):
    call_command("health", "web")
    assert "ok   database ok" in capsys.readouterr().out
    monkeypatch.setattr(health, "check_database", lambda: (False, "database: down"))
    with pytest.raises(SystemExit) as exc:
        call_command("health", "web")
    assert exc.value.code == 1
    assert "FAIL database: down" in capsys.readouterr().out


def test_beat_check_reads_the_sweep_stamp(settings):
    settings.GAMES_INPROCESS_TASKS = False
    from django.core.cache import cache

    cache.delete(health.BEAT_KEY)
    assert health.check_beat()[0][0] is False
    heartbeats.beat_ran()
    ok, detail = health.check_beat()[0]
    assert ok and "last sweep sent" in detail


def test_beat_stamps_when_it_sends_the_sweep_not_when_a_worker_runs_it(settings):
    """The stamp is made in beat's process as it publishes
    the sweep (celery's beat_init + before_task_publish signals), so a dead
    worker (sweep sent, never run) leaves ``health beat`` healthy."""
    from celery.signals import beat_init, before_task_publish
    from django.core.cache import cache

    settings.GAMES_INPROCESS_TASKS = False
    cache.delete(health.BEAT_KEY)
    cache.delete(health.SWEEP_RAN_KEY)
    before_task_publish.send(sender="games.tasks.sweep_deadlines")
    assert health.check_beat()[0][0] is False, "outside beat's process nothing is stamped"
    beat_init.send(sender=None)
    try:
        before_task_publish.send(sender="games.tasks.run_turn")
        assert cache.get(health.BEAT_KEY) is None, "only the sweep counts"
        before_task_publish.send(sender="games.tasks.sweep_deadlines")
    finally:
        heartbeats._in_beat = False
    ok, detail = health.check_beat()[0]
    assert ok and detail.startswith("beat: last sweep sent"), detail
    assert cache.get(health.SWEEP_RAN_KEY) is None, "no worker ran it, and beat is still healthy"


def test_beat_check_names_redis_when_the_cache_is_down(settings):
    settings.GAMES_INPROCESS_TASKS = False
    settings.CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing answers
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }}
    ok, detail = health.run("beat")[0]
    assert not ok and detail.startswith("redis"), detail


def test_worker_check_names_the_broker_when_it_does_not_answer(settings):
    from celery import current_app

    settings.GAMES_INPROCESS_TASKS = False
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:9/0"
    old = current_app.conf.broker_url
    current_app.conf.broker_url = "redis://127.0.0.1:9/0"
    try:
        results = health.check_worker(timeout=1)
    finally:
        current_app.conf.broker_url = old
    assert len(results) == 1 and not results[0][0]
    assert results[0][1].startswith("broker redis://127.0.0.1:9/0"), results



def test_healthz_is_503_when_the_pool_has_no_connection_in_time(client, settings):
    """Every connection of the process's pool is taken (by
    this test, holding them), so /healthz cannot get one within
    DB_HEALTH_TIMEOUT and answers 503 naming the database and the pool's state;
    given back, it is 200 again."""
    from django.db import connection

    pool = getattr(connection, "pool", None)
    if pool is None:
        pytest.skip("no connection pool (SQLite): the production topology has one")
    settings.DB_HEALTH_TIMEOUT = 0.5
    pool.open()
    held = []
    try:
        while pool.get_stats().get("pool_size", 0) < pool.max_size or pool.get_stats().get("pool_available", 0):
            held.append(pool.getconn(timeout=5))
        response = client.get("/healthz")
        body = response.json()
        assert response.status_code == 503, body
        assert body["checks"][0].startswith(
            "database: no connection within 0.5 s, none given back meanwhile"), body
        assert body["pool"]["size"] == pool.max_size and body["pool"]["idle"] == 0
    finally:
        for conn in held:
            pool.putconn(conn)
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()


def test_healthz_is_200_busy_when_the_pool_serves_others_while_it_waits(client, settings):
    """A saturated pool that keeps serving is busy, not down (stop 29's CI: one
    /healthz of a burst answered 503 while the daphne served every page).
    Every connection is held; a thread queues for one first, then /healthz
    queues behind it; one connection is given back meanwhile and goes to the
    thread.  /healthz still gets none within DB_HEALTH_TIMEOUT, but the pool
    took one back in working order: 200, ``database busy``, the pool's state
    in the detail (the pool's own counters keep the timed-out waiter as
    waiting, games/pages/pool_returns.py)."""
    import threading
    import time

    from django.db import connection

    pool = getattr(connection, "pool", None)
    if pool is None:
        pytest.skip("no connection pool (SQLite): the production topology has one")
    # 3 s for a connection given back once /healthz waits: under a CI
    # machine's load the giver once came after a 1 s wait had ended (session 20)
    settings.DB_HEALTH_TIMEOUT = 3.0
    pool.open()
    held, got = [], []
    try:
        while pool.get_stats().get("pool_size", 0) < pool.max_size or pool.get_stats().get("pool_available", 0):
            held.append(pool.getconn(timeout=5))
        waiter = threading.Thread(target=lambda: got.append(pool.getconn(timeout=10)))
        waiter.start()
        deadline = time.monotonic() + 5
        while pool.get_stats().get("requests_waiting", 0) < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pool.get_stats().get("requests_waiting", 0) == 1
        def give_back_once_healthz_waits():
            # not a timer: under a CI machine's load the request took longer
            # than a 0.3 s timer to reach the pool, and the connection went
            # back before /healthz queued (it then saw none given back)
            end = time.monotonic() + 10
            while pool.get_stats().get("requests_waiting", 0) < 2 and time.monotonic() < end:
                time.sleep(0.005)
            time.sleep(0.05)
            pool.putconn(held.pop())

        giver = threading.Thread(target=give_back_once_healthz_waits)
        giver.start()
        response = client.get("/healthz")
        giver.join()
        waiter.join(timeout=10)
        body = response.json()
        assert response.status_code == 200, body
        assert body["checks"][0].startswith(
            "database busy: no connection free within 3 s, 1 given back by other requests meanwhile"), body
        assert len(got) == 1
    finally:
        for conn in held + got:
            pool.putconn(conn)
    assert client.get("/healthz").json()["checks"][0].startswith("database ok")


def _stamp_ago(key: str, seconds: float | None) -> None:
    import time

    from django.core.cache import cache

    if seconds is None:
        cache.delete(key)
    else:
        cache.set(key, time.time() - seconds, timeout=3600)


@pytest.mark.parametrize("sent, ran, started, ok, words", [
    (1.0, 1.5, 500.0, True, "ran beat's deadline sweep"),
    (1.0, None, 5.0, True, "no deadline sweep run yet"),
    (1.0, None, None, False, "none in the last hour"),
    (1.0, 300.0, 900.0, False, "the last 300."),
    (1.0, 300.0, None, False, "is a worker consuming beat's queue"),
    (None, None, None, True, "not judged"),
    (45.0, 300.0, 900.0, True, "not judged"),
])
def test_sweep_check_fails_only_when_beat_sends_and_no_worker_runs(sent, ran, started, ok, words):
    """A worker that answers pings but runs none of beat's sweeps fails the
    worker check, named as the worker; a silent beat is beat's failure, not
    judged here; a stack whose beat started less than a minute ago is not
    failed before its first sweep ran."""
    _stamp_ago(health.BEAT_KEY, sent)
    _stamp_ago(health.SWEEP_RAN_KEY, ran)
    _stamp_ago(health.BEAT_STARTED_KEY, started)
    got, detail = health.check_sweeps()
    assert got is ok, detail
    assert words in detail
    assert detail.startswith("worker:")


def test_beat_stamps_its_start(settings):
    """beat_init stamps the start that :func:`health.check_sweeps` waits a minute from."""
    from celery.signals import beat_init
    from django.core.cache import cache

    cache.delete(health.BEAT_STARTED_KEY)
    beat_init.send(sender=None)
    try:
        assert cache.get(health.BEAT_STARTED_KEY) is not None
    finally:
        heartbeats._in_beat = False


def test_worker_check_reports_the_sweeps(settings, monkeypatch):
    """After a worker answered the ping, the worker check carries the sweep line."""
    settings.GAMES_INPROCESS_TASKS = False
    monkeypatch.setattr(health, "check_broker", lambda timeout=3.0: (True, "broker ok"))
    monkeypatch.setattr(health.current_app.control, "ping", lambda timeout: [{"w1@host": {"ok": "pong"}}])
    _stamp_ago(health.BEAT_KEY, 1.0)
    _stamp_ago(health.SWEEP_RAN_KEY, None)
    _stamp_ago(health.BEAT_STARTED_KEY, None)
    lines = health.check_worker()
    assert lines[-1][0] is False and lines[-1][1].startswith("worker: beat sends"), lines
    _stamp_ago(health.SWEEP_RAN_KEY, 0.5)
    assert all(ok for ok, _ in health.check_worker()), health.check_worker()


def test_sweep_check_does_not_blame_the_worker_for_a_redis_outage(monkeypatch):
    """The stamps live in Redis; with Redis down the worker (reached through
    RabbitMQ) is not failed: ``health web`` names Redis."""
    def down(key):
        raise health._CacheDown("ConnectionError: refused")

    monkeypatch.setattr(health, "_age", down)
    ok, detail = health.check_sweeps()
    assert ok and "not judged" in detail and "redis" in detail, detail
