"""One channel-layer member per room and process (:mod:`games.live.fanout`).

The table sockets of a process do not each join the room's group: the
process's hub does, once, and renders every local socket of the room from one
snapshot in one thread job, each with its own seat's view.  The embedded
suite runs these on the in-memory layer, the production suite on
channels-redis against the real Redis.
"""

from __future__ import annotations

import asyncio
import re
import threading

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from channels.routing import URLRouter

from games.live import fanout, notify
from games import services
from games.engine import get_rules
from games.models import Room
from games.live.routing import websocket_urlpatterns
from tests.site.test_games_consumers import _step
from tests.table_pages import PagedCommunicator
from tests.table_pages import hand_codes

# close_thread_connections: tests/conftest.py
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_thread_connections")]

RULES = get_rules("baohuang")
APP = URLRouter(websocket_urlpatterns)


def communicator(room_id, user):
    comm = PagedCommunicator(APP, f"/ws/rooms/{room_id}/")
    comm.scope["user"] = user
    return comm


def version_of(html: str) -> int:
    return int(re.search(r'data-version="(\d+)"', html).group(1))


def own_cards(html: str) -> list[str]:
    return hand_codes(html)


def _pubsub(layer):
    """This loop's channels-redis pub/sub layer, or None for another kind."""
    return layer._get_layer() if isinstance(layer, RedisPubSubChannelLayer) else None


async def members(room_id: int) -> set[str]:
    """The channels in the layer's group of ``room_id``: the in-memory
    layer's dict (embedded); the pub/sub layer's own table, counted only
    while Redis has the group's subscription (production suite); or the
    group's sorted set in Redis (channels-redis' core layer)."""
    layer = get_channel_layer()
    group = notify.room_group(room_id)
    loop_layer = _pubsub(layer)
    if loop_layer is not None:
        name = loop_layer._get_group_channel_name(group)
        shard = loop_layer._get_shard(name)
        numsub = dict(await shard._redis.pubsub_numsub(name)) if shard._redis else {}
        subscribed = numsub.get(name.encode(), numsub.get(name, 0))
        return set(loop_layer.groups.get(name, ())) if subscribed else set()
    if hasattr(layer, "groups"):
        return set(layer.groups.get(group, {}))
    key = layer._group_key(group)
    found = await layer.connection(layer.consistent_hash(group)).zrange(key, 0, -1)
    return {m.decode() if isinstance(m, bytes) else m for m in found}


async def drop_group(room_id: int) -> None:
    """Forget the group of ``room_id``, as a restarted Redis has."""
    layer = get_channel_layer()
    group = notify.room_group(room_id)
    loop_layer = _pubsub(layer)
    if loop_layer is not None:
        name = loop_layer._get_group_channel_name(group)
        loop_layer.groups.pop(name, None)
        await loop_layer._get_shard(name).unsubscribe(name)
    elif hasattr(layer, "groups"):
        layer.groups.pop(group, None)
    else:
        await layer.connection(layer.consistent_hash(group)).delete(layer._group_key(group))


async def _room(room_id):
    return await database_sync_to_async(Room.objects.get)(pk=room_id)


async def test_one_member_per_process_and_each_socket_its_own_seat(bot_room, alice, bob, make_user):
    """Three sockets of one room (a player, a second tab of hers, a
    spectator): the room's group holds one channel, the hub's; a change
    reaches all three, the player's showing her own cards and the spectator's
    none; when the last socket closes the hub leaves the group."""
    watcher = await database_sync_to_async(make_user)("watcher")
    await drop_group(bot_room.pk)  # Redis outlives test databases: a killed run's members
    comms = [communicator(bot_room.pk, u) for u in (alice, alice, watcher)]
    for comm in comms:
        assert (await comm.connect())[0]
        await comm.receive_from(timeout=5)
    assert await members(bot_room.pk) == {fanout.hub().channel}

    await database_sync_to_async(_step)(bot_room.pk)
    pushed = [await comm.receive_from(timeout=5) for comm in comms]
    assert {version_of(h) for h in pushed} == {bot_room.version + 1}
    hand = await database_sync_to_async(services.current_hand)(bot_room)
    state = await database_sync_to_async(services.hand_state)(hand)
    assert own_cards(pushed[0]) == own_cards(pushed[1]) == RULES.view(state, 0)["hand"]
    assert own_cards(pushed[2]) == []

    for comm in comms[:2]:
        await comm.disconnect()
    assert await members(bot_room.pk) == {fanout.hub().channel}, "the spectator is still there"
    await comms[2].disconnect()
    assert await members(bot_room.pk) == set()
    assert bot_room.pk not in fanout.hub().rooms


