"""permessage-deflate on the table's socket (config/ws_deflate.py),
against a real daphne (embedded topology):

* a client that offers permessage-deflate (as browsers do) gets it, and a
  push of the table reaches it in far fewer bytes than the message it
  carries (the second push: the compressor already holds the first; the
  message is the regions that changed, the page it leaves a whole table,
  games/render/regions.py);
* with ``GAMES_WS_DEFLATE=0`` the server declines and the bytes on the wire
  are the fragment's own.
"""

from __future__ import annotations

import asyncio

from websockets.asyncio.client import connect

from tests.integration.stack import LiveStack, running
from tests.table_pages import PageCopy


async def _pushes(stack: LiveStack, room_id: int, cookie: str, n: int) -> tuple[str, list[tuple[int, int, int]]]:
    """``(extensions agreed, [(message bytes, wire bytes, page bytes)] for n
    pushes)``: the page is the whole table the message leaves on the page."""
    base = stack.web_url
    url = "ws" + base.removeprefix("http") + f"/ws/rooms/{room_id}/"
    async with connect(url, origin=base, additional_headers={"Cookie": f"sessionid={cookie}"},
                       compression="deflate", open_timeout=15, proxy=None, max_size=None) as ws:
        agreed = ws.response.headers.get("Sec-WebSocket-Extensions", "")
        got = [0]
        original = ws.data_received

        def counting(data: bytes) -> None:
            got[0] += len(data)
            original(data)

        ws.data_received = counting
        out, seen, page = [], 0, PageCopy()
        while len(out) < n:
            msg = await asyncio.wait_for(ws.recv(), 30)
            out.append((len(msg.encode()), got[0] - seen, len(page.apply(msg).encode())))
            seen = got[0]
    return agreed, out


def _room(stack: LiveStack) -> dict:
    return stack.ops("bot_room", game="baohuang", humans=1, autoplay=True, ready=True,
                     bot_delay_ms=1500, turn_seconds=60, prefix="defl")


def test_table_pushes_are_deflated(embedded_stack):
    room = _room(embedded_stack)
    agreed, pushes = asyncio.run(_pushes(embedded_stack, room["room_id"], room["users"][0]["cookie"], 4))
    assert agreed.startswith("permessage-deflate")
    message, wire, page = pushes[1]
    assert page > 5000  # a whole table for one seat
    assert wire < message / 5, pushes


def test_deflate_off_sends_the_fragment_as_it_is(tmp_path):
    with running(LiveStack.embedded(tmp_path, extra_env={"GAMES_WS_DEFLATE": "0"})) as stack:
        room = _room(stack)
        agreed, pushes = asyncio.run(_pushes(stack, room["room_id"], room["users"][0]["cookie"], 2))
    assert agreed == ""
    for message, wire, _page in pushes:
        assert message <= wire <= message + 14  # the frame's header only
