"""Embedded topology as a real server: one ``daphne`` with no Redis and no Celery
(a temporary SQLite file), bots moving on the web process's turn runner
and reaching the browser's websocket through the in-memory channel layer.

Runs in the embedded half of ``make test`` (it starts its own server, so the
production half, which has ``DATABASE_URL`` set, does not repeat it).
"""

from __future__ import annotations

import asyncio
import os

import pytest

from .live import next_fragment, poll, post_form, table_socket, wait_for_version

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")), reason="runs in the embedded half of make test"
)


async def test_bots_progress_on_inprocess_timers(embedded_stack):
    stack = embedded_stack
    assert set(stack.procs) == {"web0"}, "no worker, no beat: the web process does it all"
    assert "REDIS_URL" not in stack.env
    room = await asyncio.to_thread(stack.ops, "bot_room", humans=1, bot_delay_ms=60,
                                   autoplay=True, ready=False)
    user = room["users"][0]
    async with table_socket(stack, room["room_id"], user["cookie"]) as ws:
        before, _committed, _html = await next_fragment(ws)
        # The human says ready through the site (as the browser's button does):
        # the deal and every later move happen inside the daphne process.
        status = await asyncio.to_thread(post_form, stack, f"/rooms/{room['room_id']}/ready",
                                         user["cookie"], {"ready": "1"})
        assert status == 200
        version, html = await wait_for_version(ws, before + 10, timeout=60)
    assert 'data-status="playing"' in html
    log = await asyncio.to_thread(
        poll, lambda: stack.ops("hand_log", room_id=room["room_id"]),
        lambda lg: lg["hands"] and len(lg["hands"][0]["actions"]) >= 5, 30, 0.5, "five actions",
    )
    actors = {a["actor"] for a in log["hands"][0]["actions"]}
    assert "bot" in actors
    assert log["hands"][0]["rebuild"]["ok"]
    await asyncio.to_thread(stack.ops, "close", room_id=room["room_id"])
