"""What a table page shows after each websocket push (partial pushes).

A push sends the regions of ``#table`` that changed and a stub,
``<tag id="…" data-keep="HASH"></tag>``, for each unchanged one
(:mod:`games.render.regions`); the page keeps its element with that
``data-h``.  :class:`PageCopy` does the same to strings, so tests can read
each push as the whole fragment the browser then shows.
"""

from __future__ import annotations

import re

from channels.testing import WebsocketCommunicator

STUB = re.compile(r'<([a-z][a-z0-9]*) id="([^"]+)" data-keep="([0-9a-f]+)"></\1>')


def stubs(message: str) -> list[tuple[str, str]]:
    """``(id, hash)`` of each stub in ``message``."""
    return [(m.group(2), m.group(3)) for m in STUB.finditer(message)]


def element(html: str, tag: str, digest: str) -> str | None:
    """The region element ``<tag … data-h="digest">…</tag>`` of ``html``, or None."""
    at = html.find(f' data-h="{digest}">')
    start = html.rfind(f"<{tag} ", 0, at) if at >= 0 else -1
    if start < 0:
        return None
    depth = 0
    for m in re.compile(rf"<{tag}[\s>]|</{tag}>").finditer(html, start):
        depth += -1 if m.group(0).startswith("</") else 1
        if depth == 0:
            return html[start:m.end()]
    return None


class PageCopy:
    """The ``#table`` fragment a page shows, message by message."""

    def __init__(self):
        self.html = ""

    def apply(self, message: str) -> str:
        """The whole fragment shown once ``message`` (a push) is applied.
        Raises ``AssertionError`` for a stub whose element the page lacks."""
        if 'id="table"' not in message[:40]:
            return self.html  # not a table push (chat)

        def kept(m):
            found = element(self.html, m.group(1), m.group(3))
            assert found is not None and f'id="{m.group(2)}"' in found[:300], (
                f"stub {m.group(2)} ({m.group(3)}) not on the page")
            return found

        self.html = STUB.sub(kept, message)
        return self.html


class PagedCommunicator(WebsocketCommunicator):
    """A channels test client of a table socket whose ``receive_from`` answers
    the whole fragment the page shows after each table push (other messages,
    chat, as they came); ``raw`` holds the messages as sent."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.page = PageCopy()
        self.raw: list[str] = []

    async def receive_from(self, timeout=1):
        message = await super().receive_from(timeout)
        self.raw.append(message)
        if 'id="table"' not in message[:40]:
            return message
        return self.page.apply(message)


HAND = re.compile(r'data-region="hand"[^>]*>(.*?)</div>', re.S)
HAND_CARD = re.compile(r'<button[^>]* data-card="([^"]+)"(?: data-count="(\d+)")?')


def hand_codes(html: str) -> list[str]:
    """The viewer's own cards in ``html`` (the table's DOM contract: the hand
    is ``data-region="hand"``, a stack of identical cards one button with
    ``data-count``), each copy once, in the page's order; [] without a hand.
    Public cards (plays on the felt, the kitty, 比牌) are not in it."""
    out: list[str] = []
    for hand in HAND.findall(html):
        for code, count in HAND_CARD.findall(hand):
            out += [code] * int(count or 1)
    return out


def kitty_codes(html: str) -> list[str]:
    """The kitty cards marked in the viewer's hand while burying (S15:
    ``data-kitty="1"``), each copy once."""
    out: list[str] = []
    for hand in HAND.findall(html):
        for tag in re.findall(r"<button[^>]*>", hand):
            if 'data-kitty="1"' in tag:
                m = re.search(r'data-card="([^"]+)"(?: data-count="(\d+)")?', tag)
                out += [m.group(1)] * int(m.group(2) or 1)
    return out
