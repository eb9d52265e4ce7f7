"""Every process's PostgreSQL connections are bounded by
its pool, so the site holds at most the README's number of connections
(processes x ``DB_POOL_MAX_SIZE``), however many requests and sockets arrive.

Real processes: two daphnes, the Celery worker and beat on a fresh database of
the local PostgreSQL.  The pool is made small (``DB_POOL_MAX_SIZE=3``) so that
40 parallel requests to a daphne need more connections than it may hold: they
queue for one (``DB_POOL_TIMEOUT``) instead of opening more.  A sampler counts
the database's connections (``pg_stat_activity``) every 50 ms throughout.
Connections are told apart by ``application_name`` (cardroom-web, -worker …).
Without the pool (``CONN_MAX_AGE=60``, a connection kept per request thread)
the two daphnes held 55 and 43 connections after such bursts.
"""

from __future__ import annotations

import asyncio
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from .live import first_hand, next_fragment, poll, table_socket
from .stack import HTTP, PG_ADMIN_URL, LiveStack, running

pytestmark = [pytest.mark.production, pytest.mark.slow]

POOL_MAX = 3
WEBS = 2
RUNNER_THREADS = 4
#: The README's formula: (daphnes + beats) x DB_POOL_MAX_SIZE + per worker
#: (concurrency + 1) x (2 + GAMES_RUNNER_THREADS) (solo pool: concurrency 1),
#: + 1 per management command (the test's ``ops`` subprocesses, at most one at a time)
WEB_BOUND = WEBS * POOL_MAX
WORKER_BOUND = (1 + 1) * (2 + RUNNER_THREADS)
BOUND = (WEBS + 1) * POOL_MAX + WORKER_BOUND + 1


class ConnectionSampler:
    """Counts the connections to database ``name`` every ``interval`` s in a
    thread, from an administrative connection to another database: in all,
    and per ``application_name`` (config/settings.py names each process kind)."""

    QUERY = ("SELECT application_name, count(*) FROM pg_stat_activity "
             "WHERE datname = %s GROUP BY application_name")

    def __init__(self, name: str, admin_url: str = PG_ADMIN_URL, interval: float = 0.05):
        self.name, self.admin_url, self.interval = name, admin_url, interval
        self.samples: list[dict[str, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def count(self) -> dict[str, int]:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True, connect_timeout=5) as conn:
            return dict(conn.execute(self.QUERY, (self.name,)).fetchall())

    def _run(self) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True, connect_timeout=5) as conn:
            while not self._stop.is_set():
                self.samples.append(dict(conn.execute(self.QUERY, (self.name,)).fetchall()))
                self._stop.wait(self.interval)

    def __enter__(self) -> "ConnectionSampler":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def peak(self, role: str | None = None) -> int:
        """Most connections seen at once, of ``role`` (an application_name) or in all."""
        return max((sum(v for k, v in s.items() if role is None or k == role) for s in self.samples),
                   default=0)


def get(url: str, cookie: str | None) -> tuple[int, float]:
    """GET ``url`` (with session ``cookie``): (status, seconds)."""
    headers = {"Cookie": f"sessionid={cookie}"} if cookie else {}
    t0 = time.monotonic()
    try:
        with HTTP.open(urllib.request.Request(url, headers=headers), timeout=60) as resp:
            resp.read()
            status = resp.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    except OSError as exc:  # refused, reset: a failure too
        status = f"{exc.__class__.__name__}"
    return status, time.monotonic() - t0


@pytest.fixture(scope="module")
def bounded_stack(tmp_path_factory):
    from .conftest import production_services_configured

    if not production_services_configured():
        pytest.skip("needs the production topology (make test-production)")
    stack = LiveStack.production(
        tmp_path_factory.mktemp("bounded-stack"), webs=WEBS,
        extra_env={"DB_POOL_MAX_SIZE": str(POOL_MAX), "DB_POOL_MIN_SIZE": "1",
                   "DB_POOL_TIMEOUT": "30", "DB_POOL_MAX_IDLE": "3",
                   "GAMES_RUNNER_THREADS": str(RUNNER_THREADS)},
    )
    with running(stack):
        yield stack


