"""Every socket that follows one channel group and pushes a fragment it
renders itself is built on :class:`games.live.group_push.GroupPushConsumer`
(the lobby, the notice badge, the quick-play queue, an event page): the group
push is written once."""

from __future__ import annotations

import inspect

import pytest

from clubs.live.consumers import EventConsumer
from games.live.consumers import LobbyConsumer
from games.live.group_push import GroupPushConsumer
from notifications.consumers import NoticeConsumer
from quickplay.consumers import QueueConsumer

PUSHERS = [LobbyConsumer, NoticeConsumer, QueueConsumer, EventConsumer]


@pytest.mark.parametrize("consumer", PUSHERS, ids=lambda c: c.__name__)
def test_group_pushers_share_the_base(consumer):
    assert issubclass(consumer, GroupPushConsumer)
    source = inspect.getsource(consumer)
    # joining and leaving its own group, and sending the render, are the base's
    assert "group_add(self.group" not in source
    assert "group_discard(group" not in source
    assert "def connect" not in source
