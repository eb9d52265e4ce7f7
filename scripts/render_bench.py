#!/usr/bin/env python3
"""CPU per push on the web side, without a server: snapshot, renders, partials.

    python scripts/render_bench.py [--moves 300] [--repeat 3] [--profile out.prof]
                                   [--opcodes] [--dump FILE] [--seed N] [--game CODE]

Builds a throwaway SQLite database (tmp/render-bench-<pid>.sqlite3, removed
afterwards), seats five players at a 保皇 table (``--game``: another game's, as many
players as its seats) on 托管 and lets the server's
turns play (``play_turn``, as the turn runner does).  After each move it does
what a daphne does for the five table sockets of that room: one snapshot read
(:func:`games.live.snapshots.load_snapshot`), the renders of the hub
(:func:`games.live.fanout._render_all`: one per seat, zh-hans) and, per
socket, the message it sends (:func:`games.render.regions.partial` against
what that socket was sent last).  Prints process CPU milliseconds per move of
each step (``time.process_time``, this thread only runs), the best of
``--repeat`` replays of the same recorded moves (the first replay starts with
empty render caches, as a fresh process would).  While the moves are played
it also times the read of each new version both ways, in full and stepped from
the previous version's snapshot (:func:`games.live.snapshots.step_snapshot`),
with the statements each sent.  ``--profile`` writes a
cProfile of the renders and partials of the last replay.

It runs as production does: ``DJANGO_DEBUG=0`` (Jinja2's ``auto_reload`` off,
so no ``os.stat`` of a template per load; no query log).

``--opcodes`` counts, in one more replay (its caches empty at the start, as
each timed one: a version's blocks are kept from the versions before it, as
in a live process), the Python opcodes of each seat's render and partial
(``sys.settrace`` with ``f_trace_opcodes``): a deterministic measure of the
same work on a shared machine.

``--dump FILE`` writes every version x viewer (the five seats and a
spectator) x language (zh-hans, en) fragment and each socket's partial
message, in the hub's order, for a byte-for-byte comparison of two commits
(``cmp`` the files).  It seeds the deals (``--seed``, default 1) and runs a
fixed clock (``timezone.now``: a second later per move played, still
otherwise); the turns' chaining still makes the versions of two plays
differ, so ``--snaps FILE`` pickles the played snapshots and users (with
``--dump``, when FILE is missing) or renders (dumps, times, counts) those of
FILE instead of playing: two commits render the very same snapshots.

The snapshot read here is SQLite's; the live bench (``make bench``) reads
PostgreSQL, so read its ``web`` column for the whole cost per move.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", default="")
    parser.add_argument("--opcodes", action="store_true")
    parser.add_argument("--dump", default="")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="baohuang", help="the game's code (its seat count of players)")
    parser.add_argument("--snaps", default="", help="the snapshots' pickle (written by --dump if missing, else read)")
    args = parser.parse_args()
    os.environ["DJANGO_DEBUG"] = "0"  # production's: no template auto_reload (os.stat per load), no query log
    os.environ["GAMES_REVIEW_AFTER_HAND"] = "0"  # no hand review thread (the process would wait for it)

    db = REPO / "tmp" / f"render-bench-{os.getpid()}.sqlite3"
    db.parent.mkdir(exist_ok=True)
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        os.environ.pop(name, None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.conf import settings

    if args.dump:
        seeded(args.seed)
    django.setup()
    settings.DATABASES["default"]["NAME"] = str(db)  # the embedded topology's SQLite, in a file of its own
    try:
        return run(args)
    finally:
        from django.db import connections

        connections.close_all()
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)


class Clock:
    """A fixed clock for ``--dump``: it moves only when told (:meth:`tick`,
    a second per move played), so how often the code asks does not matter."""

    def __init__(self):
        from datetime import datetime, timezone as tz

        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=tz.utc)

    def __call__(self):
        return self.now

    def tick(self) -> None:
        from datetime import timedelta

        self.now += timedelta(seconds=1)


CLOCK = Clock()


def seeded(seed: int) -> None:
    """The n-th deal's seed from ``seed`` and a fixed clock (``--dump``)."""
    import random

    import django.utils.timezone
    import games.engine.cards as cards

    counter = iter(range(10**9))
    cards.new_seed = lambda: random.Random(f"{seed}-{next(counter)}").getrandbits(63)
    django.utils.timezone.now = CLOCK


