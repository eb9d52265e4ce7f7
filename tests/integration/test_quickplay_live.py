"""Production topology: 12 simulated players join the quick-play
queue over websockets through daphne; the Celery worker's matchmaker passes
(beat every second, plus one requested per join) seat them at tables; bots
fill the seats left only for the players who allowed it, after their wait.

Real processes (``production_stack``): PostgreSQL, Redis, daphne, a Celery
worker and beat.  Accounts are made by ``tests.integration.ops``.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from datetime import datetime

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games.management.commands.bench_live import ws_connect_kwargs

pytestmark = pytest.mark.production

BOT_WAIT = 10


async def queue_player(stack, user, game: str, bots: str, timeout: float = 90.0) -> dict:
    """One simulated player: connect, join over the socket, ping like the
    page, and wait for the status naming a table.  A closed socket is
    reopened as the page does (the place in the queue is kept: the state is
    in the database; idle sockets are closed every ~5 s under redis-py's
    default socket timeout), so this also reconnects while queued."""
    url = stack.ws_url("ws/quickplay/")
    deadline = time.monotonic() + timeout
    joined = None
    states: list[str] = []
    connects = 0
    while time.monotonic() < deadline:
        connects += 1
        try:
            async with connect(url, **ws_connect_kwargs(stack.web_url, user["cookie"])) as ws:
                while time.monotonic() < deadline:
                    try:
                        html = await asyncio.wait_for(ws.recv(), 3)
                    except TimeoutError:
                        await ws.send("ping")  # the page's sign of life
                        continue
                    state = re.search(r'data-state="(\w+)"', html).group(1)
                    states.append(state)
                    room = re.search(r'data-room-url="/rooms/(\d+)/"', html)
                    if room:
                        return {"user": user["username"], "room": int(room.group(1)),
                                "joined": joined, "seated": time.time(), "states": states,
                                "connects": connects}
                    if joined is None:
                        assert state == "none"
                        joined = time.time()
                        await ws.send(json.dumps({"join": game, "bots": bots}))
                    else:
                        assert state == "waiting", states  # still queued after a reconnect
        except ConnectionClosed:
            await asyncio.sleep(0.3)
    raise AssertionError(f"{user['username']} not seated in {timeout}s; states {states}")


async def test_twelve_players_are_seated_by_the_worker(production_stack):
    stack = production_stack
    # 8 for 升级 who want humans only, close in rating: two full tables at once;
    # 4 for 保皇 who allow bots after 10 s: too few for a table of five.
    sj = await asyncio.to_thread(stack.ops, "players", n=8, prefix="qsj",
                                 ratings=[["shengji", 1480 + 5 * i] for i in range(8)])
    bh = await asyncio.to_thread(stack.ops, "players", n=4, prefix="qbh")
    started = time.time()
    results = await asyncio.gather(
        *[queue_player(stack, u, "shengji", "never") for u in sj["users"]],
        *[queue_player(stack, u, "baohuang", str(BOT_WAIT)) for u in bh["users"]],
    )
    names = [u["username"] for u in sj["users"] + bh["users"]]
    info = await asyncio.to_thread(stack.ops, "tables", usernames=names)
    rooms = {int(k): v for k, v in info["rooms"].items()}
    by_user = {r["user"]: r for r in results}
    # nobody seated twice: each player sits in exactly one of the rooms, the one his page was sent to
    for name in names:
        holding = [rid for rid, room in rooms.items() if any(s["user"] == name for s in room["seats"])]
        assert holding == [by_user[name]["room"]], name
    for rid, room in rooms.items():
        assert room["status"] == "playing"  # the first hand was dealt
        assert all(s["user"] or s["bot"] for s in room["seats"])  # full
        humans = [s["user"] for s in room["seats"] if s["user"]]
        if room["game"] == "shengji":
            assert len(humans) == 4 and all(h.startswith("qsj") for h in humans)  # "never": no bots
        else:
            assert all(h.startswith("qbh") for h in humans)
            assert any(s["bot"] == "search" for s in room["seats"])  # bots filled, the 高手 level
    assert sum(1 for r in rooms.values() if r["game"] == "shengji") == 2
    # bots only after the chosen wait, and not long after it
    for e in info["entries"]:
        assert e["status"] == "matched"
        waited = (datetime.fromisoformat(e["matched"]) - datetime.fromisoformat(e["joined"])).total_seconds()
        if e["game"] == "baohuang":
            assert BOT_WAIT <= waited <= BOT_WAIT + 15, e
    assert time.time() - started < 90
    worker_log = stack.procs["worker"].log_text()
    assert "quickplay.tasks.matchmake" in worker_log and "succeeded" in worker_log
