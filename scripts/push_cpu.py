#!/usr/bin/env python3
"""A daphne's CPU per pushed move, in-process against PostgreSQL: the hub's push.

    python scripts/push_cpu.py [--pg postgres://postgres@127.0.0.1:5432] [--pushes 300]
                               [--spectators 1] [--tree DIR] [--db NAME] [--keep]
                               [--stub-renders] [--profile FILE]

Creates a throwaway PostgreSQL database (``test_<--db>``, migrated; dropped
afterwards unless ``--keep``) with the turn runner off, seats five players on
托管 at a 保皇 table and lets the server's turns play (``play_turn``, as a
worker's turn runner does).  After each move it pushes the new version to the
room's table sockets as a daphne's hub does (:meth:`games.live.fanout.Hub._push`
on a running event loop: the snapshot read in the read pool, stepped from the
previous version's, the renders, each socket's partial message), for five
seated sockets and ``--spectators`` anonymous ones, and measures the
process's CPU of that push (``time.process_time``: every thread, the event
loop's, the read pool's and the render pool's; nothing else runs meanwhile)
and its wall time.  After each turn the process forgets what the turn kept
(the worker's room-state entry and hand states, which a daphne does not
have) but the hub's snapshot, so the read is stepped from it as a daphne's
is.  The collector's thresholds are a daphne's
(:func:`config.gc_tuning.tune`).  The first ten pushes (a fresh process's
full reads and empty render caches) are not counted.

``--stub-renders`` makes each seat's render a fixed string (the same in
both trees): the push's read, thread hand-offs and event loop are what is
left to measure.

``--profile FILE`` profiles the counted pushes (cProfile: one profiler on
the event loop's thread around ``Hub._push``, one in the read pool's thread
around its job, ``snapshots._read_then``, added together into FILE, pstats'
format) and prints the CPU milliseconds per push that the collector took
during them (``gc.callbacks``, by generation) and the top functions by
cumulative time per push.  cProfile's own cost inflates every figure (about
two to three times); read the shares, not the milliseconds.

``--split`` (no profiler: its cost would blur them) times the parts of
the counted pushes with each thread's own CPU clock (``time.thread_time``,
inclusive): the event loop's thread during the push, the read pool's job
(``snapshots._read_then``) and in it the connection's ``_take`` and
``_keep``, the read (``load_snapshot``, and in it the step's statement,
the engine state's extension and the rest), keeping the snapshot
(``_remember``), and ``fanout._prepare`` (each viewer's audience, the
renders); the deliveries on the loop.  Prints the CPU ms per push of each
part and what the threads' clocks leave of the process's (other threads,
e.g. the idle timer).  ``--split-again`` runs the step and ``_take`` a
second time right after the first, timed apart: the same work with its
code and data in the caches (the process figures then count both).

``--ab`` (a tree with :data:`games.live.fanout._render_slots`) alternates,
push by push, the two ways a push renders: in its read's job (one thread
hand-off) and, with the render slot made to look taken, in a job of the
render pool after it (two hand-offs, as before "Session 25"): the same code
and the same load, a paired comparison that a shared machine's drift between
two runs does not blur.

``--hop-cost`` measures only what one thread hand-off costs: a job that
does nothing, run from a running event loop in a one-thread pool
(``run_in_executor`` with a copied context, awaited: the submit, the worker
thread's wake-up, the result's call into the loop and the loop's wake-up),
CPU microseconds per round trip, seven rounds of 5,000; no database.

Prints the median and mean CPU and wall milliseconds per push, and how many
pushes were rendered by a job of the render pool (``hops``, a second thread
job after the read's) when the tree's hub counts them.  ``--tree DIR``
imports the site from another checkout (``git archive <commit> | tar -x -C
DIR``): run it interleaved with this checkout's to compare two commits
(docs/performance.md, "Session 25").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

from measure_site import measured_site  # scripts/ is on sys.path when run as a script

REPO = Path(__file__).resolve().parents[1]
WARMUP = 10


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--pushes", type=int, default=300)
    parser.add_argument("--spectators", type=int, default=1)
    parser.add_argument("--tree", default=str(REPO), help="the checkout whose site is measured")
    parser.add_argument("--db", default=f"push_cpu_{os.getpid()}")
    parser.add_argument("--keep", action="store_true", help="keep (and reuse) the database")
    parser.add_argument("--ab", action="store_true",
                        help="alternate pushes rendered in the read's job and in a job of the render pool")
    parser.add_argument("--hop-cost", action="store_true",
                        help="only the CPU of one executor job's round trip from a running event loop")
    parser.add_argument("--stub-renders", action="store_true",
                        help="each seat's render a fixed string: what is left is the read, the hand-offs, the loop")
    parser.add_argument("--profile", default="",
                        help="write the counted pushes' cProfile (loop thread + read job) to this file")
    parser.add_argument("--split", action="store_true",
                        help="CPU ms per push of the push's parts, each thread's own clock (no profiler)")
    parser.add_argument("--split-again", action="store_true",
                        help="with --split: the step and _take run twice, the second timed apart (warm caches)")
    args = parser.parse_args()
    if args.hop_cost:
        return hop_cost()
    with measured_site(args.tree, args.pg, args.db, keep=args.keep, tag="push-cpu", tune_gc=True):
        try:
            run(args)
        finally:
            from games.live import snapshots

            snapshots.close_connections()
    return 0


def hop_cost() -> int:
    """Print the CPU microseconds of one executor round trip (``--hop-cost``)."""
    import contextvars
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(max_workers=1)

    def nothing():
        return None

    async def rounds():
        loop = asyncio.get_running_loop()
        for _ in range(200):
            await loop.run_in_executor(pool, nothing)
        out = []
        for _ in range(7):
            started = time.process_time()
            for _ in range(5000):
                await loop.run_in_executor(pool, contextvars.copy_context().run, nothing)
            out.append((time.process_time() - started) / 5000 * 1e6)
        return out

    spent = asyncio.run(rounds())
    pool.shutdown()
    print(f"executor round trip CPU us: median {statistics.median(spent):.1f}  "
          f"rounds {', '.join(f'{x:.1f}' for x in spent)}")
    return 0


class Taken:
    """A render slot that a read's job never finds free (``--ab``): the push
    renders in a job of the render pool, which waits for the real slot."""

    def __init__(self, real):
        self.real = real

    def acquire(self, blocking=True, timeout=-1):
        return self.real.acquire(blocking, timeout) if blocking else False

    def release(self):
        self.real.release()

    def __enter__(self):
        return self.real.__enter__()

    def __exit__(self, *exc):
        return self.real.__exit__(*exc)


class Socket:
    """A table socket as the hub sees it (games.live.consumers.TableConsumer's
    attributes): its delivery makes the partial message as the consumer's does."""

    guarded = False
    refused = False

    def __init__(self, room_id: int, user):
        self.room_id = room_id
        self.user = user
        self.language = "zh-hans"
        self.sent_version = 0
        self.sent_parts = None
        self.sent = 0

    async def deliver(self, version, html, again=False):
        from games.render import regions

        if version <= self.sent_version:
            return
        self.sent_version = version
        if getattr(html, "parts", None) is not None:
            html, self.sent_parts, _kept = regions.partial(html, self.sent_parts)
        self.sent += 1

    async def chat_posted(self, event):
        pass

    async def refuse(self):
        self.refused = True


