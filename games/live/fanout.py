"""One channel-layer subscription per room and process for the table sockets.

A commit is announced once to the room's group (``room-<id>``,
:func:`games.live.notify.table_changed`).  If every table socket were a member of
that group, channels-redis would queue one copy of the message per socket,
each daphne would pop them one by one, and each socket would hop to a thread
of its own to render.  Instead each process keeps one :class:`Hub` per event
loop: the hub's single channel is the group's only member from this process,
and the hub

* renders every local socket of the room in **one** thread job from the one
  snapshot of that version (:func:`games.live.snapshots.snapshot`), each socket with its
  own seat, language and user (:func:`games.live.snapshots.render_seat`): hidden
  information stays per connection exactly as before; each audience once
  (:func:`games.live.snapshots.audience`: a seat's sockets, or the spectators
  who differ in nothing the fragment shows, in one language, share one render).
  A push that reads its snapshot renders in the read's own job, in the read
  pool's thread (:func:`games.live.snapshots.snapshot_then`, :func:`_prepare`):
  one thread hand-off and one wake-up of the event loop per push; a kept
  snapshot, a watch rule to ask or every render slot taken
  (:data:`_render_slots`) renders in the render pool instead;
* coalesces: while a room's push is being rendered, newer announcements of the
  same room are kept as one pending version, pushed when the render finishes
  (a socket never gets an older version than it already has, and a busy
  process renders the newest state once instead of every state in between);
* decides, for the sockets an app's watch rule guards (a club's event
  tables), whether each may see that version, from the same snapshot
  and in one read-pool job for all of them (:func:`games.live.snapshots.watch_verdicts`):
  a refused socket closes with 4403 before the version is rendered for it;
* passes the room's chat lines (``chat.posted``) to each local socket.

Membership changes are serialised by one lock per hub: the hub joins a room's
group with the room's first local socket and leaves it with the last.  Group
memberships live in Redis, which keeps nothing across a restart, and expire
after channels-redis' ``group_expiry``: the hub adds its rooms again after a
failed receive (Redis back) and every :data:`REFRESH_S` seconds, so a
restarted Redis does not silence the open sockets.

The channel layer still carries only the room, the version and the commit
time (and a chat line's id): never a card.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor

from channels.layers import get_channel_layer

from games.live import snapshots as live, notify
from games.render.memo import rendering_in

log = logging.getLogger(__name__)

#: Seconds between two re-subscriptions of every room of a hub (group
#: memberships expire in channels-redis, and vanish when Redis restarts).
REFRESH_S = 600.0
#: Seconds to wait after a failed receive before trying again.
RETRY_S = 0.5
#: Seconds to wait for the receive to end when the last socket leaves.
STOP_S = 2.0

#: Threads rendering pushes (a render is pure Python: more threads than one
#: only contend for the GIL with the event loop and the read pool).
RENDER_THREADS = max(1, int(os.environ.get("GAMES_RENDER_THREADS", "1")))
_render_pool = ThreadPoolExecutor(max_workers=RENDER_THREADS, thread_name_prefix="render")
#: Renders running at once, in the render pool or in a read-pool thread right
#: after its read (:func:`_prepare`): at most :data:`RENDER_THREADS`.
_render_slots = threading.BoundedSemaphore(RENDER_THREADS)

_hubs: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub]" = weakref.WeakKeyDictionary()


def hub() -> "Hub":
    """The running event loop's hub (created on first use)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub(get_channel_layer())
    return found


def _render_all(snap, viewers, version, committed_at) -> tuple[list[str | None], int]:
    """Each ``(language, user)`` of ``viewers``' fragment of ``snap`` (in one
    worker thread, no query), and how many renders that took: viewers of
    one audience (:func:`games.live.snapshots.audience`: the same seat, or
    spectators who differ in nothing the fragment shows) in one language
    share one render, the same string.  The viewers of one language are
    rendered together, that language activated once for all of them
    (:func:`games.render.memo.rendering_in`: Django's ``translation.override``
    once per language, not once per viewer); the list returned is in
    ``viewers``' order.  None for a viewer whose render failed (logged)."""
    out: list[str | None] = [None] * len(viewers)
    by_language: dict[str, list[int]] = {}
    for i, (language, _user) in enumerate(viewers):
        by_language.setdefault(language, []).append(i)
    done: dict = {}
    for language, indexes in by_language.items():
        with rendering_in(language):
            for i in indexes:
                user = viewers[i][1]
                try:
                    key = (language, live.audience(snap, user))
                    html = done.get(key)
                    if html is None:
                        html = done[key] = live.render_seat(snap, user, version, committed_at)
                    out[i] = html
                except Exception:
                    log.exception("rendering room %s version %s failed", snap.room.pk, snap.version)
    return out, len(done)


