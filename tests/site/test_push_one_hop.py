"""A push that reads its snapshot renders in the read's own job
(:func:`games.live.snapshots.snapshot_then`, :func:`games.live.fanout._prepare`):
one thread hand-off per push for any number of sockets, two when the watch
rules must be asked (the read and the verdicts in one job, the render after
the refusals) or when the render slot is taken, and everything a push kept
before: each seat its own cards, sockets that got the version meanwhile
dropped after the read, a failed read or render logged without stopping the
room's pusher, the read shared with a socket asking for the same version, the
caller's context variables, at most :data:`games.live.fanout.RENDER_THREADS`
renders at once."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from games import services
from games.engine import get_rules
from games.live import fanout, snapshots as live
from games.models import Room
from tests.table_pages import hand_codes

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_thread_connections")]

RULES = get_rules("baohuang")
#: a context variable set by the test around a push, read in the render
MARK = contextvars.ContextVar("push_one_hop_mark", default=None)


class Socket:
    """A table socket as the hub sees it (the consumer's attributes)."""

    refused = False

    def __init__(self, room_id, user, guarded=False):
        self.room_id = room_id
        self.user = user
        self.language = "zh-hans"
        self.guarded = guarded
        self.sent_version = 0
        self.sent: list[tuple[int, str]] = []
        self.refusals = 0

    async def deliver(self, version, html, again=False):
        if self.refused or version <= self.sent_version:
            return
        self.sent_version = version
        self.sent.append((version, str(html)))

    async def chat_posted(self, event):
        pass

    async def refuse(self):
        self.refused = True
        self.refusals += 1


class Counting(ThreadPoolExecutor):
    """An executor that counts the jobs handed to it (not the idle timer's
    :func:`games.live.snapshots._give_back`, which comes when a test pauses
    for longer than the hold)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.jobs = 0

    def submit(self, fn, /, *args, **kwargs):
        if fn is not live._give_back:
            self.jobs += 1
        return super().submit(fn, *args, **kwargs)


def _close(pool):
    """Close the database connection of each of ``pool``'s threads, and shut it down."""
    from django.db import connections

    threads = len(pool._threads)
    if threads:
        barrier = threading.Barrier(threads)

        def close():
            live._drop()
            connections.close_all()
            barrier.wait(timeout=10)  # one job per thread

        for future in [pool.submit(close) for _ in range(threads)]:
            future.result(timeout=15)
    pool.shutdown(wait=True)


@pytest.fixture
def pools(monkeypatch):
    """The read pool and the render pool, counting their jobs (fresh ones,
    closed and shut down afterwards; the real ones back first)."""
    reads = Counting(max_workers=2, thread_name_prefix="live-db-test")
    renders = Counting(max_workers=1, thread_name_prefix="render-test")
    real = (live._db_pool, fanout._render_pool)
    live._db_pool, fanout._render_pool = reads, renders
    monkeypatch.setattr(live, "_release", {"last": 0.0, "timer": None, "held": 0})
    try:
        yield reads, renders
    finally:
        live._db_pool, fanout._render_pool = real
        _close(reads)
        _close(renders)


def _hub(room_id, sockets):
    hub = fanout.Hub(None)
    room = fanout._Room()
    room.members.update(sockets)
    hub.rooms[room_id] = room
    return hub, room


async def _push(hub, room, room_id, version, committed_at=1):
    room.busy = True
    await hub._push(room_id, room, version, committed_at)
    assert not room.busy


def _move(room_id):
    """One move of the seat to act (every seat on 托管: :func:`_autoplay`;
    played as the turn runner plays it), the kept snapshot left as a daphne has it (a worker played the turn)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.runtime.tasks import play_turn

    from games.services import roomcache

    kept = roomcache.newest(room_id, live.KIND)
    version = Room.objects.get(pk=room_id).version
    for _ in range(10):  # a held hidden decision keeps the version: play on
        Room.objects.filter(pk=room_id).update(deadline=timezone.now() - timedelta(seconds=5))
        play_turn(room_id, Room.objects.get(pk=room_id).version)
        if Room.objects.get(pk=room_id).version != version:
            break
    # the turn ran in a worker: this daphne still has its snapshot (the turn's
    # room-state entry, newer, would have dropped it here)
    roomcache.forget(room_id)
    if kept is not None:
        roomcache.put(room_id, kept[0], live.KIND, kept[1])
    return Room.objects.get(pk=room_id).version


def _autoplay(room, users):
    for user in users:
        services.set_autoplay(room, user, True)
    room.refresh_from_db()


def _state(room_id):
    room = Room.objects.get(pk=room_id)
    return services.hand_state(services.current_hand(room))


async def test_a_push_is_one_job_and_each_seat_gets_its_own_cards(five_humans, pools, monkeypatch):
    reads, renders = pools
    room, users = five_humans
    sockets = [Socket(room.pk, user) for user in users] + [Socket(room.pk, AnonymousUser())]
    sockets[0].guarded = True  # guarded but seated: no verdict to ask
    hub, local = _hub(room.pk, sockets)
    seen = []
    real_render = live.render_seat

    def render(snap, user, version, committed_at):
        seen.append((threading.current_thread().name, MARK.get()))
        return real_render(snap, user, version, committed_at)

    monkeypatch.setattr(live, "render_seat", render)
    await database_sync_to_async(_autoplay)(room, users)
    live.forget(room.pk)
    steps = live.stats["steps"]
    for step in range(3):  # a full read, then reads stepped from the kept snapshot
        version = room.version if step == 0 else await database_sync_to_async(_move)(room.pk)
        before = (reads.jobs, renders.jobs, dict(hub.stats))
        token = MARK.set(f"push {step}")
        try:
            await _push(hub, local, room.pk, version)
        finally:
            MARK.reset(token)
        assert (reads.jobs - before[0], renders.jobs - before[1]) == (1, 0), "one job for the read and the renders"
        assert hub.stats["pushes"] - before[2]["pushes"] == 1
        assert hub.stats["sockets"] - before[2]["sockets"] == len(sockets)
        assert hub.stats["renders"] - before[2]["renders"] == 6  # five seats and the spectators' one
        assert hub.stats["hops"] == before[2]["hops"] == 0
        assert all(s.sent_version == version for s in sockets)
        state = await database_sync_to_async(_state)(room.pk)
        for seat, socket in enumerate(sockets[:5]):
            assert sorted(hand_codes(socket.sent[-1][1])) == sorted(RULES.view(state, seat)["hand"]), seat
        assert hand_codes(sockets[5].sent[-1][1]) == []
        # rendered in the read pool's thread, in the pushing task's context
        assert {name.split("_")[0] for name, _ in seen[-6:]} == {"live-db-test"}
        assert {mark for _, mark in seen[-6:]} == {f"push {step}"}
    assert live.stats["steps"] - steps == 2


async def test_a_verdict_to_ask_is_asked_in_the_read_job_and_refuses_before_the_render(
        five_humans, make_user, pools, monkeypatch):
    reads, renders = pools
    room, users = five_humans
    stranger = await database_sync_to_async(make_user)("stranger")
    watcher = await database_sync_to_async(make_user)("watcher")
    sockets = [Socket(room.pk, users[0], guarded=True), Socket(room.pk, stranger, guarded=True),
               Socket(room.pk, watcher, guarded=True), Socket(room.pk, users[1])]
    hub, local = _hub(room.pk, sockets)
    asked, rendered = [], []

    def decide(snap, users_asked):
        asked.append((threading.current_thread().name, [u.username for u in users_asked]))
        return [u.pk != stranger.pk for u in users_asked]

    real_render = live.render_seat

    def render(snap, user, version, committed_at):
        rendered.append((user.username, sockets[1].refused))
        return real_render(snap, user, version, committed_at)

    monkeypatch.setattr(live, "decide_watchers", decide)
    monkeypatch.setattr(live, "render_seat", render)
    await database_sync_to_async(_autoplay)(room, users)
    live.forget(room.pk)
    verdicts = (live.stats["verdicts"], hub.stats["verdicts"])
    await _push(hub, local, room.pk, room.version)
    assert (reads.jobs, renders.jobs) == (1, 1), "the read with the verdicts, then the render"
    assert len(asked) == 1 and asked[0][0].startswith("live-db-test")
    assert sorted(asked[0][1]) == ["p0", "stranger", "watcher"]  # all guarded sockets decided together
    assert (live.stats["verdicts"] - verdicts[0], hub.stats["verdicts"] - verdicts[1]) == (1, 1)
    assert sockets[1].refused and sockets[1].refusals == 1 and sockets[1].sent == []
    assert "stranger" not in [name for name, _ in rendered]
    assert all(refused for _, refused in rendered), "rendered after the refusal"
    assert [s.sent_version for s in sockets] == [room.version, 0, room.version, room.version]
    assert hub.stats["hops"] == 1

    # the next version: the refused socket is skipped; a kept snapshot is asked on the loop
    version = await database_sync_to_async(_move)(room.pk)
    await _push(hub, local, room.pk, version)
    assert (reads.jobs, renders.jobs) == (2, 2)
    assert sockets[1].sent == [] and sockets[1].refusals == 1
    assert [s.sent_version for s in sockets] == [version, 0, version, version]
    before = (reads.jobs, renders.jobs)
    for socket in sockets:
        socket.sent_version = 0  # the same version again: the snapshot is kept, the verdicts asked
    await _push(hub, local, room.pk, version)
    assert (reads.jobs - before[0], renders.jobs - before[1]) == (1, 1)  # ask_watch_rules, then the render
    assert len(asked) == 3 and sorted(asked[-1][1]) == ["p0", "watcher"]


async def test_sockets_that_got_the_version_during_the_read_are_dropped(five_humans, pools, monkeypatch):
    reads, renders = pools
    room, users = five_humans
    sockets = [Socket(room.pk, user) for user in users]
    hub, local = _hub(room.pk, sockets)
    real_load = live.load_snapshot
    rendered = []

    def load(room_id, kept=None):
        snap = real_load(room_id, kept)
        sockets[2].sent_version = snap.version  # its own push sent it meanwhile
        return snap

    real_render = live.render_seat

    def render(snap, user, version, committed_at):
        rendered.append(user.username)
        return real_render(snap, user, version, committed_at)

    monkeypatch.setattr(live, "load_snapshot", load)
    monkeypatch.setattr(live, "render_seat", render)
    live.forget(room.pk)
    await _push(hub, local, room.pk, room.version)
    assert sorted(rendered) == ["p0", "p1", "p3", "p4"]
    assert sockets[2].sent == [] and all(len(s.sent) == 1 for s in sockets if s is not sockets[2])
    assert hub.stats["sockets"] == 4 and (reads.jobs, renders.jobs) == (1, 0)


async def test_a_failed_read_is_logged_and_the_pending_version_still_pushed(
        five_humans, pools, monkeypatch, caplog):
    room, users = five_humans
    sockets = [Socket(room.pk, user) for user in users]
    hub, local = _hub(room.pk, sockets)
    real_load = live.load_snapshot
    failures = []

    def load(room_id, kept=None):
        if not failures:
            failures.append(1)
            raise RuntimeError("the read failed")
        return real_load(room_id, kept)

    monkeypatch.setattr(live, "load_snapshot", load)
    live.forget(room.pk)
    local.pending = (room.version, None)  # announced again while the first push ran
    with caplog.at_level(logging.ERROR, logger="games.live.fanout"):
        await _push(hub, local, room.pk, room.version)
    assert any("push of room" in r.getMessage() and "the read failed" in (r.exc_text or "")
               for r in caplog.records), caplog.text
    assert all(s.sent_version == room.version for s in sockets)
    assert live._inflight == {}


async def test_a_failed_render_is_logged_and_the_others_sent(five_humans, pools, monkeypatch, caplog):
    reads, renders = pools
    room, users = five_humans
    sockets = [Socket(room.pk, user) for user in users]
    hub, local = _hub(room.pk, sockets)
    real_render = live.render_seat

    def render(snap, user, version, committed_at):
        if user.pk == users[3].pk:
            raise RuntimeError("p3's render failed")
        return real_render(snap, user, version, committed_at)

    monkeypatch.setattr(live, "render_seat", render)
    live.forget(room.pk)
    with caplog.at_level(logging.ERROR, logger="games.live.fanout"):
        await _push(hub, local, room.pk, room.version)
    assert any("rendering room" in r.getMessage() for r in caplog.records), caplog.text
    assert [bool(s.sent) for s in sockets] == [True, True, True, False, True]
    assert (reads.jobs, renders.jobs) == (1, 0)


async def test_a_failure_after_the_read_falls_back_to_the_render_pool(five_humans, pools, monkeypatch, caplog):
    reads, renders = pools
    room, users = five_humans
    sockets = [Socket(room.pk, user) for user in users]
    hub, local = _hub(room.pk, sockets)
    real_all = fanout._render_all
    calls = []

    def render_all(*args):
        calls.append(threading.current_thread().name)
        if len(calls) == 1:
            raise RuntimeError("the job's render failed")
        return real_all(*args)

    monkeypatch.setattr(fanout, "_render_all", render_all)
    live.forget(room.pk)
    with caplog.at_level(logging.ERROR, logger="games.live.snapshots"):
        await _push(hub, local, room.pk, room.version)
    assert any("after reading room" in r.getMessage() for r in caplog.records), caplog.text
    assert (reads.jobs, renders.jobs) == (1, 1)
    assert calls[0].startswith("live-db-test") and calls[1].startswith("render-test")
    assert all(s.sent_version == room.version for s in sockets)
    assert live.cached(room.pk, room.version) is not None  # the snapshot was kept all the same


async def test_a_taken_render_slot_sends_the_render_to_the_pool(five_humans, pools, monkeypatch):
    reads, renders = pools
    room, users = five_humans
    sockets = [Socket(room.pk, user) for user in users]
    hub, local = _hub(room.pk, sockets)
    slots = threading.BoundedSemaphore(1)
    monkeypatch.setattr(fanout, "_render_slots", slots)
    live.forget(room.pk)
    slots.acquire()  # another push renders
    task = asyncio.get_running_loop().create_task(_push(hub, local, room.pk, room.version))
    for _ in range(200):
        if renders.jobs:
            break
        await asyncio.sleep(0.02)
    assert (reads.jobs, renders.jobs) == (1, 1)
    await asyncio.sleep(0.1)
    assert not task.done() and all(s.sent == [] for s in sockets), "rendered without the slot"
    slots.release()
    await asyncio.wait_for(task, 10)
    assert all(s.sent_version == room.version for s in sockets)


async def test_renders_never_exceed_the_render_threads(make_user, multipliers, pools, monkeypatch):
    """Four rooms pushed at once, reads in two threads and one render pool
    thread: never more than one render at a time."""
    reads, renders = pools

    def rooms():
        out = []
        for r in range(4):
            users = [make_user(f"r{r}p{i}") for i in range(5)]
            room = services.create_room(users[0], "baohuang", f"room {r}", turn_seconds=30, bot_delay_ms=0)
            for i, user in enumerate(users[1:], start=1):
                services.take_seat(room, user, i)
            for user in users:
                services.set_ready(room, user, True)
            room.refresh_from_db()
            out.append((room, users))
        return out

    made = await database_sync_to_async(rooms)()
    monkeypatch.setattr(fanout, "_render_slots", threading.BoundedSemaphore(1))
    active, peak, lock = [0], [0], threading.Lock()
    real_all = fanout._render_all

    def render_all(*args):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        try:
            threading.Event().wait(0.05)
            return real_all(*args)
        finally:
            with lock:
                active[0] -= 1

    monkeypatch.setattr(fanout, "_render_all", render_all)
    hub = fanout.Hub(None)
    pushes = []
    all_sockets = []
    for room, users in made:
        live.forget(room.pk)
        local = fanout._Room()
        sockets = [Socket(room.pk, user) for user in users]
        all_sockets += sockets
        local.members.update(sockets)
        hub.rooms[room.pk] = local
        pushes.append(_push(hub, local, room.pk, room.version))
    await asyncio.wait_for(asyncio.gather(*pushes), 30)
    assert peak[0] == 1
    assert all(s.sent for s in all_sockets)
    assert reads.jobs == 4 and hub.stats["pushes"] == 4


async def test_a_socket_asking_for_the_version_shares_the_push_read(five_humans, pools, monkeypatch):
    reads, renders = pools
    room, users = five_humans
    sockets = [Socket(room.pk, user) for user in users]
    hub, local = _hub(room.pk, sockets)
    live.forget(room.pk)
    before = live.stats["reads"]
    push = asyncio.get_running_loop().create_task(_push(hub, local, room.pk, room.version))
    await asyncio.sleep(0)  # the push's read is in flight
    assert (room.pk, room.version) in live._inflight
    snap = await live.snapshot(room.pk, room.version)
    await push
    assert snap is not None and snap.version == room.version
    assert live.stats["reads"] - before == 1 and reads.jobs == 1
    assert live._inflight == {}
