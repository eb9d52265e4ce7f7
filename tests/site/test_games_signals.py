"""``games.signals.hand_completed``: sent once per completed hand, after the
commit, with the stored summary; a failing receiver never undoes the hand."""

from __future__ import annotations

import pytest

from games import services
from games.models import Hand
from games.signals import hand_completed

pytestmark = pytest.mark.django_db


def test_sent_once_after_commit_with_the_summary(bot_room, driver, django_capture_on_commit_callbacks):
    received = []

    def receiver(sender, **kwargs):
        received.append((sender, kwargs))

    def broken(sender, **kwargs):
        raise RuntimeError("a listener bug")

    hand_completed.connect(receiver)
    hand_completed.connect(broken)
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            driver(bot_room, lambda r: services.current_hand(r).complete)
        assert received == []  # nothing before the commit
        for callback in callbacks:
            callback()
    finally:
        hand_completed.disconnect(receiver)
        hand_completed.disconnect(broken)
    hand = Hand.objects.get(match__room=bot_room, number=1)
    assert len(received) == 1
    sender, kwargs = received[0]
    assert sender == "baohuang"
    assert kwargs["room_id"] == bot_room.pk and kwargs["hand_id"] == hand.pk
    assert kwargs["summary"] == hand.summary and kwargs["match_id"] == hand.match_id
    assert [p["user"] for p in kwargs["players"]] == [p["user"] for p in hand.players]
    assert kwargs["match_finished"] is False
    assert hand.complete  # the broken receiver changed nothing
