#!/usr/bin/env python3
"""CPU per move in-process against PostgreSQL: a player's move and a bot's turn.

    python scripts/move_cpu.py [--pg postgres://postgres@127.0.0.1:5432] [--moves 200]
                               [--turns 400] [--tree DIR] [--db NAME] [--keep]
                               [--profile FILE]

Creates a throwaway PostgreSQL database (``test_<--db>``, migrated; dropped
afterwards unless ``--keep``, which also reuses one kept before), with the
turn runner off (``GAMES_SCHEDULING_DISABLED``: nothing plays but this
script), and measures, with ``time.process_time`` (this process's CPU: the
Python and the driver, not PostgreSQL's own work):

* **player move**: :func:`games.services.do_move` of the seat to act (its C5
  move, as a POST would carry it) in a 保皇 room of five human accounts,
  ``--moves`` of them (a new room whenever a hand ends); the session and
  user reads and the view around it are not included;
* **bot turn**: :func:`games.services.turns.play_turn` (what a worker's turn
  runner calls at a deadline) in a 保皇 room of heuristic bots and one player
  on 托管, bot delay 0, ``--turns`` of them; most start from what the
  process kept of its previous move (:mod:`games.services.turncache`), as in
  a worker; the bot's own decision is included;
* **Python calls per bot turn**: cProfile's call count of one kept bot turn
  (the median of 20: deterministic but for the bot's search), the measure
  that a loaded machine does not blur.

Prints the median and the mean of each (milliseconds).  ``--tree DIR``
imports the site from another checkout (``git archive <commit> | tar -x -C
DIR``): the same script measures the code before and after a change, run
interleaved (docs/performance.md, "Session 23, part: a move's writes").
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from measure_site import measured_site  # scripts/ is on sys.path when run as a script

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--turns", type=int, default=400)
    parser.add_argument("--tree", default=str(REPO), help="the checkout whose site is measured")
    parser.add_argument("--db", default=f"move_cpu_{os.getpid()}")
    parser.add_argument("--keep", action="store_true", help="keep (and reuse) the database")
    parser.add_argument("--profile", default="", help="write the profiled kept bot turns' cProfile here")
    args = parser.parse_args()
    with measured_site(args.tree, args.pg, args.db, keep=args.keep, tag="move-cpu"):
        run(args)
    return 0


def _users(tag: str, n: int):
    from django.contrib.auth import get_user_model

    return [get_user_model().objects.create_user(username=f"{tag}{i}") for i in range(n)]


def _human_room(tag: str):
    from games import services

    users = _users(tag, 5)
    room = services.create_room(users[0], "baohuang", tag, turn_seconds=600, bot_delay_ms=0)
    for i, user in enumerate(users[1:], start=1):
        services.take_seat(room, user, i)
    for user in users:
        services.set_ready(room, user, True)
    room.refresh_from_db()
    return room, users


def _bot_room(tag: str):
    from games import services

    owner, = _users(tag, 1)
    room = services.create_room(owner, "baohuang", tag, turn_seconds=600, bot_delay_ms=0)
    services.fill_bots(room, owner, "heuristic")
    services.set_ready(room, owner, True)
    services.set_autoplay(room, owner, True)
    room.refresh_from_db()
    return room


def player_moves(n: int) -> list[float]:
    """CPU milliseconds of ``n`` players' moves (do_move)."""
    from games import services
    from games.engine import get_rules

    rules = get_rules("baohuang")
    out, rooms = [], 0
    room = users = None
    while len(out) < n:
        if room is None:
            rooms += 1
            room, users = _human_room(f"p{os.getpid()}r{rooms}u")
        room.refresh_from_db()
        hand = services.current_hand(room)
        if hand is None or hand.complete:
            room = None
            continue
        state = services.hand_state(hand)
        seat = rules.to_act(state)
        record = rules.auto_action(state, seat).to_record()
        record.pop("seat")
        started = time.process_time()
        outcome = services.do_move(room.pk, None, record, room.version, user=users[seat])
        spent = time.process_time() - started
        if outcome.applied and outcome.reason != "held":
            out.append(spent * 1000)
    return out


def bot_turns(n: int, profile: int = 20, dump: str = "") -> tuple[list[float], list[int], int]:
    """(CPU milliseconds of ``n`` bot turns, Python calls of ``profile``
    kept turns, turns that started from a kept entry); ``dump``: a file for
    the profiled turns' cProfile statistics, added together (pstats)."""
    import cProfile
    import pstats

    from games.models import Room
    from games.services import turncache
    from games.services.turns import play_turn

    timed, calls, rooms, stats = [], [], 0, None
    hits = turncache.stats["hits"]
    room = None
    while len(timed) < n or len(calls) < profile:
        if room is None:
            rooms += 1
            room = _bot_room(f"b{os.getpid()}r{rooms}o")
        version = Room.objects.filter(pk=room.pk).values_list("version", flat=True).get()
        if len(timed) < n:
            started = time.process_time()
            result = play_turn(room.pk, version)
            spent = time.process_time() - started
            if result == "bot":
                timed.append(spent * 1000)
        elif turncache.kept_version(room.pk) == version:
            profiler = cProfile.Profile()
            result = profiler.runcall(play_turn, room.pk, version)
            if result == "bot":
                calls.append(pstats.Stats(profiler).total_calls)
                if stats is None:
                    stats = pstats.Stats(profiler)
                else:
                    stats.add(profiler)
        else:
            result = play_turn(room.pk, version)
        if result != "bot":
            room = None  # hand over (the next deal waits for its pause): a new room
    if dump and stats is not None:
        stats.dump_stats(dump)
    return timed, calls, turncache.stats["hits"] - hits


def _backend_cpu() -> float:
    """This connection's PostgreSQL backend's CPU seconds so far (/proc, loopback only)."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        pid = cur.fetchone()[0]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(args) -> None:
    pg0 = _backend_cpu()
    moves = player_moves(args.moves)
    pg1 = _backend_cpu()
    turns, calls, kept = bot_turns(args.turns, dump=args.profile)
    pg2 = _backend_cpu()
    print(f"PostgreSQL backend CPU ms: per player move {1000 * (pg1 - pg0) / len(moves):.3f}"
          f"  per bot turn {1000 * (pg2 - pg1) / len(turns):.3f}")
    print(f"tree {args.tree}")
    print(f"player move  CPU ms: median {statistics.median(moves):.3f}  mean {statistics.mean(moves):.3f}"
          f"  (n={len(moves)})")
    print(f"bot turn     CPU ms: median {statistics.median(turns):.3f}  mean {statistics.mean(turns):.3f}"
          f"  (n={len(turns)}, {kept} from a kept entry)")
    print(f"bot turn Python calls (kept turn, cProfile): median {statistics.median(calls):.0f}"
          f"  min {min(calls)}  max {max(calls)}")


if __name__ == "__main__":
    sys.exit(main())