class Split:
    """``--split``: inclusive CPU time (``time.thread_time``) of named parts of
    the counted pushes, each measured on the thread that runs it."""

    def __init__(self, snapshots, fanout, services, socket_class, hot=False):
        self.on = False
        self.spent: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self.pushes: list[dict[str, float]] = []  # each counted push's parts (medians)
        wrap = self.wrap
        snapshots._read_then = wrap("read job (_read_then)", snapshots._read_then)
        snapshots._take = wrap("  _take (close_old_connections)", snapshots._take)
        snapshots._keep = wrap("  _keep (close_at, close_old_connections, timer note)", snapshots._keep)
        snapshots.load_snapshot = wrap("  load_snapshot", snapshots.load_snapshot)
        snapshots.step_snapshot = wrap("    step_snapshot", snapshots.step_snapshot)
        if hot:
            snapshots.step_snapshot = self.again("    step_snapshot once more at once (warm caches)",
                                                 snapshots.step_snapshot, snapshots.stats)
            snapshots._take = self.again("  _take once more at once (warm caches)", snapshots._take)
        snapshots._STEP.fetch = wrap("      the step statement (Prepared.fetch)", snapshots._STEP.fetch)
        services.extend_state = wrap("      extend_state (engine)", services.extend_state)
        snapshots._moved = wrap("      seats copied (_moved)", snapshots._moved)
        snapshots._remember = wrap("  _remember (roomcache.put)", snapshots._remember)
        fanout._prepare = wrap("  fanout._prepare", fanout._prepare)
        snapshots.audience = wrap("    audience (per viewer)", snapshots.audience)
        fanout.rendering_in = self.wrap_cm("    rendering_in (per language)", fanout.rendering_in)
        socket_class.deliver = self.wrap_async("loop: deliver (per socket)", socket_class.deliver)

    def _add(self, name, spent):
        if not self.pushes or self.pushes[-1] is None:
            self.pushes.append({})
        self.pushes[-1][name] = self.pushes[-1].get(name, 0.0) + spent
        self.spent[name] = self.spent.get(name, 0.0) + spent
        self.calls[name] = self.calls.get(name, 0) + 1

    def wrap(self, name, func):
        def timed(*args, **kwargs):
            if not self.on:
                return func(*args, **kwargs)
            started = time.thread_time()
            try:
                return func(*args, **kwargs)
            finally:
                self._add(name, time.thread_time() - started)
        return timed

    def again(self, name, func, stats=None):
        """``func``, then (counted pushes) the same call again at once, timed as
        ``name``: what the part costs with its code and data in the caches."""
        def twice(*args, **kwargs):
            out = func(*args, **kwargs)
            if self.on:
                on, self.on = self.on, False  # the inner parts' clocks not counted twice
                started = time.thread_time()
                func(*args, **kwargs)
                self.on = on
                self._add(name, time.thread_time() - started)
                if stats is not None:
                    stats["steps"] -= 1
            return out
        return twice

    def wrap_async(self, name, func):
        async def timed(*args, **kwargs):
            if not self.on:
                return await func(*args, **kwargs)
            started = time.thread_time()
            try:
                return await func(*args, **kwargs)
            finally:
                self._add(name, time.thread_time() - started)
        return timed

    def wrap_cm(self, name, func):
        import contextlib

        @contextlib.contextmanager
        def timed(*args, **kwargs):
            if not self.on:
                with func(*args, **kwargs):
                    yield
                return
            started = time.thread_time()
            with func(*args, **kwargs):
                self._add(name + " enter", time.thread_time() - started)
                yield
                started = time.thread_time()
            self._add(name + " exit", time.thread_time() - started)
        return timed

    def end_push(self):
        self.pushes.append(None)

    def report(self, pushes, process_ms):
        done = [p for p in self.pushes if p]
        print(f"{'part':58} {'mean ms':>8} {'median':>8} {'calls/push':>10}")
        for name, spent in self.spent.items():
            median = statistics.median(p.get(name, 0.0) for p in done)
            print(f"{name:58} {1000 * spent / pushes:8.3f} {1000 * median:8.3f} {self.calls[name] / pushes:10.1f}")
        threads = self.spent.get("loop thread (whole push)", 0) + self.spent.get("read job (_read_then)", 0)
        print(f"{'process CPU (mean)':58} {process_ms:11.3f}")
        print(f"{'  not on the loop thread nor in the read job':58} {process_ms - 1000 * threads / pushes:11.3f}")


