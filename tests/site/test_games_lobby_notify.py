"""The lobby group is told only when a room's line in the room list changes
(seats taken, name, multiplier, status: ``_room_list.html``); a plain play,
托管 or a ready click that deals nothing notifies the room's group alone."""

from __future__ import annotations

import pytest

from games.live import notify
from games import services
from games.models import Room
from tests.conftest import make_due

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """Every ``notify.table_changed`` call as ``(room_id, version, lobby)``."""
    calls = []
    monkeypatch.setattr(
        notify, "table_changed",
        lambda room_id, version, game, lobby=True: calls.append((room_id, version, lobby)),
    )
    return calls


def test_plain_play_does_not_notify_the_lobby(bot_room, alice, sent, django_capture_on_commit_callbacks):
    from games.runtime.tasks import play_turn

    make_due(bot_room)
    bot_room.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        assert play_turn(bot_room.pk, bot_room.version) in ("bot", "timeout")
    assert sent == [(bot_room.pk, bot_room.version + 1, False)]


def test_autoplay_does_not_notify_the_lobby(bot_room, alice, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.set_autoplay(bot_room, alice, True)
    assert [lobby for *_x, lobby in sent] == [False]


def test_seat_change_notifies_the_lobby(bh_room, bob, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.take_seat(bh_room, bob, 2)
    assert [lobby for *_x, lobby in sent] == [True]
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.leave_seat(bh_room, bob)
    assert [lobby for *_x, lobby in sent] == [True]


def test_ready_notifies_the_lobby_only_when_it_deals(bh_room, alice, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.fill_bots(bh_room, alice, "heuristic")  # seats taken: listed
    assert [lobby for *_x, lobby in sent] == [True]
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.set_ready(bh_room, alice, False)  # still waiting: nothing listed changed
    assert [lobby for *_x, lobby in sent] == [False]
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.set_ready(bh_room, alice, True)  # deals: status waiting -> playing
    assert [lobby for *_x, lobby in sent] == [True]
    assert Room.objects.get(pk=bh_room.pk).status == Room.Status.PLAYING


def test_closing_notifies_the_lobby(bot_room, alice, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.close_room(bot_room, alice)
    assert [lobby for *_x, lobby in sent] == [True]
