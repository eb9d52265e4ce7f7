"""Websockets: refusal of anonymous users, per-seat rendering, hidden information.

Uses channels' ``WebsocketCommunicator`` (as ``tests.table_pages.PagedCommunicator``, which
reads each push as the whole table it leaves on the page) against ``games.live.routing`` with the
user put in the scope (what ``AuthMiddlewareStack`` does in ``config/asgi.py``).
"""

from __future__ import annotations

import re
import threading
import time
from collections import Counter

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import connections

from games import services
from games.engine import get_rules
from games.live.routing import websocket_urlpatterns
from games.runtime.tasks import play_turn
from tests.conftest import make_due
from tests.table_pages import PagedCommunicator

# close_thread_connections: tests/conftest.py
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_thread_connections")]

RULES = get_rules("baohuang")
APP = URLRouter(websocket_urlpatterns)


def communicator(path, user):
    comm = PagedCommunicator(APP, path)
    comm.scope["user"] = user
    return comm


def attr(html, name):
    m = re.search(rf'{name}="([^"]*)"', html)
    return m.group(1) if m else None


def own_cards(html):
    """The codes of the viewer's hand (``data-region="hand"``), a stack of
    identical cards (``data-count``) once per copy."""
    hand = re.search(r'id="my-hand"[^>]*>(.*?)</div>', html, re.S)
    out = []
    for code, count in re.findall(r'<button[^>]* data-card="([^"]+)"(?: data-count="(\d+)")?', hand.group(1) if hand else ""):
        out += [code] * int(count or 1)
    return out


def all_codes(html):
    return re.findall(r'data-(?:card|c|top-card)="([^"]+)"', html)


def view_codes(view) -> Counter:
    """Every card code in a JSON view (what that seat may know)."""
    out = Counter()

    def walk(x):
        if isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str) and re.fullmatch(r"(?:[2-9TJQKA][SHDC]|SJ|BJ)\*?|4H\*", x):
            out[x] += 1

    walk(view)
    return out


async def test_anonymous_refused_with_4401(bot_room):
    comm = communicator(f"/ws/rooms/{bot_room.pk}/", AnonymousUser())
    connected, _ = await comm.connect()
    assert connected
    closed = await comm.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": 4401}
    lobby = communicator("/ws/lobby/baohuang/", AnonymousUser())
    await lobby.connect()
    assert (await lobby.receive_output(timeout=3))["code"] == 4401


async def test_seated_user_receives_own_view_after_a_change(bot_room, alice):
    comm = communicator(f"/ws/rooms/{bot_room.pk}/", alice)
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_from(timeout=5)
    assert int(attr(first, "data-version")) == bot_room.version
    await database_sync_to_async(services.set_autoplay)(bot_room.pk, alice, True)
    second = await comm.receive_from(timeout=5)
    assert int(attr(second, "data-version")) == bot_room.version + 1
    assert int(attr(second, "data-committed-at")) > 0
    assert 'data-action="autoplay-off"' in second
    hand = await database_sync_to_async(services.current_hand)(bot_room)
    state = await database_sync_to_async(services.hand_state)(hand)
    assert own_cards(second) == RULES.view(state, 0)["hand"]
    await comm.disconnect()


async def test_lobby_receives_room_list_on_change(bh_room, alice, bob):
    comm = communicator("/ws/lobby/baohuang/", bob)
    await comm.connect()
    first = await comm.receive_from(timeout=5)
    assert 'id="room-list"' in first and "1/5" in first
    await database_sync_to_async(services.take_seat)(bh_room.pk, bob, 3)
    second = await comm.receive_from(timeout=5)
    assert "2/5" in second
    await comm.disconnect()


def _step(room_id):
    from games.models import Room

    room = Room.objects.get(pk=room_id)
    make_due(room)
    return play_turn(room.pk, room.version)


def _state_for(hand_id, count):
    from games.models import Hand

    hand = Hand.objects.select_related("match__room").get(pk=hand_id)
    return hand, services.hand_state(hand, upto=count)