def _render_held(snap, viewers, version, committed_at) -> tuple[list[str | None], int]:
    """:func:`_render_all` in a render slot (:data:`_render_slots`; a job of
    the render pool: it waits for a slot)."""
    with _render_slots:
        return _render_all(snap, viewers, version, committed_at)


def _prepare(snap, members, version, committed_at):
    """What a push does after its read, in the read pool's thread that read
    ``snap`` (:func:`games.live.snapshots.snapshot_then`), so that the common
    push is one thread job: ``members`` that still lack ``snap``'s version
    (stale ones dropped, as after any read), then

    * when some of them are guarded and the watch rules must be asked
      (:func:`games.live.snapshots.allowed_without_asking` false): the
      verdicts, in this same job (:func:`games.live.snapshots._decide`, the
      connection kept as the read keeps it), and no render: the event loop
      refuses the refused sockets first, then renders (the render pool);
    * otherwise, when a render slot is free (:data:`_render_slots`: never
      more renders at once than :data:`RENDER_THREADS`, whichever thread
      runs them), their renders (:func:`_render_all`, each viewer its own
      seat's); when none is, no render (the render pool does it).

    ``(targets, guarded, verdicts or None, (htmls, renders) or None)``.
    Reads only the members' plain attributes (``sent_version``, ``guarded``,
    ``user``, ``language``); sending stays on the event loop."""
    targets = [m for m in members if m.sent_version < snap.version]
    guarded = [m for m in targets if getattr(m, "guarded", False)]
    if not targets:
        return targets, guarded, None, None
    if guarded:
        users = [m.user for m in guarded]
        if not live.allowed_without_asking(snap, users):
            return targets, guarded, live._decide(snap, users), None
    if not _render_slots.acquire(blocking=False):
        return targets, guarded, None, None
    try:
        rendered = _render_all(snap, [(m.language, m.user) for m in targets], version, committed_at)
    finally:
        _render_slots.release()
    return targets, guarded, None, rendered


async def _logged(coro) -> None:
    """Await ``coro``, logging (not raising) what it raises."""
    try:
        await coro
    except Exception:
        log.exception("table hub: delivering a chat line failed")


class _Room:
    """The local sockets of one room and its push in progress."""

    __slots__ = ("members", "busy", "pending")

    def __init__(self):
        self.members: set = set()
        self.busy = False
        self.pending: tuple[int, int | None] | None = None


