"""Websockets: one table (``ws/rooms/<id>/``) and one game's lobby (``ws/lobby/<game>/``).

Anonymous users are refused (accepted, then closed with code 4401 so the
browser can tell why) unless an app lets visitors watch the room (a club's
public event tables, :mod:`games.embargo`); a spectator an app's watch rule
refuses is closed with 4403, at connect or instead of a later push (decided
once per room version for all the room's guarded sockets of the process, by
the hub, :mod:`games.live.fanout`); the origin is checked by ``AllowedHostsOriginValidator``
in ``config/asgi.py``.  The channel layer only says ``table.changed`` with a
version and the commit time; each connection renders *its own* seat's view
(:func:`games.render.tables.render_table`) and sends the HTML, which the htmx ws
extension swaps in by element id.  A connection never sends an older version
than it already sent.

Only what changed: a connection remembers the regions it sent
last (:mod:`games.render.regions`, a hash per region, reset on connect) and
sends each unchanged region as a stub the page keeps; the whole fragment on
the first send, when no region is unchanged, and when the page asks for it
(``{"full": 1}``: its copy of a stubbed region differs, e.g. after a POST
answer).

A table socket does not join the room's channel group itself: the process's
:class:`games.live.fanout.Hub` is the group's one member here and hands each
commit to the room's local sockets, rendering all of them in one worker
thread job (``thread_sensitive=False``, so renders do not queue behind the
reads) from one database read per room version (:mod:`games.live.snapshots`); each
socket still gets its own seat's view.
"""

from __future__ import annotations

import asyncio
import json

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games.services import chat
from games.render import chat as chat_view
from games.live import fanout, snapshots as live, notify
from games import embargo, registry
from games.models import Room
from games.live.group_push import FORBIDDEN, NOT_FOUND, UNAUTHORIZED, GroupPushConsumer
from games.live.socket_scope import render_in, scope_language, scope_user, socket_survives_outage
from games.render import regions
from games.render.tables import render_room_list

__all__ = ["FORBIDDEN", "NOT_FOUND", "UNAUTHORIZED", "LobbyConsumer", "TableConsumer", "watch_verdict"]


def watch_verdict(room_id: int, user) -> tuple[bool, bool]:
    """``(allowed, guarded)`` for ``user`` opening (or keeping) a table
    socket of ``room_id`` as a spectator: seated users are always allowed;
    otherwise the apps' watch rules (:mod:`games.embargo`) decide, and an
    anonymous visitor is allowed only when an app says visitors may watch
    this room.  ``guarded``: an app has a say about this room, so each push
    is decided again, from the version pushed, for all the room's guarded
    sockets at once (a table moves on to boards the watcher has not played,
    :func:`games.live.snapshots.watch_verdicts`)."""
    room = Room.objects.filter(pk=room_id).first()
    if room is None:
        return False, False
    anonymous = embargo.anonymous_watch(room)
    guarded = anonymous is not None
    if user is not None and user.is_authenticated and room.seats.filter(user=user).exists():
        return True, guarded
    if user is None or not user.is_authenticated:
        if not anonymous:
            return False, guarded
    return embargo.watch_reason(room, user) is None, guarded


