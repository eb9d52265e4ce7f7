"""Websockets: one table (``ws/rooms/<id>/``) and one game's lobby (``ws/lobby/<game>/``).

Anonymous users are refused (accepted, then closed with code 4401 so the
browser can tell why); the origin is checked by ``AllowedHostsOriginValidator``
in ``config/asgi.py``.  The channel layer only says ``table.changed`` with a
version and the commit time; each connection renders *its own* seat's view
(:func:`games.tables.render_table`) and sends the HTML, which the htmx ws
extension swaps in by element id.  A connection never sends an older version
than it already sent.

The database reads behind a fragment are shared by the sockets of one room in
one process (:mod:`games.live`: one read per room version); the per-seat
render makes no query and runs in a worker thread of its own
(``thread_sensitive=False``), so renders do not queue behind the reads.
"""

from __future__ import annotations

import asyncio

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from . import live, notify, scheduling
from .engine import GAMES
from .models import Room
from .tables import render_room_list

UNAUTHORIZED = 4401
NOT_FOUND = 4404


class TableConsumer(AsyncWebsocketConsumer):
    """Pushes the ``#table`` fragment for the connected user's seat."""

    async def connect(self):
        notify.register_loop(asyncio.get_running_loop())
        scheduling.ensure_sweeper()
        self.user = self.scope.get("user")
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=UNAUTHORIZED)
            return
        self.room_id = int(self.scope["url_route"]["kwargs"]["room_id"])
        self.group = notify.room_group(self.room_id)
        self.sent_version = -1
        if not await database_sync_to_async(Room.objects.filter(pk=self.room_id).exists)():
            await self.close(code=NOT_FOUND)
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.push(None, None)

    async def disconnect(self, code):
        group = getattr(self, "group", None)
        if group:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """Clients do not talk over the socket (actions are POSTed); ignore."""

    async def table_changed(self, event):
        if event.get("version", 0) <= self.sent_version:
            return
        await self.push(event.get("version"), event.get("committed_at"))

    async def push(self, version, committed_at):
        snap = await live.snapshot(self.room_id, version)
        if snap is None or snap.version <= self.sent_version:
            return
        html = await sync_to_async(live.render_seat, thread_sensitive=False)(
            snap, self.user, version, committed_at
        )
        if snap.version <= self.sent_version:  # a newer push went out meanwhile
            return
        self.sent_version = snap.version
        await self.send(text_data=html)


class LobbyConsumer(AsyncWebsocketConsumer):
    """Pushes the ``#room-list`` fragment of one game's lobby."""

    async def connect(self):
        notify.register_loop(asyncio.get_running_loop())
        scheduling.ensure_sweeper()
        user = self.scope.get("user")
        await self.accept()
        if user is None or not user.is_authenticated:
            await self.close(code=UNAUTHORIZED)
            return
        self.game = self.scope["url_route"]["kwargs"]["game"]
        if self.game not in GAMES:
            await self.close(code=NOT_FOUND)
            return
        self.group = notify.lobby_group(self.game)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.push()

    async def disconnect(self, code):
        group = getattr(self, "group", None)
        if group:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """Nothing to receive."""

    async def table_changed(self, event):
        await self.push()

    async def push(self):
        html = await database_sync_to_async(render_room_list)(self.game)
        await self.send(text_data=html)
