"""table chat: players and spectators talk over the table's
websocket; text is escaped; length and rate limits; quick phrases in each
reader's language; mute per user; admins can hide and delete."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.services import chat
from games.models import ChatMessage
from games.live.routing import websocket_urlpatterns

# close_thread_connections: tests/conftest.py
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_thread_connections")]
APP = URLRouter(websocket_urlpatterns)


async def connect(room, user, accept="zh-CN"):
    comm = WebsocketCommunicator(APP, f"/ws/rooms/{room.pk}/", headers=[(b"accept-language", accept.encode())])
    comm.scope["user"] = user
    comm.scope["cookies"] = {}
    assert (await comm.connect())[0]
    assert 'id="table"' in await comm.receive_from(timeout=10)
    return comm


async def next_chat(comm):
    """The next chat fragment (table pushes in between are skipped)."""
    for _i in range(10):
        html = await comm.receive_from(timeout=10)
        if 'id="chat-log"' in html:
            return html
    raise AssertionError("no chat fragment")


async def test_player_and_spectator_chat_escaped(bot_room, alice, bob):
    player = await connect(bot_room, alice)
    spectator = await connect(bot_room, bob, accept="en")
    await spectator.send_to(text_data=json.dumps({"chat": '<img src=x onerror="alert(1)">hi'}))
    own_error = await spectator.receive_from(timeout=10)  # the sender's error line is cleared
    assert 'id="chat-error"' in own_error
    for comm in (player, spectator):
        html = await next_chat(comm)
        assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;hi" in html
        assert "<img" not in html
    await player.send_to(text_data=json.dumps({"quick": "nice"}))
    assert "打得好！" in await next_chat(player)
    en_line = await next_chat(spectator)
    assert "Well played!" in en_line and "打得好" not in en_line
    await player.disconnect()
    await spectator.disconnect()


async def test_mute_hides_a_user_for_the_muter_only(bot_room, alice, bob):
    a = await connect(bot_room, alice)
    b = await connect(bot_room, bob)
    await a.send_to(text_data=json.dumps({"mute": str(bob.pk)}))
    await b.send_to(text_data=json.dumps({"chat": "hello from bob"}))
    assert "hello from bob" in await next_chat(b)
    await a.send_to(text_data=json.dumps({"chat": "alice here"}))
    html = await next_chat(a)
    assert "alice here" in html and "hello from bob" not in html  # bob's line never reached alice
    await a.disconnect()
    await b.disconnect()


def test_limits(bot_room, alice):
    with pytest.raises(chat.ChatRefused):
        chat.post(bot_room.pk, alice, "x" * (chat.MAX_LENGTH + 1))
    with pytest.raises(chat.ChatRefused):
        chat.post(bot_room.pk, alice, "   ")
    with pytest.raises(chat.ChatRefused):
        chat.post(bot_room.pk, alice, quick="no-such-phrase")
    for i in range(chat.BURST):
        chat.post(bot_room.pk, alice, f"line {i}")
    with pytest.raises(chat.ChatRefused):
        chat.post(bot_room.pk, alice, "one too many")
    assert ChatMessage.objects.filter(room=bot_room).count() == chat.BURST


async def test_history_on_connect(bot_room, alice, bob):
    await database_sync_to_async(chat.post)(bot_room.pk, alice, "earlier line")
    comm = WebsocketCommunicator(APP, f"/ws/rooms/{bot_room.pk}/")
    comm.scope["user"] = bob
    assert (await comm.connect())[0]
    assert 'id="table"' in await comm.receive_from(timeout=10)
    history = await comm.receive_from(timeout=10)
    assert 'hx-swap-oob="innerHTML"' in history and "earlier line" in history
    await comm.disconnect()


def test_admin_sees_hides_and_deletes(bot_room, alice, admin_client):
    msg = chat.post(bot_room.pk, alice, "rude words")
    listing = admin_client.get("/admin/games/chatmessage/")
    assert listing.status_code == 200 and "rude words" in listing.content.decode()
    admin_client.post("/admin/games/chatmessage/", {"action": "hide_messages", "_selected_action": [msg.pk]})
    msg.refresh_from_db()
    assert msg.hidden and msg not in chat.history(bot_room.pk)
    admin_client.post(f"/admin/games/chatmessage/{msg.pk}/delete/", {"post": "yes"})
    assert not ChatMessage.objects.filter(pk=msg.pk).exists()