async def test_announcements_while_rendering_fold_into_the_newest(bot_room, alice, monkeypatch):
    """While a room's push is being rendered (held here until the test has
    committed two more moves), the two announcements that arrive fold into
    one pending push of the newest version: the socket gets at most two
    fragments, in increasing order, the last one the newest version."""
    comm = communicator(bot_room.pk, alice)
    await comm.connect()
    first = version_of(await comm.receive_from(timeout=5))
    release = threading.Event()
    real_render = fanout._render_all

    def held(*args):
        release.wait(10)
        return real_render(*args)

    monkeypatch.setattr(fanout, "_render_all", held)
    hub = fanout.hub()
    before = dict(hub.stats)
    outcomes = []
    for _ in range(10):  # three commits (a step may find nothing due)
        outcomes.append(await database_sync_to_async(_step)(bot_room.pk))
        final = (await _room(bot_room.pk)).version
        if final >= first + 3:
            break
    assert final >= first + 3, outcomes
    release.set()
    got = []
    while not got or got[-1] < final:
        got.append(version_of(await comm.receive_from(timeout=10)))
    assert got == sorted(set(got)) and len(got) <= 2 and got[-1] == final, got
    assert await comm.receive_nothing(timeout=0.5)
    assert hub.stats["coalesced"] - before["coalesced"] == final - first - 1
    await comm.disconnect()


async def test_hub_subscribes_again_after_a_failed_receive(bot_room, alice, monkeypatch):
    """The group memberships vanish with a restarted Redis: after its receive
    fails, the hub adds its rooms again, and the next change is pushed."""
    comm = communicator(bot_room.pk, alice)
    await comm.connect()
    first = version_of(await comm.receive_from(timeout=5))
    hub = fanout.hub()
    layer = get_channel_layer()
    monkeypatch.setattr(fanout, "RETRY_S", 0.05)
    # Redis restarted: no group remembers the hub, and the pending receive fails once.
    await drop_group(bot_room.pk)
    real_receive = layer.receive
    failed = []

    async def receive_once_failing(channel):
        if not failed:
            failed.append(channel)
            raise ConnectionError("redis restarted")
        return await real_receive(channel)

    monkeypatch.setattr(layer, "receive", receive_once_failing)
    hub.task.cancel()  # the receive in progress was on the lost connection
    await asyncio.wait([hub.task], timeout=5)  # (the pub/sub layer unsubscribes as it ends)
    await hub._start()
    for _ in range(100):
        if failed and await members(bot_room.pk):
            break
        await asyncio.sleep(0.02)
    assert failed == [hub.channel]
    assert await members(bot_room.pk) == {hub.channel}
    await database_sync_to_async(_step)(bot_room.pk)
    assert version_of(await comm.receive_from(timeout=5)) == first + 1
    await comm.disconnect()


async def test_pushes_resume_after_the_hub_stopped_and_started_again(bot_room, alice):
    """The last socket leaves (the hub stops receiving), then a socket comes
    back: it is pushed the next change.  (On channels-redis' pub/sub layer a
    stopped receive takes its channel with it; re-adding that channel to the
    group raised, and a returning socket was never pushed again.)"""
    comm = communicator(bot_room.pk, alice)
    await comm.connect()
    await comm.receive_from(timeout=5)
    await comm.disconnect()
    hub = fanout.hub()
    assert hub.task is None and not hub.rooms
    again = communicator(bot_room.pk, alice)
    assert (await again.connect())[0]
    first = version_of(await again.receive_from(timeout=5))
    assert await members(bot_room.pk) == {hub.channel}
    await database_sync_to_async(_step)(bot_room.pk)
    assert version_of(await again.receive_from(timeout=5)) == first + 1
    await again.disconnect()


async def test_message_names_the_room_and_no_card(bot_room):
    """What the channel layer carries for a table: room, version, commit time."""
    room = await _room(bot_room.pk)
    msg = notify.message(room.version, 123, room=room.pk)
    assert msg == {"type": "table.changed", "room": room.pk, "version": room.version, "committed_at": 123}
