"""The event page's websocket ``ws/events/<id>/`` sends the ``#event-live``
fragment on connect and again after every change of the event (here: a
registration), rendered for the connection's own user."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from clubs.live.routing import websocket_urlpatterns

# close_thread_connections: tests/conftest.py
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_thread_connections")]

APP = URLRouter(websocket_urlpatterns)


async def test_event_socket_pushes_after_a_change(club_setup, multipliers):
    from clubs.running import events

    club, olga, mike, *_ = club_setup
    event = await database_sync_to_async(events.create_event)(
        olga, club, name="推送", game="baohuang", rounds=1, hands_per_round=1)
    comm = WebsocketCommunicator(APP, f"/ws/events/{event.pk}/")
    comm.scope["user"] = mike
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_from(timeout=10)
    assert 'id="event-live"' in first and "mike" not in first
    await database_sync_to_async(events.register)(mike, event)
    await database_sync_to_async(events.pair_round)(olga, event)
    html = await comm.receive_from(timeout=10)
    while "第 1 轮" not in html:  # the registration's push may come first
        html = await comm.receive_from(timeout=10)
    assert "mike" in html and 'id="round-1"' in html
    await comm.disconnect()


async def test_unknown_event_is_closed(db):
    comm = WebsocketCommunicator(APP, "/ws/events/999999/")
    connected, _ = await comm.connect()
    assert connected
    out = await comm.receive_output(timeout=5)
    assert out["type"] == "websocket.close" and out.get("code") == 4404


async def test_pushed_forms_carry_the_viewers_csrf_token(club_setup, multipliers):
    """The organiser's start/pause/swap forms arrive by push; each carries this
    browser's CSRF cookie, and a forged cookie value is not echoed."""
    from clubs.running import events

    club, olga, mike, *_ = club_setup
    event = await database_sync_to_async(events.create_event)(
        olga, club, name="令牌", game="baohuang", rounds=1, hands_per_round=1)
    await database_sync_to_async(events.add_bot_entries)(olga, event, 5)
    await database_sync_to_async(events.pair_round)(olga, event)
    token = "A" * 16 + "b" * 16
    for cookie, expected in ((token, token), ('x" onclick="evil', None)):
        comm = WebsocketCommunicator(APP, f"/ws/events/{event.pk}/")
        comm.scope["user"] = olga
        comm.scope["cookies"] = {"csrftoken": cookie}
        connected, _ = await comm.connect()
        assert connected
        html = await comm.receive_from(timeout=10)
        assert 'id="start-round"' in html
        values = re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', html)
        if expected:
            assert len(values) >= 3 and set(values) == {expected}  # swap, re-pair, start
        else:
            assert values == [] and "evil" not in html
        await comm.disconnect()


async def test_event_pushes_are_in_the_viewers_language(club_setup, multipliers):
    """An English viewer's pushed #event-live fragment is in English (every
    pushed fragment in the connection's language), a default viewer's in zh-Hans."""
    from clubs.running import events

    club, olga, mike, *_ = club_setup
    event = await database_sync_to_async(events.create_event)(
        olga, club, name="语言", game="baohuang", rounds=1, hands_per_round=1)
    await database_sync_to_async(events.add_bot_entries)(olga, event, 5)
    await database_sync_to_async(events.pair_round)(olga, event)
    for accept, expected, absent in ((b"en-US,en;q=0.9", "Round 1", "第 1 轮"), (b"", "第 1 轮", "Round 1")):
        headers = [(b"accept-language", accept)] if accept else []
        comm = WebsocketCommunicator(APP, f"/ws/events/{event.pk}/", headers=headers)
        comm.scope["user"] = mike
        assert (await comm.connect())[0]
        html = await comm.receive_from(timeout=10)
        assert expected in html and absent not in html
        await comm.disconnect()