class TableConsumer(AsyncWebsocketConsumer):
    """Pushes the ``#table`` fragment for the connected user's seat: once on
    connect, then whenever the process's :class:`games.live.fanout.Hub` delivers
    a newer version of the room."""

    async def connect(self):
        notify.register_loop(asyncio.get_running_loop())
        self.user = scope_user(self.scope)
        await self.accept()
        self.language = scope_language(self.scope)
        self.room_id = int(self.scope["url_route"]["kwargs"]["room_id"])
        self.group = notify.room_group(self.room_id)
        self.sent_version = -1
        self.guarded = False
        self.refused = False
        #: what this socket's page has: hash per region id (None: nothing yet)
        self.sent_parts = None
        #: the version of the last resend asked by the page (one per version)
        self.resent_version = -1
        if not await database_sync_to_async(Room.objects.filter(pk=self.room_id).exists)():
            await self.close(code=NOT_FOUND)
            return
        signed_in = self.user is not None and self.user.is_authenticated
        allowed, self.guarded = await database_sync_to_async(watch_verdict)(self.room_id, self.user)
        if not allowed:
            await self.close(code=FORBIDDEN if signed_in else UNAUTHORIZED)
            return
        self.hub = fanout.hub()
        await self.hub.join(self.room_id, self)
        if not signed_in:  # a visitor watches; no chat
            await self.push(None, None)
            return
        # chat state first: once the table is sent, connect has nothing left to await
        self.muted = await database_sync_to_async(chat.muted_ids)(self.user)
        lines = await database_sync_to_async(chat.history)(self.room_id)
        await self.push(None, None)
        if lines:  # the page's chat log starts empty: nothing to send for a quiet table
            await self.send_chat(lines, replace=True)

    async def disconnect(self, code):
        hub = getattr(self, "hub", None)
        if hub is not None:
            await hub.leave(self.room_id, self)

    @socket_survives_outage
    async def receive(self, text_data=None, bytes_data=None):
        """Only chat comes over the socket (moves are POSTed): ``{"chat":
        text}``, ``{"quick": key}``, ``{"mute": user id}``, ``{"unmute": …}``
        (:mod:`games.services.chat`), and ``{"full": …}``: the page asks for the
        whole table (a stub it could not apply, :mod:`games.render.regions`;
        honoured once per version).  Anything else, or anything malformed, is ignored."""
        if not hasattr(self, "hub") or not text_data or len(text_data) > 4 * chat.MAX_LENGTH + 2000:
            return
        try:
            data = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: nested too deep
            return
        if not isinstance(data, dict):
            return
        if "full" in data:
            if self.resent_version < self.sent_version:
                self.resent_version = self.sent_version
                self.sent_parts = None
                await self.push(self.sent_version, None, again=True)
            return
        if not hasattr(self, "muted"):  # a visitor: no chat
            return
        for verb in ("mute", "unmute"):
            if verb in data:
                other = chat.mute_target(data[verb])
                if other is not None and await database_sync_to_async(chat.set_mute)(
                    self.user, other, verb == "mute"
                ):
                    (self.muted.add if verb == "mute" else self.muted.discard)(other)
                return
        text, quick = data.get("chat"), data.get("quick")
        if not isinstance(text, str) and not isinstance(quick, str):
            return
        try:
            msg = await database_sync_to_async(chat.post)(
                self.room_id, self.user, text if isinstance(text, str) else None,
                quick if isinstance(quick, str) else None,
            )
        except chat.ChatRefused as exc:
            await self.send(text_data=chat_view.render_error(exc.message))
            return
        await self.send(text_data=chat_view.render_error(""))
        await self.channel_layer.group_send(
            self.group, {"type": "chat.posted", "room": self.room_id, "id": msg.pk}
        )

    @socket_survives_outage
    async def chat_posted(self, event):
        """A new line at this table: read it and show it (unless muted).
        Called by the hub; a socket still connecting gets it with the history."""
        if not hasattr(self, "muted"):
            return
        msg = await database_sync_to_async(chat.line)(int(event.get("id", 0)), self.user)
        if msg is not None and msg.room_id == self.room_id:
            await self.send_chat([msg])

    async def send_chat(self, messages, replace: bool = False):
        html = await sync_to_async(render_in, thread_sensitive=False)(
            self.language, chat_view.render_lines, messages, self.user, self.muted, replace
        )
        if html:
            await self.send(text_data=html)

    async def deliver(self, version: int, html: str, again: bool = False) -> None:
        """Send ``html``, the fragment of ``version``, unless a newer one was
        sent already (``again``: or the same one) or the socket was refused
        (called by the hub, and by :meth:`push`; a guarded socket's verdict for
        ``version`` was decided before its render,
        :func:`games.live.snapshots.watch_verdicts`).  A
        :class:`~games.render.regions.TableHtml` goes out as only its regions
        that changed since this socket's last send
        (:func:`games.render.regions.partial`)."""
        if self.refused or version < self.sent_version or (version == self.sent_version and not again):
            return
        self.sent_version = version
        if getattr(html, "parts", None) is not None:
            html, self.sent_parts, _kept = regions.partial(html, self.sent_parts)
        try:
            await self.send(text_data=html)
        except Exception:  # closed meanwhile: disconnect() takes it off the hub
            pass

    async def refuse(self) -> None:
        """An app's watch rule no longer lets this spectator see the table:
        close with 4403, and send nothing more (called by the hub, and
        by :meth:`push`)."""
        if self.refused:
            return
        self.refused = True
        await self.close(code=FORBIDDEN)

    async def push(self, version, committed_at, again: bool = False):
        """Render and send this socket's own fragment (on connect; ``again``:
        the version already sent, once more, when the page asks for it); a
        guarded socket first asks whether it may see that snapshot's version."""
        snap = await live.snapshot(self.room_id, version)
        if snap is None or snap.version < self.sent_version or (snap.version == self.sent_version and not again):
            return
        if self.guarded:
            (allowed,) = await live.watch_verdicts(snap, [self.user])
            if not allowed:
                await self.refuse()
                return
        html = await sync_to_async(render_in, thread_sensitive=False)(
            self.language, live.render_seat, snap, self.user, version, committed_at
        )
        await self.deliver(snap.version, html, again)  # unless a newer push went out meanwhile


class LobbyConsumer(GroupPushConsumer):
    """Pushes the ``#room-list`` fragment of one game's lobby (signed-in users
    only; an unknown game is closed with 4404)."""

    async def group_for(self) -> str | None:
        self.game = self.scope["url_route"]["kwargs"]["game"]
        if self.game not in registry.codes():
            await self.close(code=NOT_FOUND)
            return None
        return notify.lobby_group(self.game)

    async def table_changed(self, event):
        await self.push()

    def render(self, swap: str) -> str:
        return render_in(self.language, render_room_list, self.game, None, swap)
