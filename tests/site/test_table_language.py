"""defect 1: every websocket connection renders in its user's
language (the language chosen with ``set_language``, i.e. the
``django_language`` cookie, else the browser's Accept-Language), for the
table and for the lobby."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter

from games import services
from games.live.socket_scope import scope_language
from games.live.routing import websocket_urlpatterns
from tests.table_pages import PagedCommunicator

# close_thread_connections: tests/conftest.py
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_thread_connections")]
APP = URLRouter(websocket_urlpatterns)


def communicator(path, user, accept="", cookie=""):
    headers = []
    if accept:
        headers.append((b"accept-language", accept.encode()))
    comm = PagedCommunicator(APP, path, headers=headers)
    comm.scope["user"] = user
    comm.scope["cookies"] = {"django_language": cookie} if cookie else {}
    return comm


@pytest.mark.parametrize(
    "accept, cookie, expected",
    [
        ("en-US,en;q=0.9", "", "en"),
        ("zh-TW,zh;q=0.9", "", "zh-hant"),
        ("fr-FR", "", "zh-hans"),
        ("en-US", "zh-hant", "zh-hant"),  # the user's choice beats the browser
        ("", "en", "en"),
    ],
)
def test_scope_language_follows_cookie_then_browser(accept, cookie, expected):
    headers = [(b"accept-language", accept.encode())] if accept else []
    scope = {"headers": headers, "cookies": {"django_language": cookie} if cookie else {}}
    assert scope_language(scope) == expected


async def _receive_table(comm):
    """The next table fragment (the chat history sent on connect is skipped)."""
    for _i in range(5):
        html = await comm.receive_from(timeout=10)
        if 'id="table"' in html:
            return html
    raise AssertionError("no table fragment")


async def test_table_pushes_stay_in_english_and_traditional(bot_room, alice, bob):
    """An English spectator and a zh-Hant spectator: the first push and every
    later one are in their language (the seat button, the turn line)."""
    en = communicator(f"/ws/rooms/{bot_room.pk}/", bob, accept="en-US,en;q=0.9")
    assert (await en.connect())[0]
    await _receive_table(en)
    carol = await database_sync_to_async(_make_user)("carol")
    hant = communicator(f"/ws/rooms/{bot_room.pk}/", carol, accept="en-US", cookie="zh-hant")
    assert (await hant.connect())[0]
    await _receive_table(hant)
    for _i in range(3):
        await database_sync_to_async(services.set_autoplay)(bot_room, alice, _i % 2 == 0)
        first = await _receive_table(en)
        first_hant = await _receive_table(hant)
        assert 'title="Seat"' in first and "Bot" in first and "Match points" in first
        assert not any(word in first for word in ("座位", "机器人", "本场积分", "等待"))
        assert "機器人" in first_hant and "本場積分" in first_hant
        assert "机器人" not in first_hant and "本场积分" not in first_hant
    await en.disconnect()
    await hant.disconnect()


def _make_user(name):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(name, password="pw-" + name + "-123456")


async def test_lobby_pushes_in_the_users_language(alice, bob, multipliers):
    comm = communicator("/ws/lobby/baohuang/", bob, accept="en")
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=10)
    await database_sync_to_async(services.create_room)(alice, "baohuang", "r1")
    html = await comm.receive_from(timeout=10)
    assert "r1" in html
    hans = await database_sync_to_async(_render_zh)()
    assert html != hans  # the same list, rendered in English, not in zh-Hans
    await comm.disconnect()


def _render_zh():
    from django.utils import translation

    from games.render.tables import render_room_list

    with translation.override("zh-hans"):
        return render_room_list("baohuang")
