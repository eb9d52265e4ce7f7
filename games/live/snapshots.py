"""One database read per room version per process for the live table sockets.

When a commit is announced (``table.changed``, version N) every socket of the
room in this process must push its own seat's view.  The reads behind that
view (room, seats, hand, action log, score sheet …) do not depend on the seat,
so they are taken once, as a :class:`games.render.tables.TableSnapshot`, and shared:

* :func:`snapshot` is single-flight: the first socket asking for ``(room, N)``
  starts the read (in this module's small read pool, :data:`DB_THREADS`), the others
  await the same future;
* the newest snapshot of each room is kept in the one room-state cache
  (:mod:`games.services.roomcache`, keyed by room and version, LRU) and
  served to a socket asking for version N only when its version is at least N.
  A later commit always carries a larger version, so a snapshot older than
  the newest announced commit is never served; a snapshot *newer* than the
  event is fine (the page then shows the newer commit, which is what the
  socket would have read from the database anyway);
* a read of version N starts from the kept snapshot of an older version when
  only moves happened since (:func:`step_snapshot`: one statement for the room's
  row, the seats' columns and the new actions; the engine state extended by
  them); anything else (a connect, a deal, a completed hand, a seat change, a
  version without an action) reads the room in full (:func:`table_snapshot`).

Each socket then renders its own seat with :func:`render_seat`, which makes no
query (the snapshot is complete): hidden information stays per connection.
The snapshot never leaves the process; the channel layer still carries only
the version and the commit time.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import wait as wait_all

from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, close_old_connections, connections
from django.db.models import F

from games import embargo, seating, services
from games.models import Room, Seat
from games.services import roomcache
from games.services.prepared import Prepared
from games.render.regions import TableHtml
from games.render.tables import TableSnapshot, hidden_links, render_table_parts, seat_of, table_snapshot

# How htmx applies a pushed table is the one word of every push
# (:data:`games.live.group_push.PUSH_SWAP`): idiomorph's htmx extension
# (static/vendor/idiomorph-ext.min.js, loaded by the room page) morphs the
# page's ``#table`` into the pushed one, so its elements stay (the selected
# cards, a played card's animation, no new largest paint per push).
from .group_push import PUSH_SWAP

log = logging.getLogger(__name__)

#: Threads reading snapshots side by side (each holds its own database
#: connection, kept for ``CONN_MAX_AGE``): reads of different rooms overlap
#: instead of queueing in channels' single thread-sensitive thread.
DB_THREADS = max(1, int(os.environ.get("GAMES_LIVE_DB_THREADS", "4")))
_db_pool = ThreadPoolExecutor(max_workers=DB_THREADS, thread_name_prefix="live-db")

#: A room's seats with their users and the room, in seat order (compiled once per thread),
#: each with ``embargo_room``: whether the room may hide links to its hands (games.embargo),
#: and what the apps show beside a seated name (games.seating.annotate_seats).
_SEATS = Prepared(
    "live seats",
    lambda room_id: seating.annotate_seats(embargo.annotate_seats(
        Seat.objects.filter(room_id=room_id).select_related("user", "room")
    )).order_by("index"),
)

#: The kind of entry the snapshots are in :mod:`games.services.roomcache`.
KIND = "snapshot"
_inflight: dict[tuple[int, int | None], asyncio.Future] = {}
#: Reads done by this process, and watch-verdict jobs (tests and the benchmark's curiosity).
stats = {"reads": 0, "shared": 0, "verdicts": 0, "steps": 0, "fallbacks": 0}


#: Seconds a read-pool thread keeps its database connection after a read
#: (0: it gives it back to the pool after every read).  Taking a connection
#: from Django's pool and giving it back costs a daphne about 0.2-0.3 ms of CPU
#: per read (Django's connect and close, the pool's health check: an empty
#: statement and its round trip), as much as the stepped read itself; a busy
#: process reads every few milliseconds, so each thread keeps its connection
#: between reads, and an idle one gives it back (:func:`_release_idle`).  A
#: kept connection broken meanwhile (the database restarted) fails its read
#: once, which is retried on a fresh connection from the pool (checked).
HOLD_S = float(os.environ.get("GAMES_LIVE_DB_HOLD_S", "2"))
#: At most this many read-pool threads keep a connection of the process's
#: database pool at once (half of ``DB_POOL_MAX_SIZE``: the other half stays
#: for the requests; every thread when there is no pool).
HOLD_MAX = int(os.environ.get("GAMES_LIVE_DB_HOLD_MAX", "-1"))
_held = threading.local()
_release = {"last": 0.0, "timer": None, "held": 0}
_release_lock = threading.Lock()


def _read(room_id: int, kept: TableSnapshot | None = None) -> TableSnapshot | None:
    """:func:`load_snapshot` in a pool thread, with the thread's connection
    kept between reads (:data:`HOLD_S`); a kept connection that fails the read
    is closed and the read tried once more on a fresh one."""
    _take()
    try:
        try:
            return load_snapshot(room_id, kept)
        except (InterfaceError, OperationalError):
            if not getattr(_held, "on", False):
                raise
            _drop()
            _take()
            return load_snapshot(room_id, kept)
    finally:
        _keep()


def _take() -> None:
    """Before a pool thread's job: close its connection when broken, left in a
    transaction, or kept past :data:`HOLD_S` (``close_old_connections``, with
    the connection's ``close_at`` set by :func:`_keep`)."""
    close_old_connections()
    if getattr(_held, "on", False) and connections[DEFAULT_DB_ALIAS].connection is None:
        _count_held(-1)


def _hold_max() -> int:
    """How many read-pool threads may keep a connection at once (:data:`HOLD_MAX`)."""
    if HOLD_MAX >= 0:
        return HOLD_MAX
    pool = connections[DEFAULT_DB_ALIAS].settings_dict.get("OPTIONS", {}).get("pool")
    if isinstance(pool, dict) and pool.get("max_size"):
        return int(pool["max_size"]) // 2
    return DB_THREADS


def _keep() -> None:
    """After a pool thread's job: keep its connection for :data:`HOLD_S` more
    seconds (or give it back now: ``HOLD_S`` 0, :func:`_hold_max` threads keep
    one already, or it is not in working order)."""
    conn = connections[DEFAULT_DB_ALIAS]
    if HOLD_S > 0 and conn.connection is not None and (getattr(_held, "on", False) or _claim()):
        conn.close_at = time.monotonic() + HOLD_S
    close_old_connections()
    if conn.connection is not None:
        _arm_release()
    elif getattr(_held, "on", False):
        _count_held(-1)


def _claim() -> bool:
    """Count this thread among those keeping a connection, if fewer than :func:`_hold_max` do."""
    cap = _hold_max()
    with _release_lock:
        if _release["held"] >= cap:
            return False
        _release["held"] += 1
    _held.on = True
    return True


def _drop() -> None:
    """Close the pool thread's connection (given back to the pool)."""
    connections[DEFAULT_DB_ALIAS].close()
    if getattr(_held, "on", False):
        _count_held(-1)


def _count_held(delta: int) -> None:
    """This thread keeps a connection (``delta`` 1) or no longer does (-1)."""
    _held.on = delta > 0
    with _release_lock:
        _release["held"] += delta


def _arm_release() -> None:
    """Note a read's end; start the idle timer unless it runs."""
    with _release_lock:
        _release["last"] = time.monotonic()
        if _release["timer"] is None:
            timer = _release["timer"] = threading.Timer(HOLD_S, _release_idle)
            timer.daemon = True
            timer.start()


def _give_back() -> None:
    """A pool job: give this thread's kept connection back if it is past its hold."""
    if getattr(_held, "on", False):
        _take()


def _release_idle() -> None:
    """The idle timer: when no read ended for :data:`HOLD_S` seconds, ask the
    pool threads that keep a connection to give it back (one small job per
    kept connection; a thread asked twice does nothing the second time, and
    the timer asks again until none is kept); otherwise wait out the rest."""
    with _release_lock:
        idle = time.monotonic() - _release["last"]
        held = _release["held"]
        _release["timer"] = None
        if held <= 0:
            return
        wait = HOLD_S - idle if idle < HOLD_S else HOLD_S / 4
        timer = _release["timer"] = threading.Timer(max(wait, 0.05), _release_idle)
        timer.daemon = True
        timer.start()
    if idle >= HOLD_S:
        for _ in range(held):
            try:
                _db_pool.submit(_give_back)
            except RuntimeError:  # shut down
                return


def close_connections() -> None:
    """Close the database connection of every pool thread (tests: a
    PostgreSQL test database cannot be dropped while they are open)."""
    threads = len(getattr(_db_pool, "_threads", ()) or ())
    if not threads:
        return
    barrier = threading.Barrier(DB_THREADS)

    def close():
        _drop()
        connections.close_all()
        barrier.wait(timeout=10)  # one task per thread: every thread closes its own

    wait_all([_db_pool.submit(close) for _ in range(DB_THREADS)], timeout=15)


#: A stepped snapshot (:func:`step_snapshot`) at most this many versions
#: from the room's last full read: what no room version covers (a player's
#: name, the apps' seat notes, a result note added after the commit) is read
#: again at least this often, and at every deal, completed hand and seat change.
FULL_READ_EVERY = int(os.environ.get("GAMES_LIVE_FULL_READ_EVERY", "40"))

#: The room's row (joined), its seats' own columns and the current hand's
#: ``complete``/``start`` with each action from ``seq`` on, in one statement:
#: one row per (new action, seat), actions in order.  No row when the hand
#: has no action from ``seq`` on (or the room is gone).
_STEP = Prepared(
    "live step",
    lambda room_id, hand_id, seq: Seat.objects.filter(
        room_id=room_id, room__matches__hands__id=hand_id, room__matches__hands__actions__seq__gte=seq,
    ).select_related("room").annotate(
        step_seq=F("room__matches__hands__actions__seq"),
        step_payload=F("room__matches__hands__actions__payload"),
        step_complete=F("room__matches__hands__complete"),
        step_start=F("room__matches__hands__start"),
    ).order_by("step_seq", "index"),
)


def _moved(old, room):
    """The kept seat ``old`` (equal in every column to the seat's fresh row)
    in the snapshot of ``room``: a copy with its user and the apps'
    annotations, joined to ``room`` (one object for the snapshot)."""
    seat = _clone(old)
    seat._state.fields_cache["room"] = room
    return seat


def _clone(obj):
    """A shallow copy of the model instance ``obj`` with its own state and
    joined-objects cache (``copy.copy`` of a model, or of its ``ModelState``,
    goes through pickling's protocol: several times slower; this is the
    same shallow copy of each one's attributes)."""
    new = obj.__class__.__new__(obj.__class__)
    new.__dict__.update(obj.__dict__)
    old_state = obj._state
    state = new._state = old_state.__class__.__new__(old_state.__class__)
    state.__dict__.update(old_state.__dict__)
    state.fields_cache = dict(old_state.fields_cache)
    return new


def steppable(kept: TableSnapshot | None) -> bool:
    """Whether a newer version of ``kept``'s room may be built from ``kept``
    by :func:`step_snapshot`: a live hand in play, not a room whose completed
    hands an app may hide (their links are asked again at every full read),
    fewer than :data:`FULL_READ_EVERY` steps from its last full read."""
    return (
        kept is not None and kept.replay_total is None and kept.hand is not None
        and not kept.hand.complete and bool(kept.seats)
        and not getattr(kept.seats[0], "embargo_room", False)
        and kept.steps + 1 < FULL_READ_EVERY
    )


def step_snapshot(kept: TableSnapshot) -> TableSnapshot | None:
    """The room of ``kept`` at its current version, built from ``kept`` and
    what changed since, in one statement (:data:`_STEP`: the room's row, its
    seats' own columns, the hand's ``complete`` and ``start``, the actions
    appended since ``kept``); None when that is not enough to be exact, and
    the caller reads the room in full (:func:`table_snapshot`).

    Exact only when every version since ``kept`` was one move on ``kept``'s
    hand: each version bump of a move appends one action to the hand (and
    nothing the snapshot shows but the room's row, read again here), so the
    step is taken only when the new version is ``kept``'s plus the number of
    new actions (at least one), the seats' columns are ``kept``'s (no seat
    taken, left, readied or put on 托管), and the hand is still in play with
    the same carry-in.  A deal (a new hand), a completed hand (the score
    sheet, the result panel), a seat change, a settlement (it comes with a
    leaver's seat) or any other version bump without an action falls back.
    The engine state is ``kept``'s with the new actions applied
    (:func:`games.services.extend_state`); everything else (seats and users,
    score sheet, previous hand, settlement, notes, the seats' words) is
    ``kept``'s (the seats are copies of ``kept``'s, whose every column the
    statement's rows were checked to equal, joined to the new room), the room
    and the hand's action count are new.  The statement's rows are read as
    the driver returns them (:meth:`games.services.prepared.Prepared.fetch`):
    the room is built from the first row only, each new action's payload
    decoded once, and no seat instance built.  Call :func:`steppable` first."""
    hand = kept.hand
    # the rows as the driver returns them: a row per (new action, seat), but
    # the room built once, each payload decoded once, the seats compared by
    # their columns and not built (they are the kept ones when unchanged)
    fetched = _STEP.fetch(kept.room.pk, hand.pk, kept.action_count)
    rows = fetched.rows
    if not rows:
        return None
    nseats = len(kept.seats)
    if len(rows) % nseats:
        return None
    new = len(rows) // nseats
    room = fetched.related(rows[0])
    if room is None or room.version != kept.version + new:
        return None
    seq_at = (fetched.annotation("step_seq"),)
    first = kept.action_count
    for i, row in enumerate(rows):
        if fetched.convert(row, seq_at)[0] != first + i // nseats:
            return None
    complete, start = fetched.convert(rows[0], (fetched.annotation("step_complete"), fetched.annotation("step_start")))
    if complete or start != hand.start:
        return None
    names, positions = fetched.columns()
    for row, old in zip(rows, kept.seats):  # the first action's rows: each seat once, in order
        if fetched.convert(row, positions) != [getattr(old, name) for name in names]:
            return None
    payload_at = (fetched.annotation("step_payload"),)
    payloads = [fetched.convert(rows[k * nseats], payload_at)[0] for k in range(new)]
    count = first + new
    state = services.extend_state(hand, kept.state, first, payloads)
    seats = tuple(_moved(old, room) for old in kept.seats)
    hand = _clone(hand)
    hand.n_actions = count
    stepped = dataclasses.replace(
        kept, room=room, seats=seats, hand=hand, action_count=count, state=state, steps=kept.steps + 1,
    )
    object.__setattr__(stepped, "shared", kept.shared)  # the seats' words: the same seats
    stats["steps"] += 1
    return stepped


def load_snapshot(room_id: int, kept: TableSnapshot | None = None) -> TableSnapshot | None:
    """Read room ``room_id`` from the database (synchronous); None if gone.
    The room comes joined to its seats (one query for both).  ``kept`` (an
    older snapshot of the room, e.g. the one kept for the previous version)
    is stepped to the current version when that is exact
    (:func:`step_snapshot`, one statement), else the room is read in full."""
    if steppable(kept) and kept.room.pk == room_id:
        stepped = step_snapshot(kept)
        if stepped is not None:
            stats["reads"] += 1
            return stepped
        stats["fallbacks"] += 1
    seats = tuple(_SEATS.objects(room_id))
    if seats:
        room = seats[0].room
        for seat in seats:
            seat.room = room  # one Room object for the snapshot
    else:  # a room without seats (never made by the services), or gone
        room = Room.objects.filter(pk=room_id).first()
        if room is None:
            return None
        seats = None
    stats["reads"] += 1
    return table_snapshot(room, seats)


def _remember(snap: TableSnapshot, fresh: bool) -> None:
    """Keep ``snap`` as the room's newest; a ``fresh`` read (a connect)
    always replaces what was kept."""
    roomcache.put(snap.room.pk, snap.version, KIND, snap, replace=fresh)


def cached(room_id: int, version: int) -> TableSnapshot | None:
    """The kept snapshot of ``room_id`` if it is at ``version`` or newer."""
    kept = roomcache.newest(room_id, KIND)
    if kept is not None and kept[0] >= version:
        return kept[1]
    return None


async def snapshot(room_id: int, version: int | None) -> TableSnapshot | None:
    """The room at ``version`` or newer (``None``: read the database now).

    Sockets of one room asking together share one read; a kept snapshot
    at least as new as ``version`` is served without any read.  The one
    reader is :func:`snapshot_then` (with nothing to do after the read)."""
    snap, _ = await snapshot_then(room_id, version, None)
    return snap


def _read_then(room_id: int, kept: TableSnapshot | None, fresh: bool, then, args: tuple):
    """:func:`_read`, then (in the same pool thread, no hand-off) the snapshot
    kept as the room's newest (:func:`_remember`, ``fresh`` for a connect's
    full read: the room-state cache takes its own lock) and, unless ``then``
    is None, ``then(snap, *args)``: ``(snap, what then returned)``,
    ``(None, None)`` for a room gone.  What ``then`` raises is logged and
    its result is None (the caller does that work itself): the snapshot,
    which others may be waiting for, was read."""
    snap = _read(room_id, kept)
    if snap is None:
        return None, None
    _remember(snap, fresh=fresh)
    if then is None:
        return snap, None
    try:
        return snap, then(snap, *args)
    except Exception:
        log.exception("after reading room %s version %s", room_id, snap.version)
        return snap, None


async def snapshot_then(room_id: int, version: int | None, then, *args) -> tuple[TableSnapshot | None, object]:
    """:func:`snapshot` of ``(room_id, version)`` and, when it must be read,
    ``then(snap, *args)`` in the same job of the read pool, right after the
    read: ``(snap, then's result)``.  A kept snapshot (no read), a read
    already in flight (shared) or a ``then`` that raised gives
    ``(snap, None)``: the caller does that work itself; so does ``then``
    None (:func:`snapshot`).  ``version`` None is a connect's read: in full
    (no stepping from the kept snapshot), never served from the cache, and
    it replaces what was kept.

    Reads of one ``(room_id, version)`` on one event loop are shared: the
    first starts the job and registers a future for the key, which the
    others await.  The fan-out's push renders in ``then``
    (:func:`games.live.fanout._prepare`): one thread hand-off and one wake-up
    of the event loop per push instead of two."""
    if version is not None:
        snap = cached(room_id, version)
        if snap is not None:
            stats["shared"] += 1
            return snap, None
    key = (room_id, version)
    loop = asyncio.get_running_loop()
    future = _inflight.get(key)
    if future is not None and future.get_loop() is loop:
        stats["shared"] += 1
        return await asyncio.shield(future), None
    kept = None
    if version is not None:  # a connect (None) reads in full
        newest = roomcache.newest(room_id, KIND)
        kept = newest[1] if newest is not None else None
    context = contextvars.copy_context()
    job = loop.run_in_executor(_db_pool, context.run, _read_then, room_id, kept,
                               version is None, then, args)
    shared = loop.create_future()  # what the other askers of the same key await
    _inflight[key] = shared

    def settle(done: asyncio.Future) -> None:
        if _inflight.get(key) is shared:
            del _inflight[key]
        if done.cancelled():
            shared.cancel()
        elif done.exception() is not None:
            shared.set_exception(done.exception())
            shared.exception()  # retrieved: the job's awaiter raises it (no "never retrieved" log)
        else:
            shared.set_result(done.result()[0])

    job.add_done_callback(settle)
    return await asyncio.shield(job)


def _known_verdicts(snap: TableSnapshot, users) -> list[bool | None]:
    """True for each of ``users`` seated at the room in ``snap`` or staff (no
    query), None for those the watch rules must decide."""
    seated = {s.user_id for s in (snap.seats or ()) if s.user_id is not None}
    out: list[bool | None] = []
    for user in users:
        key = embargo.watcher_key(user)
        out.append(True if key is not None and (key in seated or getattr(user, "is_staff", False)) else None)
    return out


def allowed_without_asking(snap: TableSnapshot, users) -> bool:
    """True when every one of ``users`` may be sent ``snap`` without asking the
    watch rules: each is seated at the room in ``snap`` or staff (no query)."""
    return all(_known_verdicts(snap, users))


def decide_watchers(snap: TableSnapshot, users) -> list[bool]:
    """Whether each of ``users`` (signed in, ``AnonymousUser`` or None) may be
    sent ``snap``, for the sockets whose room an app's watch rule guards
    (synchronous; a table moves on to boards a spectator has not
    played).  Users seated at the room in ``snap`` and staff are allowed
    without a query; the others are decided together by
    :func:`games.embargo.watch_reasons` from the version of ``snap`` (its
    latest hand): a few queries, the same for one spectator or many."""
    out = _known_verdicts(snap, users)
    ask = [user for user, ok in zip(users, out) if ok is None]
    if ask:
        reasons = embargo.watch_reasons(snap.room, ask, hand=snap.hand)
        out = [ok if ok is not None else reasons.get(embargo.watcher_key(user)) is None
               for ok, user in zip(out, users)]
    return out


def _decide(snap: TableSnapshot, users) -> list[bool]:
    """:func:`decide_watchers` in a pool thread (the connection kept as :func:`_read` keeps it)."""
    _take()
    try:
        return decide_watchers(snap, users)
    finally:
        _keep()


async def watch_verdicts(snap: TableSnapshot, users) -> list[bool]:
    """:func:`decide_watchers` in one job of the read pool (the fan-out asks
    once per room version for all its guarded sockets; a socket's first push
    for itself).  No job when every one of ``users`` is seated at the room in
    ``snap`` or staff: the sockets of a private room's players cost nothing
    (:mod:`games.private_rooms` guards every socket of such a room)."""
    users = list(users)
    if allowed_without_asking(snap, users):
        return [True] * len(users)
    return await ask_watch_rules(snap, users)


async def ask_watch_rules(snap: TableSnapshot, users: list) -> list[bool]:
    """:func:`decide_watchers` in one job of the read pool, without
    :func:`watch_verdicts`' no-job shortcut (for a caller that checked
    :func:`allowed_without_asking` itself)."""
    stats["verdicts"] += 1
    context = contextvars.copy_context()
    return await asyncio.get_running_loop().run_in_executor(_db_pool, context.run, _decide, snap, users)


def forget(room_id: int | None = None) -> None:
    """Drop what is kept of one room (its snapshot with every other kind of
    its entry in :mod:`games.services.roomcache`), or of all rooms (tests)."""
    roomcache.forget(room_id)


def audience(snap: TableSnapshot, user) -> tuple:
    """What of ``user`` the table fragment of ``snap`` depends on (no query):
    two viewers with equal audiences (in the same language) are sent the very
    same fragment, so the fan-out renders it once for both
    (:func:`games.live.fanout._render_all`).

    It is everything :func:`games.render.tables.table_context` reads of its
    user: the seat (``None`` for a spectator: a seat's view is that seat's
    alone, hidden roles included, so each seat is an audience of its own), whether the user owns the room, the hands whose links they may not
    open (staff, players-only rooms, embargoed boards), and for a spectator
    the seat they may take back from a bot.  Spectators who differ in none of
    these (most of them) share one render."""
    seats = list(snap.seats or ())
    me = seat_of(seats, user)
    signed_in = user is not None and user.is_authenticated
    owner = signed_in and snap.room.owner_id == user.pk
    hidden = tuple(sorted((k, str(v)) for k, v in hidden_links(snap, user).items()))
    rejoin = services.rejoin_seat(snap.room, seats, snap.hand, user) if me is None else None
    return (me, owner, hidden, rejoin)


def render_seat(snap: TableSnapshot, user, version: int | None, committed_at: int | None) -> TableHtml:
    """The ``#table`` fragment of ``snap`` for ``user``'s own seat (no query).
    ``committed_at`` (the event's commit time) is shown only when the
    snapshot is at the event's ``version``; otherwise the room's own
    ``changed`` time of the newer commit is.  The root carries
    ``hx-swap-oob="morph"`` (:data:`games.live.group_push.PUSH_SWAP`).  The fragment comes with its
    regions (:class:`games.render.regions.TableHtml`): the socket sends only
    those that changed."""
    if version is None or snap.version != version:
        committed_at = None
    return render_table_parts(snap.room, user, committed_at, snapshot=snap, swap_oob=PUSH_SWAP)
