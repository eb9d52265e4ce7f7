"""Issue #24, bytes per move: a table socket sends only the regions of its
seat's fragment that changed since what *that* socket last received
(:mod:`games.render.regions`), as stubs the page's morph keeps; the whole
fragment on the first send, when most regions changed, and when the page asks
(``{"full": 1}``).

Checked here: a push after a move carries stubs (the hand among them) and
the regions that changed; the page it leaves (stubs replaced by what the
socket sent before, :class:`tests.table_pages.PageCopy`) equals a full render
of that version for that seat; no push carries another seat's cards; the page
can ask for the whole table once per version.  The browser side:
tests/browser/test_browser_partial_push.py.
"""

from __future__ import annotations

import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from markupsafe import Markup

from games import services
from games.engine import get_rules
from games.live import snapshots as live
from games.live.routing import websocket_urlpatterns
from games.render import regions
from games.runtime.tasks import play_turn
from tests.conftest import make_due
from tests.table_pages import PagedCommunicator, stubs

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_thread_connections")]

APP = URLRouter(websocket_urlpatterns)
RULES = get_rules("baohuang")
REGION = re.compile(r'<[a-z][a-z0-9]* data-h="([0-9a-f]+)"[^>]*? id="([^"]+)"')


def _clockless(html: str) -> str:
    """Without the render's own clock and the commit time (root attributes)."""
    return re.sub(r' data-(?:server-now|committed-at)="\d+"', "", html)


def _step(room_id):
    from games.models import Room

    room = Room.objects.get(pk=room_id)
    make_due(room)
    return play_turn(room.pk, room.version)


def _full_render(room_id, user) -> str:
    live.forget(room_id)
    snap = live.load_snapshot(room_id)
    return str(live.render_seat(snap, user, None, None))


def _own_hand(room_id, seat):
    from games.models import Room

    hand = services.current_hand(Room.objects.get(pk=room_id))
    return RULES.view(services.hand_state(hand), seat)["hand"]


async def test_pushes_after_moves_carry_only_changed_regions(bot_room, alice):
    comm = PagedCommunicator(APP, f"/ws/rooms/{bot_room.pk}/")
    comm.scope["user"] = alice
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    first = comm.raw[-1]
    assert "data-keep" not in first  # the first send is whole
    ids = [rid for _h, rid in REGION.findall(first)]
    assert {"seat-0", "seat-4", "status-line", "my-hand"} <= set(ids), ids
    await database_sync_to_async(services.set_autoplay)(bot_room.pk, alice, True)
    partial_pushes = kept_hand = 0
    for n in range(12):
        if n:
            assert await database_sync_to_async(_step)(bot_room.pk) in ("bot", "timeout")
        page = await comm.receive_from(timeout=5)
        raw = comm.raw[-1]
        kept = dict(stubs(raw))
        sent = {rid for _h, rid in REGION.findall(raw)}
        assert not set(kept) & sent
        if kept:
            partial_pushes += 1
            assert len(raw) < len(page)
            # what is kept is what the socket sent last, unchanged
            kept_hand += "my-hand" in kept
        # the page equals a full render of the same version for alice
        assert _clockless(page) == _clockless(await database_sync_to_async(_full_render)(bot_room.pk, alice))
        # only alice's own cards, in the push and on the page
        mine = await database_sync_to_async(_own_hand)(bot_room.pk, 0)
        assert re.findall(r'data-card="([^"]+)"', page) == mine
        assert set(re.findall(r'data-card="([^"]+)"', raw)) <= set(mine)
    assert partial_pushes >= 8 and kept_hand >= 4, (partial_pushes, kept_hand)
    await comm.disconnect()


async def test_the_page_may_ask_for_the_whole_table_once_per_version(bot_room, alice):
    comm = PagedCommunicator(APP, f"/ws/rooms/{bot_room.pk}/")
    comm.scope["user"] = alice
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    await database_sync_to_async(_step)(bot_room.pk)
    await comm.receive_from(timeout=5)
    assert "data-keep" in comm.raw[-1]
    version = re.search(r'data-version="(\d+)"', comm.raw[-1]).group(1)
    await comm.send_to(text_data=json.dumps({"full": "1"}))
    await comm.receive_from(timeout=5)
    again = comm.raw[-1]
    assert "data-keep" not in again and f'data-version="{version}"' in again
    await comm.send_to(text_data=json.dumps({"full": "1"}))  # once per version
    assert await comm.receive_nothing(timeout=0.5)
    await database_sync_to_async(_step)(bot_room.pk)
    await comm.receive_from(timeout=5)
    assert "data-keep" in comm.raw[-1]  # the record was reset to the whole table
    await comm.disconnect()


def _fragment(*elements: tuple[str, str]) -> regions.TableHtml:
    collector = regions.Regions()
    html = "".join(str(collector(rid, caller=lambda body=body: Markup(body))) for rid, body in elements)
    return regions.TableHtml(f'<div id="table">{html}</div>', collector.parts)


def test_partial_sends_stubs_for_unchanged_regions_and_whole_when_most_changed():
    a = '<div id="a">1</div>'
    one = _fragment(("a", a), ("b", '<p id="b">x</p>'), ("c", '<section id="c"><div>y</div></section>'))
    html, record, kept = regions.partial(one, None)
    assert kept == 0 and html == str(one) and set(record) == {"a", "b", "c"}
    two = _fragment(("a", a), ("b", '<p id="b">z</p>'), ("c", '<section id="c"><div>y</div></section>'))
    html, record2, kept = regions.partial(two, record)
    assert kept == 2
    assert f'<div id="a" data-keep="{record["a"]}"></div>' in html
    assert f'<section id="c" data-keep="{record["c"]}"></section>' in html
    assert '<p data-h="' in html and ">z</p>" in html
    three = _fragment(("a", '<div id="a">2</div>'), ("b", '<p id="b">w</p>'))  # c gone, most changed
    html, record3, kept = regions.partial(three, record2)
    assert kept == 0 and "data-keep" not in html and set(record3) == {"a", "b"}
    with pytest.raises(ValueError):
        _fragment(("a", '<div id="other">1</div>'))
