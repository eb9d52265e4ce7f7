"""Websocket of an event page: ``ws/events/<id>/`` pushes the ``#event-live``
fragment (pairings, tables, results, standings) after every ``event.changed``;
each connection renders it for its own user (the "go to your table" link).

While a round runs, the socket also follows its tables (the organiser's
live page): it joins the channel groups of the running tables' rooms, where
only ``table.changed`` (a version) and ``chat.posted`` (an id) travel, and
pushes the fragment again at most every :data:`TABLE_PUSH_INTERVAL_S`
seconds while any of them moves, so the points of the hand in play follow
the tricks as they are played.
"""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async

from games.live import notify as game_notify
from games.live.group_push import NOT_FOUND, GroupPushConsumer
from games.live.socket_scope import render_in, scope_csrf_token

from ..models import Event, EventTable, Round
from ..pages.events import render_live
from ..running import notify

#: Seconds between two pushes caused by moves at the event's tables.
TABLE_PUSH_INTERVAL_S = 1.0


def running_rooms(event_id: int) -> set[int]:
    """The room ids of the event's tables in a running round, not finished."""
    return set(
        EventTable.objects.filter(
            round__event_id=event_id, round__status=Round.Status.RUNNING, finished__isnull=True,
            room__isnull=False,
        ).values_list("room_id", flat=True)
    )


class EventConsumer(GroupPushConsumer):
    """An event page's live fragment, for anyone who may open the page (the
    page is public); an unknown event is closed with 4404."""

    login_required = False

    async def group_for(self) -> str | None:
        self.event_id = self.scope["url_route"]["kwargs"]["event_id"]
        self.rooms: set[int] = set()
        self.timer = None
        if not await database_sync_to_async(Event.objects.filter(pk=self.event_id).exists)():
            await self.close(code=NOT_FOUND)
            return None
        return notify.event_group(self.event_id)

    async def joined(self):
        await self.follow_tables()
        await self.push()

    async def disconnect(self, code):
        await super().disconnect(code)
        for room_id in getattr(self, "rooms", ()):
            await self.channel_layer.group_discard(game_notify.room_group(room_id), self.channel_name)
        timer = getattr(self, "timer", None)
        if timer is not None:
            timer.cancel()

    async def follow_tables(self):
        """Join the groups of the rooms of running tables, leave the others."""
        rooms = await database_sync_to_async(running_rooms)(self.event_id)
        for room_id in rooms - self.rooms:
            await self.channel_layer.group_add(game_notify.room_group(room_id), self.channel_name)
        for room_id in self.rooms - rooms:
            await self.channel_layer.group_discard(game_notify.room_group(room_id), self.channel_name)
        self.rooms = rooms

    async def event_changed(self, message):
        await self.follow_tables()
        await self.push()

    async def table_changed(self, message):
        """A table of the event moved: push again soon (coalesced)."""
        if self.timer is None:
            self.timer = asyncio.get_running_loop().create_task(self.push_later())

    async def chat_posted(self, message):
        """Table chat is not the event page's."""

    async def push_later(self):
        try:
            await asyncio.sleep(TABLE_PUSH_INTERVAL_S)
        finally:
            self.timer = None
        await self.push()

    def render(self, swap: str) -> str:
        return render_in(self.language, render_live, self.event_id, self.user,
                         scope_csrf_token(self.scope), swap)
