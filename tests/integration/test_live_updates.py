"""Production topology: a move made in the Celery worker process reaches a
browser's websocket on a separate daphne process through Redis; sockets from
another origin or without a login are refused.

Everything runs as real processes (``production_stack``): PostgreSQL, Redis,
``daphne``, ``celery worker``, ``celery beat``.  Rooms are created by
``tests.integration.ops`` subprocesses through ``games.services``.
"""

from __future__ import annotations

import asyncio

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.table_pages import PageCopy

from .live import next_fragment, poll, table_socket, wait_for_version

pytestmark = pytest.mark.production


def bot_actions(log: dict) -> list[dict]:
    return [a for h in log["hands"] for a in h["actions"] if a["actor"] == "bot"]


async def test_bot_move_from_worker_reaches_websocket_via_redis(production_stack):
    stack = production_stack
    room = await asyncio.to_thread(
        stack.ops, "bot_room", humans=1, bot_delay_ms=150, autoplay=True, ready=False
    )
    user = room["users"][0]
    page = PageCopy()  # pushes carry only the regions that changed
    async with table_socket(stack, room["room_id"], user["cookie"]) as ws:
        before, _committed, html = await next_fragment(ws, page=page)
        assert before == room["version"]
        assert 'data-status="waiting"' in html
        # Saying ready deals the hand (in this ops process); from then on every
        # move is made by the worker: 4 bots, and 托管 for the human seat.
        await asyncio.to_thread(stack.ops, "ready", room_id=room["room_id"],
                                username=user["username"])
        log = await asyncio.to_thread(
            poll, lambda: stack.ops("hand_log", room_id=room["room_id"]),
            lambda lg: bot_actions(lg), 60, 0.5, "a bot action in the log",
        )
        # The socket catches up with a version at or after that bot move.
        version, html = await wait_for_version(ws, log["version"], timeout=30, page=page)
    assert version >= log["version"] > before
    assert 'data-status="playing"' in html
    # The human's own cards are in its fragment (and only its own seat is "me").
    assert 'data-card="' in html and 'data-my-seat="0"' in html
    moves = bot_actions(log)
    assert {a["seat"] for a in moves} <= {1, 2, 3, 4}
    # The move was computed by the separate worker process (its turn runner), not by daphne.
    assert "turn runner started" in stack.procs["worker"].log_text()
    assert "turn runner started" not in stack.procs["web0"].log_text()
    await asyncio.to_thread(stack.ops, "close", room_id=room["room_id"])


async def test_websocket_refused_from_another_origin(production_stack):
    stack = production_stack
    room = await asyncio.to_thread(stack.ops, "bot_room", humans=1)
    cookie = room["users"][0]["cookie"]
    with pytest.raises(InvalidStatus) as refused:
        async with table_socket(stack, room["room_id"], cookie, origin="http://evil.example"):
            pass
    assert refused.value.response.status_code == 403
    # The same user from the site's own origin is served (so the refusal above
    # is about the origin, not the cookie).
    async with table_socket(stack, room["room_id"], cookie) as ws:
        version, _committed, _html = await next_fragment(ws)
    assert version == room["version"]


async def test_websocket_refused_without_login(production_stack):
    stack = production_stack
    room = await asyncio.to_thread(stack.ops, "bot_room", humans=1)
    async with table_socket(stack, room["room_id"], cookie=None) as ws:
        with pytest.raises(ConnectionClosed) as closed:
            await next_fragment(ws)  # closed before any table is sent
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    # A forged session cookie is no better than none.
    async with table_socket(stack, room["room_id"], cookie="not-a-session") as ws:
        with pytest.raises(ConnectionClosed) as closed:
            await next_fragment(ws)
    assert closed.value.rcvd.code == 4401
