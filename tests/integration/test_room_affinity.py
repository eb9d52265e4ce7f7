"""Two daphnes behind nginx with ``deploy/nginx.conf``: every socket
of a table reaches the same daphne, the rooms spread over both, and a move
still reaches a socket through the proxy.

Real processes: nginx (Debian's ``nginx-light``, installed by ``.ci/run``), two
daphnes, a Celery worker and beat, PostgreSQL and Redis.  Which daphne served a
socket is read from the daphnes' own access logs (``WSCONNECT /ws/rooms/<id>/``).
"""

from __future__ import annotations

import asyncio
import os
import re

import pytest

from .conftest import production_services_configured
from .live import next_fragment, poll, table_socket, wait_for_version
from .stack import NGINX, LiveStack, running

pytestmark = pytest.mark.production

ROOMS = 12
SOCKETS_PER_ROOM = 3


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    """A production stack with two daphnes, and nginx in front of them
    (``stack.proxy_port``)."""
    if not production_services_configured():
        pytest.skip("needs the production topology (make test-production)")
    if NGINX is None:
        if os.environ.get("CI"):
            pytest.fail("nginx is missing (.ci/run installs Debian's nginx-light)")
        pytest.skip("nginx is not installed (apt-get install nginx-light)")
    with running(LiveStack.production(tmp_path_factory.mktemp("proxied-stack"), webs=2)) as stack:
        stack.add_proxy()
        yield stack


def _connects(stack: LiveStack, web: int, room_id: int) -> int:
    """How many table sockets of ``room_id`` daphne ``web`` accepted (its access log)."""
    return len(re.findall(rf'"WSCONNECT /ws/rooms/{room_id}/"', stack.procs[f"web{web}"].log_text()))


async def test_a_tables_sockets_meet_on_one_daphne_behind_the_proxy(proxied):
    stack = proxied
    proxy = f"http://127.0.0.1:{stack.proxy_port}"
    made = await asyncio.to_thread(stack.ops, "bot_rooms", count=ROOMS, humans=1,
                                   bot_delay_ms=150, autoplay=True, ready=False)
    rooms = made["rooms"]
    for room in rooms:
        cookie = room["users"][0]["cookie"]
        for _ in range(SOCKETS_PER_ROOM):
            async with table_socket(stack, room["room_id"], cookie, base=proxy) as ws:
                version, _committed, html = await next_fragment(ws)
                assert version == room["version"]
                assert f'data-room="{room["room_id"]}"' in html
    # daphne writes its access line when the socket opens; bounded wait for the logs
    def counted():
        return {r["room_id"]: [_connects(stack, w, r["room_id"]) for w in (0, 1)] for r in rooms}

    counts = await asyncio.to_thread(
        poll, counted, lambda c: all(sum(v) == SOCKETS_PER_ROOM for v in c.values()), 15, 0.3,
        "every socket in a daphne's access log")
    for room_id, per_web in counts.items():
        assert sorted(per_web) == [0, SOCKETS_PER_ROOM], f"room {room_id}'s sockets split: {per_web}"
    served_by = {per_web.index(SOCKETS_PER_ROOM) for per_web in counts.values()}
    assert served_by == {0, 1}, f"{ROOMS} rooms all hashed to one daphne: {counts}"


async def test_a_move_reaches_a_socket_through_the_proxy(proxied):
    stack = proxied
    proxy = f"http://127.0.0.1:{stack.proxy_port}"
    room = await asyncio.to_thread(stack.ops, "bot_room", humans=1, bot_delay_ms=150,
                                   autoplay=True, ready=False)
    user = room["users"][0]
    async with table_socket(stack, room["room_id"], user["cookie"], base=proxy) as ws:
        before, _committed, html = await next_fragment(ws)
        assert 'data-status="waiting"' in html
        await asyncio.to_thread(stack.ops, "ready", room_id=room["room_id"], username=user["username"])
        version, html = await wait_for_version(ws, before + 2, timeout=30)
    assert 'data-status="playing"' in html and 'data-my-seat="0"' in html
    await asyncio.to_thread(stack.ops, "close", room_id=room["room_id"])
