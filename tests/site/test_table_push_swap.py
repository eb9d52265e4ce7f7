"""How the page applies a new table (the table's largest paint):
morphed by idiomorph, never replaced.

* a websocket frame (on connect and after a move) is the ``#table`` fragment
  whose root says ``hx-swap-oob="morph"``: htmx's ws extension hands it to the
  morph extension, which keeps the page's elements;
* the table enables the morph extension on itself (``hx-ext="morph"``: not on
  the socket's element, where idiomorph 0.8.0's extension would call every
  swap style inline and so break the chat's ``beforeend``) and the room page
  loads the vendored idiomorph (no CDN); its own
  ``#table`` has no ``hx-swap-oob``, nor has a POST answer (htmx would take
  such a root out of the answer and swap nothing in its place);
* every button and form that answers with the table swaps it by morphing
  (``hx-target="#table" hx-swap="morph"``), on the page and in a POST answer.

The browser side (the same elements after a push and a POST, the selection,
the animations): tests/browser/test_browser_morph.py.
"""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.staticfiles import finders
from django.test import Client

from games import services
from games.live import snapshots as live
from games.live.routing import websocket_urlpatterns
from games.models import Room
from tests.conftest import make_due

APP = URLRouter(websocket_urlpatterns)
TABLE_ROOT = re.compile(r'<div id="table"[^>]*>')
TABLE_SWAPS = re.compile(r'hx-target="#table"(?: hx-swap="([^"]*)")?')


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def _root(html: str) -> str:
    m = TABLE_ROOT.search(html)
    assert m, html[:300]
    return m.group(0)


def _swaps(html: str) -> list[str | None]:
    return [m.group(1) for m in TABLE_SWAPS.finditer(html)]


@pytest.fixture(autouse=True)
def _fresh_snapshots():
    live.forget()
    yield
    live.forget()


def test_the_page_and_a_post_answer_morph_and_carry_no_oob_root(bh_room, alice):
    page = _client(alice).get(f"/rooms/{bh_room.pk}/").content.decode()
    assert re.search(r'<div id="table-ws" hx-ext="ws" ws-connect=', page)
    assert 'hx-ext="morph"' in _root(page)
    assert 'src="/static/vendor/idiomorph-ext.min.js"' in page
    assert page.index("vendor/idiomorph-ext.min.js") < page.index("games/table.js")  # its callbacks set there
    # the rules every morphed page shares (an open <details>, an edited control)
    assert page.index("vendor/idiomorph-ext.min.js") < page.index("games/morph.js")
    assert "hx-swap-oob" not in _root(page)
    swaps = _swaps(page)
    assert swaps and set(swaps) == {"morph"}, swaps  # fill bots, ready, leave …

    answer = _client(alice).post(f"/rooms/{bh_room.pk}/fill-bots", {"policy": "random"}, HTTP_HX_REQUEST="true")
    html = answer.content.decode()
    assert answer.status_code == 200
    assert "hx-swap-oob" not in _root(html)
    assert set(_swaps(html)) == {"morph"}

    answer = _client(alice).post(f"/rooms/{bh_room.pk}/ready", {"ready": "1"}, HTTP_HX_REQUEST="true")
    html = answer.content.decode()
    assert 'data-region="hand"' in html  # dealt: the hand and its buttons
    assert "hx-swap-oob" not in _root(html) and 'hx-ext="morph"' in _root(html)
    assert set(_swaps(html)) == {"morph"}


def test_the_vendored_idiomorph_and_its_licence_are_served():
    script = finders.find("vendor/idiomorph-ext.min.js")
    licence = finders.find("vendor/idiomorph.LICENSE")
    assert script and licence
    text = open(script, encoding="utf-8").read()
    assert 'htmx.defineExtension("morph"' in text and "var Idiomorph=" in text
    assert "Zero-Clause BSD" in open(licence, encoding="utf-8").read()


def _step(room_id):
    from games.runtime.tasks import play_turn

    room = Room.objects.get(pk=room_id)
    make_due(room)
    return play_turn(room.pk, room.version)


@pytest.mark.django_db(transaction=True)
async def test_a_pushed_table_says_morph(bot_room, alice, close_thread_connections):
    comm = WebsocketCommunicator(APP, f"/ws/rooms/{bot_room.pk}/")
    comm.scope["user"] = alice
    assert (await comm.connect())[0]
    first = await comm.receive_from(timeout=5)
    assert 'hx-swap-oob="morph"' in _root(first)
    await database_sync_to_async(services.set_autoplay)(bot_room.pk, alice, True)
    await database_sync_to_async(_step)(bot_room.pk)
    frames = [await comm.receive_from(timeout=5)]
    while not await comm.receive_nothing(timeout=0.3):
        frames.append(await comm.receive_from(timeout=5))
    for frame in frames:
        root = _root(frame)
        assert 'hx-swap-oob="morph"' in root and 'hx-ext="morph"' in root
        assert int(re.search(r'data-version="(\d+)"', root).group(1)) > int(
            re.search(r'data-version="(\d+)"', _root(first)).group(1))
    await comm.disconnect()
