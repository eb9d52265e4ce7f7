"""permessage-deflate (RFC 7692) on daphne's websockets.

A table push is the whole table fragment for one seat, and consecutive pushes
differ in a few places (a card played, a count, a timer): with the
compressor's context kept between messages, a push weighs a few hundred bytes
instead of 10-25 kB (figures: docs/performance.md, scripts/bytes_per_push.py).

Daphne builds its websocket factory (autobahn's ``WebSocketServerFactory``)
without the option that lets autobahn accept a client's permessage-deflate
offer; :func:`install` makes every factory daphne builds in this process
accept it (browsers offer it on every socket).  Called from config.asgi, which
daphne (and ``runserver``) imports before it starts listening.

Settings (environment): ``GAMES_WS_DEFLATE=0`` turns it off;
``GAMES_WS_DEFLATE_WINDOW_BITS`` (9-15, default 15: a 32 kB window, which
holds a whole previous fragment) and ``GAMES_WS_DEFLATE_MEM_LEVEL`` (1-9,
default 5) bound the compressor's memory per socket (about
``2**(bits+2) + 2**(mem+9)`` bytes: 144 kB at 15/5, 32 kB at 12/5).
"""

from __future__ import annotations

import logging
import os

logger = logging.getLogger(__name__)
_installed = False


def accept_deflate(offers):
    """autobahn's ``perMessageCompressionAccept``: take the client's first
    permessage-deflate offer (``PerMessageDeflateOffer``), with this site's
    window and memory level; ``None`` (no compression) when there is none."""
    from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateOfferAccept

    bits = min(15, max(9, int(os.environ.get("GAMES_WS_DEFLATE_WINDOW_BITS", "15"))))
    mem = min(9, max(1, int(os.environ.get("GAMES_WS_DEFLATE_MEM_LEVEL", "5"))))
    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            return PerMessageDeflateOfferAccept(offer, window_bits=bits if bits < 15 else None, mem_level=mem)
    return None


def install() -> bool:
    """Make daphne's websocket factories accept permessage-deflate; returns
    whether it is on (off with ``GAMES_WS_DEFLATE=0`` or without daphne)."""
    global _installed
    if os.environ.get("GAMES_WS_DEFLATE", "1") == "0":
        return False
    try:
        from daphne.ws_protocol import WebSocketFactory
    except ImportError:  # another server: nothing to do
        return False
    if _installed:
        return True
    original = WebSocketFactory.__init__

    def __init__(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.setProtocolOptions(perMessageCompressionAccept=accept_deflate)

    WebSocketFactory.__init__ = __init__
    _installed = True
    return True
