"""Websocket of an event page: ``ws/events/<id>/`` pushes the ``#event-live``
fragment (pairings, tables, results, standings) after every ``event.changed``;
each connection renders it for its own user (the "go to your table" link)."""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games.live import notify as game_notify
from games.live.socket_scope import render_in, scope_csrf_token, scope_language

from . import notify
from .models import Event


class EventConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        game_notify.register_loop(asyncio.get_running_loop())
        self.event_id = self.scope["url_route"]["kwargs"]["event_id"]
        self.language = scope_language(self.scope)
        await self.accept()
        if not await database_sync_to_async(Event.objects.filter(pk=self.event_id).exists)():
            await self.close(code=4404)
            return
        self.group = notify.event_group(self.event_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.push()

    async def disconnect(self, code):
        group = getattr(self, "group", None)
        if group:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """Nothing to receive."""

    async def event_changed(self, message):
        await self.push()

    async def push(self):
        from .event_views import render_live

        html = await database_sync_to_async(render_in)(
            self.language, render_live, self.event_id, self.scope.get("user"), scope_csrf_token(self.scope)
        )
        await self.send(text_data=html)
