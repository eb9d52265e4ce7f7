"""Every socket that follows one channel group and pushes a fragment it
renders itself is built on :class:`games.live.group_push.GroupPushConsumer`
(the lobby, the notice badge, the quick-play queue, an event page, an arena): the group
push is written once."""

from __future__ import annotations

import inspect
import re

import pytest

from clubs.arena.live import ArenaConsumer
from clubs.live.consumers import EventConsumer
from games.live.consumers import LobbyConsumer
from games.live.group_push import GroupPushConsumer
from notifications.consumers import NoticeConsumer
from quickplay.consumers import QueueConsumer

PUSHERS = [LobbyConsumer, NoticeConsumer, QueueConsumer, EventConsumer, ArenaConsumer]


@pytest.mark.parametrize("consumer", PUSHERS, ids=lambda c: c.__name__)
def test_group_pushers_share_the_base(consumer):
    assert issubclass(consumer, GroupPushConsumer)
    source = inspect.getsource(consumer)
    # joining and leaving its own group, and sending the render, are the base's
    assert "group_add(self.group" not in source
    assert "group_discard(group" not in source
    assert "def connect" not in source


#: The socket of each page that shows controls, and its fragment's root id.
MORPHED = {
    "lobby": ("/ws/lobby/shengji/", "room-list"),
    "quickplay": ("/ws/quickplay/", "queue-status"),
    "arena": ("/ws/arenas/{arena}/", "arena-live"),
    "event": ("/ws/events/{event}/", "event-live"),
}


def _pages(organiser):
    """An arena and a swiss event of a new club of ``organiser``."""
    from clubs import services as clubs
    from clubs.arena import pool
    from clubs.running import events

    club = clubs.create_club(organiser, "推送牌社", "")
    arena = pool.create_arena(organiser, club, name="推送竞技场", game="shengji", minutes=10)
    event = events.create_event(organiser, club, name="推送比赛", game="baohuang", rounds=1, hands_per_round=1)
    return {"arena": arena.pk, "event": event.pk}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
@pytest.mark.parametrize("page", sorted(MORPHED))
async def test_each_pushed_fragment_says_morph(page, make_user, multipliers):
    """A frame of every socket built on the base whose page shows controls is
    the fragment whose root says ``hx-swap-oob="morph"`` (PUSH_SWAP): a page
    whose socket sent a plain swap would lose a click spanning a push."""
    from channels.db import database_sync_to_async
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from clubs.live.routing import websocket_urlpatterns as club_sockets
    from games.live.group_push import PUSH_SWAP
    from games.live.routing import websocket_urlpatterns as game_sockets
    from quickplay.routing import websocket_urlpatterns as quickplay_sockets

    user = await database_sync_to_async(make_user)("pushed")
    ids = await database_sync_to_async(_pages)(user)
    path, root_id = MORPHED[page]
    comm = WebsocketCommunicator(URLRouter(game_sockets + club_sockets + quickplay_sockets), path.format(**ids))
    comm.scope["user"] = user
    connected, _ = await comm.connect()
    assert connected
    frame = await comm.receive_from(timeout=10)
    await comm.disconnect()
    root = re.search(rf'<div id="{root_id}"[^>]*>', frame)
    assert root, frame[:300]
    assert PUSH_SWAP == "morph" and f'hx-swap-oob="{PUSH_SWAP}"' in root.group(0)
    assert 'hx-ext="morph"' in root.group(0)


def test_the_notice_badge_alone_keeps_a_plain_swap():
    """The badge (a count, nothing to press) says so itself; every other
    socket built on the base pushes with the base's morph."""
    from games.live.group_push import PUSH_SWAP

    assert NoticeConsumer.push_swap == "true"
    for consumer in (LobbyConsumer, QueueConsumer, EventConsumer, ArenaConsumer):
        assert consumer.push_swap == PUSH_SWAP
