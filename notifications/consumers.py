"""``ws/notices/``: pushes the signed-in user's unread count (the header's
``#notice-count``, an htmx out-of-band swap) after every ``notices.changed``
on the group ``notices-<user id>``; the message carries no text."""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from games.live import notify as game_notify

from .services import unread_count, user_group


class NoticeConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            # accepted, then closed with 4403: a refused handshake is an HTTP
            # 403 that the browser logs as a console error, and badge.js
            # never sees the 4403 that stops its reconnecting (#24's audit)
            await self.accept()
            await self.close(code=4403)
            return
        game_notify.register_loop(asyncio.get_running_loop())
        self.group = user_group(user.pk)
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.push()

    async def disconnect(self, code):
        group = getattr(self, "group", None)
        if group:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """Nothing to receive."""

    async def notices_changed(self, message):
        await self.push()

    async def push(self):
        count = await database_sync_to_async(unread_count)(self.scope["user"])
        await self.send(text_data=render_to_string("notifications/_count.html", {"count": count, "oob": True}))
