#!/usr/bin/env python3
"""CPU per push on the web side, without a server: snapshot, renders, partials.

    python scripts/render_bench.py [--moves 300] [--repeat 3] [--profile out.prof]

Builds a throwaway SQLite database (tmp/render-bench-<pid>.sqlite3, removed
afterwards), seats five players at a 保皇 table on 托管 and lets the server's
turns play (``play_turn``, as the turn runner does).  After each move it does
what a daphne does for the five table sockets of that room: one snapshot read
(:func:`games.live.snapshots.load_snapshot`), the renders of the hub
(:func:`games.live.fanout._render_all`: one per seat, zh-hans) and, per
socket, the message it sends (:func:`games.render.regions.partial` against
what that socket was sent last).  Prints process CPU milliseconds per move of
each step (``time.process_time``, this thread only runs), the best of
``--repeat`` replays of the same recorded moves (the first replay starts with
empty render caches, as a fresh process would).  ``--profile`` writes a
cProfile of the renders and partials of the last replay.

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
    args = parser.parse_args()

    db = REPO / "tmp" / f"render-bench-{os.getpid()}.sqlite3"
    db.parent.mkdir(exist_ok=True)
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        os.environ.pop(name, None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.conf import settings

    django.setup()
    settings.DATABASES["default"]["NAME"] = str(db)  # the embedded topology's SQLite, in a file of its own
    try:
        return run(args)
    finally:
        from django.db import connections

        connections.close_all()
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)


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
    for value in (1, 2, 5, 10):
        RoomMultiplier.objects.get_or_create(value=value, defaults={"is_default": value == 1})
    users = [get_user_model().objects.create_user(username=f"rb{i}", password="x") for i in range(5)]
    room = services.create_room(users[0], "baohuang", "bench", turn_seconds=30, bot_delay_ms=0)
    for i, user in enumerate(users[1:], start=1):
        services.take_seat(room, user, i)
    for user in users:
        services.set_ready(room, user, True)
        services.set_autoplay(room, user, True)

    # play the moves once, keeping each version's snapshot
    snaps = []
    idle = 0
    while len(snaps) < args.moves and idle < 20:
        room.refresh_from_db()
        Room.objects.filter(pk=room.pk).update(deadline=timezone.now() - timedelta(seconds=5))
        services.reset_caches()
        play_turn(room.pk, room.version)
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
    viewers = [("zh-hans", user) for user in users]

    best: dict[str, float] = {}
    profiler = None
    for attempt in range(args.repeat):
        services.reset_caches()
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
    for _ in snaps:
        live.load_snapshot(room.pk)
    best["snapshot"] = time.process_time() - started
    per = {k: 1000 * v / len(snaps) for k, v in best.items()}
    print(f"{len(snaps)} moves, 5 seats: CPU ms per move  snapshot(sqlite) {per['snapshot']:.2f}  "
          f"render {per['render']:.2f}  partial {per['partial']:.2f}  "
          f"render+partial {per['render'] + per['partial']:.2f}")
    if profiler:
        profiler.dump_stats(args.profile)
        print(f"profile of the last replay's renders and partials: {args.profile}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