class Hub:
    """The table sockets of one event loop, by room (see the module docstring).

    A member is any object with ``room_id``, ``language``, ``user``,
    ``sent_version`` (int), an async ``deliver(version, html)`` and an async
    ``chat_posted(event)``: :class:`games.live.consumers.TableConsumer`.  A
    member whose ``guarded`` is true (an app's watch rule has a say about the
    room) is sent a version only if
    :func:`games.live.snapshots.watch_verdicts` allows it, decided once per
    room version for all such members of the room together; a refused one
    is not rendered for, and its async ``refuse()`` is awaited instead (the
    socket closes with 4403; a member whose ``refused`` is true is skipped
    until it leaves)."""

    def __init__(self, layer):
        self.layer = layer
        self.channel: str | None = None
        self.rooms: dict[int, _Room] = {}
        self.subscribed: set[int] = set()
        self.lock = asyncio.Lock()
        self.task: asyncio.Task | None = None
        #: pushes rendered, announcements folded into a pending one, renders (one
        #: per audience and language), sockets sent to, and watch-verdict jobs (one
        #: per room version with guarded sockets), and pushes rendered by a job of
        #: the render pool (the others in their read's job): tests, bench
        self.stats = {"pushes": 0, "coalesced": 0, "renders": 0, "sockets": 0, "verdicts": 0, "hops": 0}

    # membership --------------------------------------------------------
    async def join(self, room_id: int, member) -> None:
        """Add ``member`` to ``room_id``'s local sockets (subscribing the hub
        to the room's group if it is the first)."""
        async with self.lock:
            await self._start()
            self.rooms.setdefault(room_id, _Room()).members.add(member)
            if room_id not in self.subscribed:
                await self.layer.group_add(notify.room_group(room_id), self.channel)
                self.subscribed.add(room_id)

    async def leave(self, room_id: int, member) -> None:
        """Remove ``member``; the hub leaves the room's group with its last socket."""
        async with self.lock:
            room = self.rooms.get(room_id)
            if room is not None:
                room.members.discard(member)
                if room.members:
                    return
                self.rooms.pop(room_id, None)
            if room_id in self.subscribed and self.channel is not None:
                self.subscribed.discard(room_id)
                with contextlib.suppress(Exception):  # Redis down: the membership expires
                    await self.layer.group_discard(notify.room_group(room_id), self.channel)
            if not self.rooms:
                await self._stop()

    async def _start(self) -> None:
        """Start receiving, on a new channel: a receive that ended took its
        channel with it (channels-redis' pub/sub layer unsubscribes a channel
        whose receive is cancelled, and refuses to add it to a group again),
        so the rooms still held move from the old channel to the new one."""
        if self.task is None or self.task.done():
            old, self.channel = self.channel, await self.layer.new_channel()
            for room_id in list(self.subscribed):
                group = notify.room_group(room_id)
                if old is not None:
                    with contextlib.suppress(Exception):
                        await self.layer.group_discard(group, old)
                await self.layer.group_add(group, self.channel)
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def _stop(self) -> None:
        """Stop receiving (the last socket left); the next join starts again.
        As channels' own consumers do, the receive is cancelled and awaited
        (for at most :data:`STOP_S`)."""
        task, self.task = self.task, None
        if task is not None and not task.done():
            task.cancel()
            await asyncio.wait([task], timeout=STOP_S)

    async def _resubscribe(self) -> None:
        async with self.lock:
            for room_id in list(self.subscribed):
                await self.layer.group_add(notify.room_group(room_id), self.channel)

    # receiving ----------------------------------------------------------
    async def _run(self) -> None:
        refreshed = time.monotonic()
        lost = False
        while True:
            try:
                if lost or time.monotonic() - refreshed > REFRESH_S:
                    await self._resubscribe()
                    refreshed, lost = time.monotonic(), False
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                if asyncio.current_task().cancelling():
                    raise asyncio.CancelledError from None  # stopping: a cleanup error is not a reason to go on
                log.warning("table hub: receive failed; retrying", exc_info=True)
                lost = True
                await asyncio.sleep(RETRY_S)
                continue
            self.dispatch(message)

    def dispatch(self, message: dict) -> None:
        """Handle one group message (without waiting for its pushes)."""
        try:
            room_id = int(message.get("room"))
        except (TypeError, ValueError):
            return
        room = self.rooms.get(room_id)
        if room is None:
            return
        kind = message.get("type")
        if kind == "table.changed":
            version = int(message.get("version") or 0)
            if room.busy:
                if room.pending is None or room.pending[0] < version:
                    room.pending = (version, message.get("committed_at"))
                self.stats["coalesced"] += 1
                return
            room.busy = True
            asyncio.get_running_loop().create_task(
                self._push(room_id, room, version, message.get("committed_at"))
            )
        elif kind == "chat.posted":
            for member in list(room.members):
                asyncio.get_running_loop().create_task(_logged(member.chat_posted(message)))

    async def _push(self, room_id: int, room: _Room, version: int, committed_at) -> None:
        try:
            while True:
                try:
                    await self._render_and_send(room_id, room, version, committed_at)
                except Exception:
                    log.exception("push of room %s version %s failed", room_id, version)
                if room.pending is None:
                    return
                (version, committed_at), room.pending = room.pending, None
        finally:
            room.busy = False

    async def _render_and_send(self, room_id: int, room: _Room, version: int, committed_at) -> None:
        targets = [m for m in room.members if m.sent_version < version and not getattr(m, "refused", False)]
        if not targets:
            return
        # the read and, in the same read-pool job, the targets' renders (:func:`_prepare`);
        # a kept or shared snapshot comes without them (done is None)
        snap, done = await live.snapshot_then(room_id, version, _prepare, targets, version, committed_at)
        if snap is None:
            return
        if done is None:
            targets = [m for m in targets if m.sent_version < snap.version]
            guarded = [m for m in targets if getattr(m, "guarded", False)]
            users = [m.user for m in guarded]
            verdicts = rendered = None
            # an app's watch rule: decided from this snapshot, for all of them at once;
            # no job when all of them are seated (a private room's players)
            if guarded and not live.allowed_without_asking(snap, users):
                verdicts = await live.ask_watch_rules(snap, users)
        else:
            targets, guarded, verdicts, rendered = done
            if verdicts is not None:
                live.stats["verdicts"] += 1  # asked in the read's job (live._decide)
        if verdicts is not None:
            self.stats["verdicts"] += 1
            refused = {m for m, allowed in zip(guarded, verdicts) if not allowed}
            if refused:
                targets = [m for m in targets if m not in refused]
                for member in refused:
                    await member.refuse()
        if not targets:
            return
        if rendered is None:
            self.stats["hops"] += 1
            viewers = [(m.language, m.user) for m in targets]
            context = contextvars.copy_context()
            rendered = await asyncio.get_running_loop().run_in_executor(
                _render_pool, context.run, _render_held, snap, viewers, version, committed_at
            )
        htmls, renders = rendered
        self.stats["pushes"] += 1
        self.stats["renders"] += renders
        self.stats["sockets"] += len(targets)
        for member, html in zip(targets, htmls):
            if html is not None:
                await member.deliver(snap.version, html)