def count_opcodes(fn, *args):
    """``(result, Python opcodes executed by fn(*args))`` (sys.settrace)."""
    n = 0

    def local(frame, event, arg):
        nonlocal n
        if event == "opcode":
            n += 1
        return local

    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        return local

    sys.settrace(tracer)
    try:
        out = fn(*args)
    finally:
        sys.settrace(None)
    return out, n


def fresh(snaps) -> None:
    """Empty what each snapshot keeps of its renders (the shared regions,
    :attr:`games.render.tables.TableSnapshot.rendered`), as a live process
    has it for a version it reads: every replay renders them once again.
    (Snapshots pickled before the attribute existed get it.)"""
    for snap in snaps:
        object.__setattr__(snap, "rendered", {})


def dump(path: str, snaps, users) -> None:
    """Every version x viewer x language fragment and partial message to ``path``."""
    from games.live import fanout
    from games.render import regions
    from games import services

    from datetime import datetime, timezone as tz

    services.reset_caches()
    fresh(snaps)
    CLOCK.now = datetime(2026, 1, 2, 12, 0, tzinfo=tz.utc)  # server_now_ms: the same in every dump
    viewers = [(lang, user) for lang in ("zh-hans", "en") for user in [*users, None]]
    sent = [None] * len(viewers)
    with open(path, "w", encoding="utf-8") as out:
        for snap in snaps:
            htmls, _renders = fanout._render_all(snap, viewers, snap.version, 1)
            for i, ((lang, user), html) in enumerate(zip(viewers, htmls)):
                message, sent[i], kept = regions.partial(html, sent[i])
                who = user.username if user is not None else "-"
                out.write(f"== v{snap.version} {lang} {who} regions={list(html.parts)} kept={kept}\n")
                out.write(html)
                out.write("\n-- partial\n")
                out.write(message)
                out.write("\n")
    print(f"dumped {len(snaps)} versions x {len(viewers)} viewers to {path}")


def run(args) -> int:
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from games import services
    from games.live import fanout, snapshots as live
    from games.models import Room, RoomMultiplier
    from games.render import regions
    from games.runtime.tasks import play_turn

    call_command("migrate", verbosity=0)
    if args.snaps and Path(args.snaps).exists():  # the same snapshots on two commits
        import pickle

        with open(args.snaps, "rb") as f:
            snaps, users = pickle.load(f)
        if args.dump:
            dump(args.dump, snaps, users)
            return 0
        return measure(args, snaps, users)
    for value in (1, 2, 5, 10):
        RoomMultiplier.objects.get_or_create(value=value, defaults={"is_default": value == 1})
    from games import registry

    nseats = registry.get(args.game).seats
    users = [get_user_model().objects.create_user(username=f"rb{i}", password="x") for i in range(nseats)]
    room = services.create_room(users[0], args.game, "bench", turn_seconds=30, bot_delay_ms=0)
    for i, user in enumerate(users[1:], start=1):
        services.take_seat(room, user, i)
    for user in users:
        services.set_ready(room, user, True)
        services.set_autoplay(room, user, True)

    # play the moves once, keeping each version's snapshot; after each move,
    # time a daphne's read of the new version both ways: in full, and stepped
    # from the previous version's snapshot (both find the engine state cached)
    from django.db import connection

    snaps = []
    idle = 0
    reads = {"full": [0.0, 0, 0], "step": [0.0, 0, 0]}  # CPU s, statements, reads
    counted = [0]

    def count(execute, sql, params, many, context):
        counted[0] += 1
        return execute(sql, params, many, context)

    kept = None
    while len(snaps) < args.moves and idle < 20:
        CLOCK.tick()
        room.refresh_from_db()
        Room.objects.filter(pk=room.pk).update(deadline=timezone.now() - timedelta(seconds=5))
        services.reset_caches()
        play_turn(room.pk, room.version)
        live.load_snapshot(room.pk)  # warm the match's completed hands
        with connection.execute_wrapper(count):
            for how, base in (("full", None), ("step", kept)):
                counted[0] = 0
                started = time.process_time()
                read = live.load_snapshot(room.pk, base)
                reads[how][0] += time.process_time() - started
                reads[how][1] += counted[0]
                reads[how][2] += 1
        kept = read
        room.refresh_from_db()
        if snaps and snaps[-1].version == room.version:
            idle += 1  # between hands: everyone ready again (and on 托管)
            for user in users:
                services.set_ready(room, user, True)
                services.set_autoplay(room, user, True)
            continue
        idle = 0
        services.reset_caches()
        snaps.append(live.load_snapshot(room.pk))
    if args.dump:
        if args.snaps:
            import pickle

            with open(args.snaps, "wb") as f:
                pickle.dump((snaps, users), f)
        dump(args.dump, snaps, users)
        return 0
    return measure(args, snaps, users, room, reads)


