"""Shared per-(room, version) reads for the table sockets (``games.live.snapshots``):
one read serves every socket of a room in a process, each socket still
renders only its own seat, a per-seat render makes no query, and a snapshot
older than the newest announced version is never served."""

from __future__ import annotations

import asyncio
import re

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.live import snapshots as live
from games.live.group_push import PUSH_SWAP
from games import services
from games.render import tables
from games.engine import get_rules
from games.models import Room
from games.live.routing import websocket_urlpatterns
from tests.conftest import drive, make_due

from .shengji_fixtures import sj_bot_room  # noqa: F401 (fixture)
from tests.table_pages import PagedCommunicator
from tests.table_pages import hand_codes

RULES = get_rules("baohuang")
APP = URLRouter(websocket_urlpatterns)
SERVER_NOW = re.compile(r' data-server-now="\d+"')


def own_cards(html):
    return hand_codes(html)


def attr(html, name):
    m = re.search(rf'{name}="([^"]*)"', html)
    return m.group(1) if m else None


@pytest.fixture(autouse=True)
def _fresh_snapshots():
    live.forget()
    yield
    live.forget()


# ----------------------------------------------------------------- synchronous


@pytest.mark.django_db
@pytest.mark.parametrize("room_fixture", ["bot_room", "sj_bot_room"])
def test_render_from_a_snapshot_makes_no_query_and_equals_a_direct_render(
    room_fixture, request, alice, bob
):
    """保皇 and 升級 mid-hand: for the seated player, a spectator and an
    anonymous visitor the fragment rendered from one shared snapshot is the
    fragment ``render_table`` reads itself, and rendering it makes no query."""
    from django.contrib.auth.models import AnonymousUser

    room = request.getfixturevalue(room_fixture)
    services.set_autoplay(room, alice, True)
    drive(room, lambda r: services.action_count(services.current_hand(r)) >= 6)
    room.refresh_from_db()
    snap = live.load_snapshot(room.pk)
    for user in (alice, bob, AnonymousUser()):
        with CaptureQueriesContext(connection) as queries:
            shared = live.render_seat(snap, user, room.version, 1234)
        assert len(queries) == 0, [q["sql"] for q in queries]
        direct = tables.render_table(Room.objects.get(pk=room.pk), user, 1234, swap_oob=PUSH_SWAP)
        assert SERVER_NOW.sub("", shared) == SERVER_NOW.sub("", direct)
    mine = own_cards(live.render_seat(snap, alice, None, None))
    assert mine
    if room.game == "baohuang":
        assert mine == RULES.view(snap.state, 0)["hand"]
    assert own_cards(live.render_seat(snap, bob, None, None)) == []


@pytest.mark.django_db
def test_render_of_a_completed_hand_makes_no_query(bot_room, alice):
    """The result panel and score sheet come from the snapshot too."""
    services.set_autoplay(bot_room, alice, True)
    drive(bot_room, lambda r: services.current_hand(r).complete)
    bot_room.refresh_from_db()
    snap = live.load_snapshot(bot_room.pk)
    assert snap.hand.complete and snap.score_rows
    with CaptureQueriesContext(connection) as queries:
        html = live.render_seat(snap, alice, bot_room.version, None)
    assert len(queries) == 0
    assert 'id="table"' in html


@pytest.mark.django_db
def test_event_commit_time_is_shown_only_for_the_snapshot_version(bot_room, alice):
    snap = live.load_snapshot(bot_room.pk)
    assert attr(live.render_seat(snap, alice, snap.version, 777), "data-committed-at") == "777"
    newer = live.render_seat(snap, alice, snap.version - 1, 777)
    assert attr(newer, "data-committed-at") == str(tables.epoch_ms(snap.room.changed))


# ----------------------------------------------------------------- sockets


def communicator(path, user):
    comm = PagedCommunicator(APP, path)
    comm.scope["user"] = user
    return comm


def _step(room_id):
    from games.runtime.tasks import play_turn

    room = Room.objects.get(pk=room_id)
    make_due(room)
    return play_turn(room.pk, room.version)


@pytest.mark.django_db(transaction=True)
async def test_sockets_of_one_room_share_one_read_and_see_only_their_seat(
    five_humans, close_thread_connections
):
    """Five seated players: after a move, one read serves all five sockets,
    and each fragment shows exactly that seat's own cards."""
    room, users = five_humans
    comms = [communicator(f"/ws/rooms/{room.pk}/", u) for u in users]
    for comm in comms:
        assert (await comm.connect())[0]
        await comm.receive_from(timeout=5)
    await database_sync_to_async(services.set_autoplay)(room.pk, users[0], True)
    before = dict(live.stats)
    await database_sync_to_async(_step)(room.pk)  # seat to act moves (timeout: C5 move)
    pages = [await comm.receive_from(timeout=5) for comm in comms]
    assert live.stats["reads"] - before["reads"] <= 2  # the 托管 switch and the move
    hand = await database_sync_to_async(services.current_hand)(room)
    state = await database_sync_to_async(services.hand_state)(hand)
    # drain the 托管 version if it came first, keep the newest per socket
    for i, comm in enumerate(comms):
        while not await comm.receive_nothing(timeout=0.3):
            pages[i] = await comm.receive_from(timeout=5)
    for seat, page in enumerate(pages):
        assert own_cards(page) == RULES.view(state, seat)["hand"]
    versions = {int(attr(p, "data-version")) for p in pages}
    assert max(versions) == (await database_sync_to_async(Room.objects.get)(pk=room.pk)).version
    for comm in comms:
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_newer_version_is_read_again_never_served_from_the_kept_snapshot(
    bot_room, alice, close_thread_connections
):
    await database_sync_to_async(services.set_autoplay)(bot_room.pk, alice, True)
    first = await live.snapshot(bot_room.pk, None)
    again = await live.snapshot(bot_room.pk, first.version)
    assert again is first  # same version: no read
    await database_sync_to_async(_step)(bot_room.pk)
    newer = await live.snapshot(bot_room.pk, first.version + 1)
    assert newer is not first and newer.version == first.version + 1
    assert newer.action_count == first.action_count + 1


@pytest.mark.django_db(transaction=True)
async def test_concurrent_requests_for_one_version_share_one_read(bot_room, close_thread_connections):
    before = live.stats["reads"]
    snaps = await asyncio.gather(*(live.snapshot(bot_room.pk, None) for _ in range(4)))
    assert live.stats["reads"] - before == 1  # four connects at once: one read
    assert len({id(s) for s in snaps}) == 1
    events = await asyncio.gather(*(live.snapshot(bot_room.pk, bot_room.version) for _ in range(4)))
    assert live.stats["reads"] - before == 1  # the kept snapshot is at that version
    assert all(s is snaps[0] for s in events)


@pytest.mark.django_db
def test_a_snapshot_read_costs_the_same_few_queries_however_long_the_hand(bot_room, alice):
    """Room joined to its seats, hand with its count, settlements: three
    queries at action 3 and at action 21 (no completed hand in hand 1; here
    ``do_move`` ran in this process and cached the state; a process that
    did not adds one query for the new rows only, see test_games_state_cache;
    the statements themselves: tests/site/test_query_counts.py)."""
    services.set_autoplay(bot_room, alice, True)
    counts = []
    for target in (3, 21):
        drive(bot_room, lambda r: services.action_count(services.current_hand(r)) >= target)
        with CaptureQueriesContext(connection) as queries:
            snap = live.load_snapshot(bot_room.pk)
        assert snap.action_count == target
        counts.append(len(queries))
    assert counts == [3, 3]