def test_bursts_and_sockets_stay_within_the_documented_connections(bounded_stack):
    stack = bounded_stack
    room = stack.ops("bot_room", humans=1, bot_delay_ms=200, autoplay=True, ready=False,
                     prefix="cb")
    room_id, user = room["room_id"], room["users"][0]
    cookie = user["cookie"]
    paths = ["/", f"/rooms/{room_id}/", "/healthz", f"/g/baohuang/"]
    sockets_open = threading.Event()
    release = threading.Event()
    socket_results: list = []

    async def sockets():
        async def one(i: int):
            async with table_socket(stack, room_id, cookie, web=i % WEBS) as ws:
                version, _c, _h = await next_fragment(ws, timeout=60)
                socket_results.append(version)
                if len(socket_results) == 20:
                    sockets_open.set()
                while not release.is_set():
                    try:
                        await asyncio.wait_for(ws.recv(), timeout=0.5)
                    except asyncio.TimeoutError:
                        pass
                return ws.close_code

        return await asyncio.gather(*(one(i) for i in range(20)), return_exceptions=True)

    outcomes: list = []
    socket_thread = threading.Thread(target=lambda: outcomes.extend(asyncio.run(sockets())))
    statuses, times = [], []
    with ConnectionSampler(stack.created_db) as sampler:
        socket_thread.start()
        assert sockets_open.wait(120), f"20 sockets served: {len(socket_results)}"
        stack_ready = stack.ops("ready", room_id=room_id, username=user["username"])
        assert stack_ready["version"] > room["version"]
        with ThreadPoolExecutor(max_workers=40) as pool:
            for burst in range(4):
                urls = [f"{stack.web_url_of(i % WEBS)}{paths[(i + burst) % len(paths)]}"
                        for i in range(40)]
                for url, (status, seconds) in zip(urls, pool.map(lambda u: get(u, cookie), urls)):
                    statuses.append((url, status))
                    times.append(seconds)
        peak_web, peak_worker, peak_all = (sampler.peak("cardroom-web"),
                                           sampler.peak("cardroom-worker"), sampler.peak())
        release.set()
        socket_thread.join(timeout=60)
        time.sleep(10)  # idle: connections above the pools' minimum close (DB_POOL_MAX_IDLE=3)
        idle = sampler.count()
    times.sort()
    print(f"\n4 x 40 requests + 20 sockets on {WEBS} daphnes, DB_POOL_MAX_SIZE={POOL_MAX}: "
          f"peak {peak_web} web connections (bound {WEB_BOUND}), {peak_worker} worker "
          f"(bound {WORKER_BOUND}), {peak_all} in all (bound {BOUND}); after 10 s idle {idle}; "
          f"requests p50 {times[len(times) // 2] * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms; "
          f"{len(sampler.samples)} samples")
    failed = [(url, s) for url, s in statuses if s != 200]
    assert len(statuses) == 160 and not failed, f"{len(failed)} of 160 failed: {failed[:10]}"
    assert all(o is None for o in outcomes), f"sockets closed with: {outcomes}"
    assert peak_web <= WEB_BOUND, f"the daphnes held {peak_web} connections > {WEB_BOUND}"
    assert peak_worker <= WORKER_BOUND
    assert peak_all <= BOUND, f"peak {peak_all} connections > {BOUND}"
    assert sum(idle.values()) <= BOUND
    assert peak_web >= WEBS, "the sampler saw the daphnes' connections"
    done = poll(lambda: stack.ops("hand_log", room_id=room_id),
                lambda lg: first_hand(lg)["complete"], 180, 1.0, "the hand to complete")
    stack.ops("close", room_id=room_id)
    actions = first_hand(done)["actions"]
    assert [a["seq"] for a in actions] == list(range(len(actions)))
    for name in ("web0", "web1"):
        log = stack.procs[name].log_text()
        assert "too many clients" not in log and "Traceback" not in log, stack.procs[name].tail(40)
