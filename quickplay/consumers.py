"""The queue page's websocket ``ws/quickplay/``: pushes the user's own
``#queue-status`` fragment when his queue state changes; any message from the
page (a ping every few seconds) is a sign of life and is answered with the
current fragment.  A client may also queue through it: the JSON messages
``{"join": "<game>", "bots": "10"|"30"|"never"}`` and ``{"leave": true}``
do what the page's forms do (a refusal is answered with the unchanged
status)."""

from __future__ import annotations

import json

from channels.db import database_sync_to_async

from games.live.group_push import UNAUTHORIZED, GroupPushConsumer
from games.live.socket_scope import render_in, scope_csrf_token

from . import notify, services
from .views import _bot_wait as bot_wait
from .views import render_status

__all__ = ["MAX_MESSAGE", "UNAUTHORIZED", "QueueConsumer"]

#: Longest command read (characters); a longer message only counts as a ping.
MAX_MESSAGE = 1000


class QueueConsumer(GroupPushConsumer):
    """The signed-in user's queue status; every message is a sign of life."""

    async def group_for(self) -> str:
        return notify.group(self.user.pk)

    async def joined(self):
        await self.alive()

    async def receive(self, text_data=None, bytes_data=None):
        if getattr(self, "group", None) is None:  # refused at connect
            return
        command = None
        if text_data and text_data.startswith("{") and len(text_data) <= MAX_MESSAGE:
            try:
                command = json.loads(text_data)
            except (ValueError, RecursionError):  # RecursionError: nested too deep
                command = None
        if isinstance(command, dict):
            await database_sync_to_async(self.command)(command)
        await self.alive()

    def command(self, command: dict) -> None:
        """A join or leave sent over the socket (as the page's forms)."""
        try:
            if command.get("join"):
                services.join(self.user, str(command["join"]), bot_wait(command.get("bots")))
            elif command.get("leave"):
                services.leave(self.user)
        except services.QueueError:
            pass

    def render(self, swap: str) -> str:
        """This connection's status fragment: its user's language and CSRF token."""
        return render_in(self.language, render_status, self.user, None, scope_csrf_token(self.scope), swap)

    async def queue_changed(self, event):
        await self.push()

    async def alive(self):
        def work():
            services.ping(self.user)
            return self.fragment()

        await self.send(text_data=await database_sync_to_async(work)())
