"""Telling connected browsers that a room changed.

The channel layer carries only ``{"type": "table.changed", "version": N,
"committed_at": epoch_ms}`` (never a card): each websocket connection then
renders its own seat's view (:mod:`games.consumers`).  Groups: ``room-<id>``
for a table, ``lobby-<game>`` for a lobby.

Called from synchronous code after a commit, in any thread.  With the
in-memory channel layer (embedded topology) the message must be put on the
queues from the server's own event loop, which the consumers register with
:func:`register_loop`; a timer thread hands the coroutine to that loop.  With
channels-redis (production) a synchronous caller (a Celery task, a view)
hands it to one long-lived sender loop of the process (:func:`_sender_loop`),
so the layer's Redis connection is reused instead of a new event loop,
thread and connection per commit (what ``async_to_sync`` would do).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

log = logging.getLogger(__name__)

_main_loop: asyncio.AbstractEventLoop | None = None
_sender: asyncio.AbstractEventLoop | None = None
_sender_lock = threading.Lock()
#: Seconds a synchronous caller waits for its notification to be sent.
SEND_TIMEOUT_S = 5.0


def register_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the event loop that serves websockets (called on connect)."""
    global _main_loop
    _main_loop = loop


def _sender_loop() -> asyncio.AbstractEventLoop:
    """The process's sender loop (a daemon thread, started once)."""
    global _sender
    with _sender_lock:
        if _sender is None or _sender.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="games-notify", daemon=True).start()
            _sender = loop
        return _sender


def room_group(room_id: int) -> str:
    return f"room-{room_id}"


def lobby_group(game: str) -> str:
    return f"lobby-{game}"


def message(version: int, committed_at: int | None = None) -> dict:
    """The only payload the channel layer carries."""
    if committed_at is None:
        committed_at = int(time.time() * 1000)
    return {"type": "table.changed", "version": version, "committed_at": committed_at}


def table_changed(room_id: int, version: int, game: str, lobby: bool = True) -> None:
    """Send ``table.changed`` to the room's group (and the lobby's)."""
    groups = [room_group(room_id)] + ([lobby_group(game)] if lobby else [])
    send(groups, message(version), what=f"room {room_id} version {version}")


def send(groups: list[str], msg: dict, what: str = "") -> None:
    """Send ``msg`` to every group in ``groups`` from any thread or loop (see
    the module docstring); a failure is logged, never raised.  Other apps'
    notifications (e.g. an event page's ``event.changed``) go through here."""
    layer = get_channel_layer()
    if layer is None:
        return

    async def _send():
        for group in groups:
            await layer.group_send(group, msg)

    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    try:
        if running is not None:
            running.create_task(_send())
        elif (
            isinstance(layer, InMemoryChannelLayer)
            and _main_loop is not None
            and _main_loop.is_running()
            and not _main_loop.is_closed()
        ):
            asyncio.run_coroutine_threadsafe(_send(), _main_loop).result(timeout=SEND_TIMEOUT_S)
        elif isinstance(layer, InMemoryChannelLayer):
            async_to_sync(_send)()
        else:
            asyncio.run_coroutine_threadsafe(_send(), _sender_loop()).result(timeout=SEND_TIMEOUT_S)
    except Exception:  # a lost notification must never undo a committed change
        log.exception("notify %s failed", what or groups)
