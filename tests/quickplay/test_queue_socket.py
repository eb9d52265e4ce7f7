"""The queue page's websocket (``ws/quickplay/``): refuses anonymous users,
sends the user's own status, is a sign of life, and tells the page its table
when a pass seats the player."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from quickplay import services
from quickplay.routing import websocket_urlpatterns

# close_thread_connections: tests/conftest.py
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_thread_connections")]

APP = URLRouter(websocket_urlpatterns)


def communicator(user):
    comm = WebsocketCommunicator(APP, "/ws/quickplay/")
    comm.scope["user"] = user
    return comm


async def test_anonymous_is_refused():
    comm = communicator(AnonymousUser())
    await comm.connect()
    assert (await comm.receive_output(timeout=3))["type"] == "websocket.close"
    # Finish the application task: left running, its channel-layer receive is a
    # task the event loop cannot cancel at teardown with channels-redis.
    await comm.disconnect()


async def test_status_then_the_table_when_matched(django_user_model, multipliers):
    make = database_sync_to_async(lambda n: django_user_model.objects.create(username=n))
    a = await make("sa")
    await database_sync_to_async(services.join)(a, "baohuang", 10)
    comm = communicator(a)
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_from(timeout=5)
    assert 'data-state="waiting"' in first
    await comm.send_to(text_data="ping")
    assert 'data-state="waiting"' in await comm.receive_from(timeout=5)

    def seat():
        from datetime import timedelta

        from django.utils import timezone

        return services.run_pass("baohuang", now=timezone.now() + timedelta(seconds=11))

    (room,) = await database_sync_to_async(seat)()
    html = await comm.receive_from(timeout=5)
    assert f'data-room-url="/rooms/{room.pk}/"' in html
    await comm.disconnect()


async def test_pushed_status_is_in_the_users_language_with_its_csrf_token(django_user_model, multipliers):
    """Like every pushed fragment: rendered in the connection's language,
    and its 退出队列 form carries the browser's CSRF token."""
    user = await database_sync_to_async(lambda: django_user_model.objects.create(username="en-q"))()
    await database_sync_to_async(services.join)(user, "baohuang", 10)
    token = "Q" * 32
    comm = WebsocketCommunicator(APP, "/ws/quickplay/", headers=[(b"accept-language", b"en-US,en;q=0.9")])
    comm.scope["user"] = user
    comm.scope["cookies"] = {"csrftoken": token}
    assert (await comm.connect())[0]
    html = await comm.receive_from(timeout=5)
    assert "Leave the queue" in html and "退出队列" not in html
    assert f'name="csrfmiddlewaretoken" value="{token}"' in html
    await comm.disconnect()