async def test_hidden_information_through_a_whole_bot_hand(bot_room, alice):
    """Every message sent to seat 0 during a complete hand shows seat 0's own
    cards and nothing else held by another seat (B10: the guard's 4H* too)."""
    await database_sync_to_async(services.set_autoplay)(bot_room.pk, alice, True)
    comm = communicator(f"/ws/rooms/{bot_room.pk}/", alice)
    await comm.connect()
    messages = [await comm.receive_from(timeout=5)]
    hand = await database_sync_to_async(services.current_hand)(bot_room)
    for _ in range(2000):
        done = await database_sync_to_async(lambda: services.current_hand(bot_room).complete)()
        if done:
            break
        result = await database_sync_to_async(_step)(bot_room.pk)
        assert result in ("bot", "timeout")
        messages.append(await comm.receive_from(timeout=5))
    else:
        pytest.fail("hand did not finish")
    await comm.disconnect()

    checked = 0
    for html in messages:
        if attr(html, "data-hand") != str(hand.pk):
            continue
        count = int(attr(html, "data-actions"))
        _hand, state = await database_sync_to_async(_state_for)(hand.pk, count)
        if RULES.is_complete(state):
            continue  # after the hand everything may be shown
        mine = RULES.view(state, 0)
        # 1. the hand shown is exactly seat 0's own
        assert own_cards(html) == mine["hand"]
        # 2. every card in the message is one seat 0 may know
        # (as a set: a public play is drawn twice, in the top set and the round log)
        shown = set(all_codes(html))
        assert shown <= set(view_codes(mine)), f"after {count} actions"
        top = re.findall(r'data-top-card="([^"]+)"', html)
        assert top == ((mine.get("top") or {}).get("cards") or [])
        # 3. no card held by another seat appears unless seat 0 may know of
        #    it (own cards, public plays, a 買3 payment or tribute it took part in)
        others = set()
        for seat in range(1, 5):
            others |= set(RULES.view(state, seat)["hand"])
        secret = others - set(view_codes(mine))
        assert not secret & set(shown), f"leak after {count} actions: {secret & set(shown)}"
        # the stored deal of other seats never appears
        checked += 1
    assert checked > 50


async def test_change_made_in_a_timer_thread_reaches_the_socket(bot_room, alice):
    """Embedded topology: bots move on ``threading.Timer`` threads; their
    notification is handed to the server's loop (in-memory channel layer)."""
    comm = communicator(f"/ws/rooms/{bot_room.pk}/", alice)
    await comm.connect()
    await comm.receive_from(timeout=5)

    def in_thread():
        try:
            _step(bot_room.pk)
        finally:
            connections.close_all()

    # Nothing else wakes this loop: the notification itself must (a future
    # completed from a foreign thread without call_soon_threadsafe would sit
    # until the receive timeout).
    started = time.monotonic()
    threading.Thread(target=in_thread, daemon=True).start()
    html = await comm.receive_from(timeout=8)
    assert time.monotonic() - started < 4
    assert int(attr(html, "data-version")) == bot_room.version + 1
    await comm.disconnect()


def _session_cookie(user) -> bytes:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def test_origin_and_login_checked_by_the_asgi_stack(bot_room, alice):
    """config.asgi: a socket from another origin (or none) is refused before it
    is accepted; from our origin without a session it is closed with 4401;
    with alice's session it gets alice's table (the control)."""
    from config.asgi import application

    cookie = await database_sync_to_async(_session_cookie)(alice)
    path = f"/ws/rooms/{bot_room.pk}/"
    for headers in (
        [(b"origin", b"http://evil.example.com"), (b"cookie", cookie)],
        [(b"origin", b"http://testserver.evil.example.com"), (b"cookie", cookie)],
        [(b"cookie", cookie)],  # no Origin header at all
    ):
        comm = WebsocketCommunicator(application, path, headers=headers)
        connected, _ = await comm.connect()
        assert not connected, headers
    comm = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])
    connected, _ = await comm.connect()
    assert connected
    assert (await comm.receive_output(timeout=3)) == {"type": "websocket.close", "code": 4401}
    comm = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)])
    connected, _ = await comm.connect()
    assert connected
    html = await comm.receive_from(timeout=5)
    assert attr(html, "data-my-seat") == "0" and own_cards(html)
    await comm.disconnect()


async def test_spectator_socket_shows_no_cards(bot_room, bob):
    """A logged-in user without a seat gets the public view: no hand, no
    buttons, no card that only a seat may know, also after a change."""
    comm = communicator(f"/ws/rooms/{bot_room.pk}/", bob)
    connected, _ = await comm.connect()
    assert connected
    messages = [await comm.receive_from(timeout=5)]
    for _ in range(30):  # some of hand 1: crown, tribute, declaration, plays
        await database_sync_to_async(_step)(bot_room.pk)
        messages.append(await comm.receive_from(timeout=5))
    await comm.disconnect()
    hand = await database_sync_to_async(services.current_hand)(bot_room)
    for html in messages:
        assert 'data-region="hand"' not in html and "data-my-seat" not in html
        assert 'data-action="play"' not in html and 'data-action="hint"' not in html
        if attr(html, "data-hand") != str(hand.pk):
            continue
        count = int(attr(html, "data-actions"))
        _hand, state = await database_sync_to_async(_state_for)(hand.pk, count)
        if RULES.is_complete(state):
            continue
        public = set(view_codes(RULES.view(state, None)))
        assert set(all_codes(html)) <= public, f"after {count} actions"