class Profiling:
    """``--profile``: a cProfile of the event loop's thread around each counted
    push and one of the read pool's thread around its job
    (``snapshots._read_then``), and the collector's CPU during them."""

    def __init__(self, snapshots):
        import cProfile
        import gc

        # CPU time of the profiled thread, not wall time (which counts the waits)
        self.loop_prof = cProfile.Profile(time.thread_time)
        self.read_prof = cProfile.Profile(time.thread_time)
        self.on = False
        self.gc = {0: 0.0, 1: 0.0, 2: 0.0}
        self.gc_runs = {0: 0, 1: 0, 2: 0}
        self._gc_started = {}
        real = snapshots._read_then

        def read_then(*args):
            if not self.on:
                return real(*args)
            self.read_prof.enable()
            try:
                return real(*args)
            finally:
                self.read_prof.disable()

        snapshots._read_then = read_then
        gc.callbacks.append(self._collector)

    def _collector(self, phase, info):
        import threading

        if not self.on:
            return
        key = threading.get_ident()
        if phase == "start":
            self._gc_started[key] = time.thread_time()
        elif key in self._gc_started:
            generation = info["generation"]
            self.gc[generation] += time.thread_time() - self._gc_started.pop(key)
            self.gc_runs[generation] += 1

    def start(self):
        self.on = True
        self.loop_prof.enable()

    def stop(self):
        self.loop_prof.disable()
        self.on = False

    def report(self, path, pushes):
        import pstats

        pstats.Stats(self.loop_prof).dump_stats(path + ".loop")  # each thread's own too
        pstats.Stats(self.read_prof).dump_stats(path + ".read")
        stats = pstats.Stats(self.loop_prof)
        stats.add(self.read_prof)
        stats.dump_stats(path)
        print(f"profiled {pushes} pushes into {path} (and {path}.loop, {path}.read); the collector's CPU ms per push: "
              + ", ".join(f"gen{g} {1000 * self.gc[g] / pushes:.3f} ({self.gc_runs[g]} runs)" for g in self.gc))
        stats.sort_stats("cumulative").print_stats(60)


