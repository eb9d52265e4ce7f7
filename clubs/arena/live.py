"""Websocket of an arena page: ``ws/arenas/<id>/`` pushes the ``#arena-live``
fragment after every ``event.changed`` of the arena's event (a join, a new
table, a scored hand, the end); the channel layer carries only that type,
each connection renders the fragment for its own user (their buttons, their
table), and the page morphs it in (:data:`games.live.group_push.PUSH_SWAP`)."""

from __future__ import annotations

from channels.db import database_sync_to_async

from games.live.group_push import NOT_FOUND, GroupPushConsumer
from games.live.socket_scope import render_in, scope_csrf_token

from ..models import Event
from ..running import notify
from .pages import render_live


class ArenaConsumer(GroupPushConsumer):
    """An arena page's live fragment, for anyone (the page is public); an
    unknown arena is closed with 4404."""

    login_required = False

    async def group_for(self) -> str | None:
        self.event_id = self.scope["url_route"]["kwargs"]["event_id"]
        exists = Event.objects.filter(pk=self.event_id, format=Event.Format.ARENA).exists
        if not await database_sync_to_async(exists)():
            await self.close(code=NOT_FOUND)
            return None
        return notify.event_group(self.event_id)

    async def event_changed(self, message):
        await self.push()

    def render(self, swap: str) -> str:
        return render_in(self.language, render_live, self.event_id, self.user,
                         scope_csrf_token(self.scope), swap)
