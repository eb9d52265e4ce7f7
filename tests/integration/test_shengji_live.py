"""Production topology, 升级: a whole hand played by the Celery worker (three
bots and the human seat on 托管) reaches the human's websocket through Redis
on a separate daphne; the stored log rebuilds to the stored summary with the
real engine; the seat's fragments show its own 52 cards and the 升级 board.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.table_pages import PageCopy

from .live import next_fragment, poll, table_socket, wait_for_version
from tests.table_pages import hand_codes

pytestmark = pytest.mark.production


async def test_shengji_hand_played_by_the_worker_reaches_the_socket(production_stack):
    stack = production_stack
    room = await asyncio.to_thread(
        stack.ops, "bot_room", game="shengji", humans=1, bot_delay_ms=30, autoplay=False, ready=False
    )
    user = room["users"][0]
    page = PageCopy()  # pushes carry only the regions that changed
    async with table_socket(stack, room["room_id"], user["cookie"]) as ws:
        before, _committed, html = await next_fragment(ws, page=page)
        assert before == room["version"] and 'data-status="waiting"' in html
        await asyncio.to_thread(stack.ops, "ready", room_id=room["room_id"], username=user["username"])
        version, html = await wait_for_version(ws, before + 1, timeout=30, page=page)
        assert 'class="board sj"' in html
        assert len(hand_codes(html)) == 52  # S1, own cards only (stacks counted by data-count)
        # 托管 only now: on it from the start, the seat could show 比牌 (S13)
        # before the first push was rendered, and hold fewer than 52
        await asyncio.to_thread(stack.ops, "autoplay", room_id=room["room_id"], username=user["username"])
        log = await asyncio.to_thread(
            poll, lambda: stack.ops("hand_log", room_id=room["room_id"]),
            lambda lg: lg["hands"] and lg["hands"][0]["complete"], 240, 1.0, "hand 1 complete",
        )
        version, html = await wait_for_version(ws, log["version"], timeout=60, page=page)
    assert 'id="result-panel"' in html or 'data-phase="auction"' in html
    hand = log["hands"][0]
    assert hand["rebuild"] == {"ok": True, "complete": True, "error": None, "summary_matches": True}
    actors = {a["actor"] for a in hand["actions"]}
    assert actors <= {"bot", "auto"} and "bot" in actors
    verbs = {next(k for k in a["payload"] if k != "seat") for a in hand["actions"]}
    assert {"trump", "bury", "play"} <= verbs
    # the worker's turn runner played them (daphne runs none in production)
    assert "turn runner started" in stack.procs["worker"].log_text()
    assert "turn runner started" not in stack.procs["web0"].log_text()
    await asyncio.to_thread(stack.ops, "close", room_id=room["room_id"])
