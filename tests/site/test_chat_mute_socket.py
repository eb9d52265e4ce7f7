"""Mute over the table socket as a browser reaches it: through the site's own
ASGI application (origin check, the session cookie, channels' auth middleware),
so the consumer sees the lazy user object the middleware puts in the scope.

The November audit found every ``{"mute": id}`` closing the socket with 1011:
``set_mute`` asked ``type(user).objects`` of channels' ``UserLazyObject``.
Tests that put a plain ``User`` in the scope never saw it."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games.models import ChatMute
from accounts.validators import MAX_ID as MAX_USER_ID

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_thread_connections")]


def _session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


async def _connect(room, user):
    from config.asgi import application

    cookie = await database_sync_to_async(_session_cookie)(user)
    comm = WebsocketCommunicator(
        application,
        f"/ws/rooms/{room.pk}/",
        headers=[
            (b"origin", b"http://testserver"),
            (b"host", b"testserver"),
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
        ],
    )
    connected, _ = await comm.connect()
    assert connected
    assert 'id="table"' in await comm.receive_from(timeout=10)
    return comm


_pings = iter(range(1, 10**6))


async def _still_open(comm) -> bool:
    """The socket carries a new chat line back to its sender: it is open, and
    every message sent before the line was handled (a consumer handles its
    messages in order).  Earlier fragments still queued are skipped."""
    text = f"still here? {next(_pings)}"
    await comm.send_to(text_data=json.dumps({"chat": text}))
    for _i in range(20):
        out = await comm.receive_output(timeout=10)
        if out["type"] == "websocket.close":
            return False
        if text in out.get("text", ""):
            return True
    return False


async def test_mute_of_a_real_user_is_stored_and_the_socket_stays_open(bot_room, alice, bob):
    comm = await _connect(bot_room, alice)
    await comm.send_to(text_data=json.dumps({"mute": bob.pk}))
    assert await _still_open(comm)
    stored = await database_sync_to_async(
        lambda: list(ChatMute.objects.filter(user=alice).values_list("muted_id", flat=True))
    )()
    assert stored == [bob.pk]
    await comm.send_to(text_data=json.dumps({"unmute": str(bob.pk)}))
    assert await _still_open(comm)
    assert not await database_sync_to_async(ChatMute.objects.filter(user=alice).exists)()
    await comm.disconnect()


@pytest.mark.parametrize("target", [987654321, MAX_USER_ID, "12345678901234567890", -1, "x"])
async def test_mute_of_an_unknown_id_changes_nothing_and_keeps_the_socket(bot_room, alice, target):
    comm = await _connect(bot_room, alice)
    await comm.send_to(text_data=json.dumps({"mute": target}))
    assert await _still_open(comm)
    assert not await database_sync_to_async(ChatMute.objects.exists)()
    await comm.disconnect()