def measure(args, snaps, users, room=None, reads=None) -> int:
    """Time (and with ``--opcodes`` count) the replays of ``snaps`` for ``users``;
    ``reads``: the timed reads of each new version, full and stepped (none for
    snapshots loaded from ``--snaps``)."""
    from games import services
    from games.live import fanout, snapshots as live
    from games.render import regions

    viewers = [("zh-hans", user) for user in users]
    best: dict[str, float] = {}
    profiler = None
    for attempt in range(args.repeat):
        services.reset_caches()
        fresh(snaps)
        if args.profile and attempt == args.repeat - 1:
            import cProfile

            profiler = cProfile.Profile()
        sent = [None] * len(viewers)
        spent = {"render": 0.0, "partial": 0.0}
        for snap in snaps:
            started = time.process_time()
            if profiler:
                profiler.enable()
            htmls, _renders = fanout._render_all(snap, viewers, snap.version, 1)
            middle = time.process_time()
            for i, html in enumerate(htmls):
                _message, sent[i], _kept = regions.partial(html, sent[i])
            if profiler:
                profiler.disable()
            spent["render"] += middle - started
            spent["partial"] += time.process_time() - middle
        for key, value in spent.items():
            best[key] = min(best.get(key, value), value)
    # the read of one version (SQLite): the room as it is now, once per move
    started = time.process_time()
    for _ in snaps if room is not None else ():
        live.load_snapshot(room.pk)
    best["snapshot"] = time.process_time() - started  # (0 for snapshots read from --snaps)
    if args.opcodes:  # one more replay, counted, from empty caches as the timed ones
        services.reset_caches()
        fresh(snaps)
        sent = [None] * len(viewers)
        counted = {"render": 0, "partial": 0}
        for snap in snaps:
            (htmls, _renders), n = count_opcodes(fanout._render_all, snap, viewers, snap.version, 1)
            counted["render"] += n
            for i, html in enumerate(htmls):
                (_message, sent[i], _kept), n = count_opcodes(regions.partial, html, sent[i])
                counted["partial"] += n
        renders = len(snaps) * len(viewers)
        print(f"opcodes per seat's render {counted['render'] / renders:,.0f}  "
              f"partial {counted['partial'] / renders:,.0f}  ({renders} renders, caches empty at the first)")
    per = {k: 1000 * v / len(snaps) for k, v in best.items()}
    for how, (cpu, statements, n) in (reads or {}).items():
        print(f"read of each new version, {how}: {1000 * cpu / n:.3f} ms CPU, {statements / n:.2f} statements "
              f"(sqlite, {n} versions)")
    print(f"stepped {live.stats['steps']}, fell back to a full read {live.stats['fallbacks']}")
    print(f"{len(snaps)} moves, {len(users)} seats: CPU ms per move  snapshot(sqlite) {per['snapshot']:.2f}  "
          f"render {per['render']:.2f}  partial {per['partial']:.2f}  "
          f"render+partial {per['render'] + per['partial']:.2f}")
    if profiler:
        profiler.dump_stats(args.profile)
        print(f"profile of the last replay's renders and partials: {args.profile}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