def run(args) -> None:
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import AnonymousUser
    from django.utils import timezone

    from games import services
    from games.live import fanout, snapshots
    from games.models import Room, RoomMultiplier
    from games.services import readmodel, roomcache
    from games.runtime.tasks import play_turn

    for value in (1, 2, 5, 10):
        RoomMultiplier.objects.get_or_create(value=value, defaults={"is_default": value == 1})
    tag = f"pc{os.getpid()}u"
    users = [get_user_model().objects.create_user(username=f"{tag}{i}", password="x") for i in range(5)]
    room = services.create_room(users[0], "baohuang", "push cpu", turn_seconds=30, bot_delay_ms=0)
    for i, user in enumerate(users[1:], start=1):
        services.take_seat(room, user, i)
    for user in users:
        services.set_ready(room, user, True)
        services.set_autoplay(room, user, True)

    if args.stub_renders:
        snapshots.render_seat = lambda snap, user, version, committed_at: f"<div id=table v={snap.version}>"
    loop = asyncio.new_event_loop()
    hub = fanout.Hub(None)
    local = fanout._Room()
    sockets = [Socket(room.pk, user) for user in users]
    sockets += [Socket(room.pk, AnonymousUser()) for _ in range(args.spectators)]
    local.members.update(sockets)
    hub.rooms[room.pk] = local

    prof = Profiling(snapshots) if args.profile else None
    split = Split(snapshots, fanout, services, Socket, hot=args.split_again) if args.split else None
    cpu, wall = [], []
    modes = {"one hop": ([], []), "two hops": ([], [])}
    free = getattr(fanout, "_render_slots", None)
    taken = Taken(free)
    idle = 0
    version = 0
    hops0 = None
    while len(cpu) < args.pushes and idle < 20:
        Room.objects.filter(pk=room.pk).update(deadline=timezone.now() - timedelta(seconds=5))
        kept = roomcache.newest(room.pk, snapshots.KIND)
        play_turn(room.pk, room.version)
        # the turn ran in a worker: the daphne keeps its own snapshot, not the
        # worker's entries (which would drop it), nor the hand states it computed
        roomcache.forget(room.pk)
        readmodel.clear_cache()
        if kept is not None:
            roomcache.put(room.pk, kept[0], snapshots.KIND, kept[1])
        room.refresh_from_db()
        if room.version == version:
            idle += 1  # between hands: everyone ready again (and on 托管)
            for user in users:
                services.set_ready(room, user, True)
                services.set_autoplay(room, user, True)
            room.refresh_from_db()
            continue
        idle = 0
        version = room.version
        local.busy = True
        mode = "two hops" if args.ab and len(cpu) % 2 else "one hop"
        if args.ab:
            fanout._render_slots = taken if mode == "two hops" else free
        counted = prof is not None and hub.stats["pushes"] >= WARMUP
        if counted:
            prof.start()
        if split is not None:
            split.on = hub.stats["pushes"] >= WARMUP
            thread0 = time.thread_time()
        started, wall0 = time.process_time(), time.perf_counter()
        loop.run_until_complete(hub._push(room.pk, local, version, int(time.time() * 1000)))
        spent, waited = time.process_time() - started, time.perf_counter() - wall0
        if split is not None and split.on:
            split._add("loop thread (whole push)", time.thread_time() - thread0)
            split.on = False
            split.end_push()
        if counted:
            prof.stop()
        if hub.stats["pushes"] <= WARMUP:
            continue
        if hops0 is None:
            hops0 = hub.stats.get("hops", hub.stats["pushes"])
        cpu.append(spent * 1000)
        wall.append(waited * 1000)
        modes[mode][0].append(spent * 1000)
        modes[mode][1].append(waited * 1000)
    loop.close()
    assert all(s.sent_version == version for s in sockets), "a socket missed the last version"
    print(f"reads {snapshots.stats['reads']}, of which stepped {snapshots.stats['steps']}")
    hops = hub.stats.get("hops")
    print(f"tree {args.tree}")
    print(f"push CPU ms (process): median {statistics.median(cpu):.3f}  mean {statistics.mean(cpu):.3f}  "
          f"wall ms: median {statistics.median(wall):.3f}  (n={len(cpu)}, {len(sockets)} sockets, "
          f"renders {hub.stats['renders']}, render-pool jobs {'-' if hops is None else hops - hops0})")
    if prof is not None:
        prof.report(args.profile, len(cpu))
    if split is not None:
        split.report(len(cpu), statistics.mean(cpu))
    for mode, (spent, waited) in modes.items() if args.ab else ():
        print(f"  {mode:9} CPU ms: median {statistics.median(spent):.3f}  mean {statistics.mean(spent):.3f}  "
              f"wall ms: median {statistics.median(waited):.3f}  (n={len(spent)})")


if __name__ == "__main__":
    sys.exit(main())
