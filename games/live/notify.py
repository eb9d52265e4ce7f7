"""Telling connected browsers that a room changed.

The channel layer carries only ``{"type": "table.changed", "room": id,
"version": N, "committed_at": epoch_ms}`` (never a card): each websocket connection then
renders its own seat's view (:mod:`games.live.consumers`; a room's group has one
member per process, :mod:`games.live.fanout`).  Groups: ``room-<id>``
for a table, ``lobby-<game>`` for a lobby.

Called from synchronous code after a commit, in any thread.  With the
in-memory channel layer (embedded topology) the message must be put on the
queues from the server's own event loop, which the consumers register with
:func:`register_loop`; a timer thread hands the coroutine to that loop.  With
channels-redis (production) a synchronous caller (a Celery task, a view)
hands it to one long-lived sender loop of the process (:func:`_sender_loop`),
so the layer's Redis connection is reused instead of a new event loop,
thread and connection per commit (what ``async_to_sync`` would do), and does
not wait for Redis's answer (at most :data:`SENDER_BACKLOG` in flight).
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import threading
import time

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.dispatch import receiver

from games import signals

log = logging.getLogger(__name__)

_main_loop: asyncio.AbstractEventLoop | None = None
_sender: asyncio.AbstractEventLoop | None = None
_sender_lock = threading.Lock()
#: Seconds a synchronous caller waits for its notification to be sent (the
#: embedded topology), or for a free slot in the sender's backlog (production).
SEND_TIMEOUT_S = 5.0
#: Notifications a process's sender loop may have in flight at once.
SENDER_BACKLOG = 512
_backlog = threading.BoundedSemaphore(SENDER_BACKLOG)


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
            if _sender is None:
                # the thread is a daemon: at exit, wait for what it still sends
                atexit.register(flush)
            _sender = loop
        return _sender


def flush(timeout: float = SEND_TIMEOUT_S) -> bool:
    """Wait until every notification this process handed to its sender loop
    (production: channels-redis) has been sent or has failed, for at most
    ``timeout`` seconds in all; True if none is left in flight.

    The sender loop runs on a daemon thread and a caller does not wait for
    Redis, so a short-lived process (a management command, a script) that
    commits a change and exits at once could exit before its notification
    left: the browsers on that room would not hear of the change until the
    next one.  So the process that starts the sender loop registers this with
    :mod:`atexit` (a normal exit waits up to ``timeout`` for the sends in
    flight); a caller may also call it itself.  A process that never sent
    returns True at once."""
    deadline = time.monotonic() + timeout
    taken = 0
    try:
        while taken < SENDER_BACKLOG:
            if not _backlog.acquire(timeout=max(0.0, deadline - time.monotonic())):
                return False
            taken += 1
        return True
    finally:
        for _ in range(taken):
            _backlog.release()


def room_group(room_id: int) -> str:
    return f"room-{room_id}"


def lobby_group(game: str) -> str:
    return f"lobby-{game}"


def message(version: int, committed_at: int | None = None, room: int | None = None) -> dict:
    """The only payload the channel layer carries: the room (which
    :mod:`games.live.fanout`'s one channel per process needs to tell rooms apart),
    its new version and the commit time."""
    if committed_at is None:
        committed_at = int(time.time() * 1000)
    return {"type": "table.changed", "room": room, "version": version, "committed_at": committed_at}


def table_changed(room_id: int, version: int, game: str, lobby: bool = True) -> None:
    """Send ``table.changed`` to the room's group (and the lobby's)."""
    groups = [room_group(room_id)] + ([lobby_group(game)] if lobby else [])
    send(groups, message(version, room=room_id), what=f"room {room_id} version {version}")


@receiver(signals.room_committed, dispatch_uid="games.live.notify.committed")
def _on_room_committed(sender, room_id: int, version: int, lobby: bool = True, **kwargs) -> None:
    """After a room's commit: tell its sockets (and the lobby's, if its list changed)."""
    table_changed(room_id, version, sender, lobby=lobby)


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
            # Handed over, not waited for (the worker's turn threads
            # spent a third of their time waiting for Redis here).  At most
            # SENDER_BACKLOG sends are in flight; past that the caller waits
            # for a slot.  Order does not matter: a socket is only ever sent a
            # newer version than it has (games.live.fanout).
            if not _backlog.acquire(timeout=SEND_TIMEOUT_S):
                raise TimeoutError(f"{SENDER_BACKLOG} notifications still in flight")

            async def _send_released():
                try:
                    await _send()
                except Exception:
                    log.exception("notify %s failed", what or groups)
                finally:
                    _backlog.release()

            asyncio.run_coroutine_threadsafe(_send_released(), _sender_loop())
    except Exception:  # a lost notification must never undo a committed change
        log.exception("notify %s failed", what or groups)
