"""Client side of the integration tests: websockets and form POSTs to a :class:`LiveStack`.

The fragment parsing and connect options are the benchmark's
(``games/management/commands/bench_live.py``), so tests and benchmark read the
site the same way.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request

from websockets.asyncio.client import connect

from games.management.commands.bench_live import fragment_stamp, ws_connect_kwargs

from .stack import HTTP, LiveStack


def table_socket(stack: LiveStack, room_id: int, cookie: str | None, origin: str | None = None,
                 web: int = 0, base: str | None = None):
    """``async with table_socket(...) as ws``: the room's websocket as a browser
    on ``origin`` (default: the site itself) with session ``cookie``, through
    daphne ``web`` or the site's address ``base`` (``http://host:port``: nginx
    in front of the daphnes)."""
    base = base or stack.web_url_of(web)
    url = "ws" + base.removeprefix("http") + f"/ws/rooms/{room_id}/"
    return connect(url, **ws_connect_kwargs(origin or base, cookie))


async def next_fragment(ws, timeout: float = 15.0, page=None) -> tuple[int | None, int | None, str]:
    """The next message as ``(data-version, data-committed-at, html)``; with
    ``page`` (a :class:`tests.table_pages.PageCopy`) ``html`` is the whole
    table the message leaves on the page (a push sends only the regions that
    changed, games/render/regions.py)."""
    html = await asyncio.wait_for(ws.recv(), timeout)
    version, committed = fragment_stamp(html)
    return version, committed, page.apply(html) if page is not None else html


async def wait_for_version(ws, at_least: int, timeout: float = 30.0, page=None) -> tuple[int, str]:
    """Read fragments until one has ``data-version >= at_least``; returns
    ``(version, html)`` (``page`` as for :func:`next_fragment`).  Raises
    ``TimeoutError`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no fragment with data-version >= {at_least} in {timeout}s")
        version, _committed, html = await next_fragment(ws, left, page)
        if version is not None and version >= at_least:
            return version, html


def first_hand(log: dict) -> dict:
    """The first hand of an ``ops hand_log`` answer (an empty, incomplete one
    before the deal)."""
    return log["hands"][0] if log["hands"] else {"actions": [], "complete": False}


def poll(fetch, done, timeout: float, interval: float = 0.5, what: str = "condition"):
    """Call ``fetch()`` until ``done(value)``; return the value, or raise
    ``TimeoutError`` (with the last value) after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = fetch()
        if done(value):
            return value
        if time.monotonic() >= deadline:
            raise TimeoutError(f"{what} not reached in {timeout}s; last: {value!r}"[:2000])
        time.sleep(interval)


def post_form(stack: LiveStack, path: str, cookie: str, data: dict, timeout: float = 15) -> int:
    """POST ``data`` to ``path`` as a logged-in browser (session cookie and a
    CSRF cookie/header pair, no Origin); returns the HTTP status."""
    token = secrets.token_hex(16)  # 32 characters: a valid unmasked CSRF secret
    request = urllib.request.Request(
        stack.web_url + path,
        data=urllib.parse.urlencode(data).encode(),
        headers={
            "Cookie": f"sessionid={cookie}; csrftoken={token}",
            "X-CSRFToken": token,
            "Content-Type": "application/x-www-form-urlencoded",
        },
        method="POST",
    )
    try:
        with HTTP.open(request, timeout=timeout) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code
