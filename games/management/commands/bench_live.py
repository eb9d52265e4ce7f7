"""``python manage.py bench_live --tables N --hands H --seconds S``: live-update latency.

Run in the production topology against a running site (this process must have
the same ``DATABASE_URL`` and ``REDIS_URL`` as the daphne and Celery worker
processes; ``--url`` names the daphne(s)).  It:

1. creates N rooms of ``--game`` (保皇 by default) with one fresh account per
   seat, every seat on 托管 (auto-play, C5) with a tiny bot delay, so the Celery
   worker plays every move;
2. opens one websocket per seated account (``ws/rooms/<id>/``, the account's
   session cookie and the site's Origin) on loopback, spread over the ``--url``
   daphnes;
3. says ready for everyone (the first hands are dealt: ``dealt in`` seconds,
   before the measured window) and lets the tables play until each has
   completed H hands or ``--seconds`` pass;
4. for every (commit, seated socket) pair records arrival time minus the
   fragment's ``data-committed-at`` (epoch ms stamped by the committing process
   right after the commit) and prints p50/p95/p99/max in ms, the number of
   samples, commits a socket never saw as such (coalesced into a later
   version), hands completed and actions per second served next to the
   actions per second the tables ask for (N × 1000 / bot delay: one seat to
   act per table), socket errors, the load average, and the CPU milliseconds
   per action of each process kind named by ``--cpu-pids`` plus PostgreSQL,
   Redis and this client (:mod:`games.management.proc_cpu`, over the measured
   window only), and the SQL statements of one served move: a player's whole
   POST and a bot's turn, measured before the tables play in a room of their
   own (:mod:`games.management.move_queries`);
5. closes the rooms (so nothing keeps playing) unless ``--keep``.

Everything is bounded: N ≤ 300 (the capacity runs go to 250), the run by ``--seconds``, every connect and
receive by timeouts.  The figures are printed, never asserted.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import statistics
import time
from dataclasses import dataclass, field
from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections
from django.db.models import Count, Q

from games.management import move_queries, proc_cpu

VERSION_RE = re.compile(r'data-version="(\d+)"')
COMMITTED_RE = re.compile(r'data-committed-at="(\d+)"')
MAX_TABLES = 300
#: Sockets opened together before waiting for them (no thundering herd).
CONNECT_BATCH = 25


def fragment_stamp(html: str) -> tuple[int | None, int | None]:
    """``(data-version, data-committed-at)`` of the first element carrying
    them in a table fragment (None where absent).

    >>> fragment_stamp('<div id="table" data-version="7" data-committed-at="1700000000123">')
    (7, 1700000000123)
    """
    version = VERSION_RE.search(html)
    committed = COMMITTED_RE.search(html)
    return (int(version.group(1)) if version else None,
            int(committed.group(1)) if committed else None)


def session_cookie(user) -> str:
    """A logged-in session key for ``user`` (what the login view would store)."""
    engine = import_module(settings.SESSION_ENGINE)
    session = engine.SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return session.session_key


def ws_connect_kwargs(origin: str, cookie: str | None) -> dict:
    """Keyword arguments for ``websockets.asyncio.client.connect``: Origin,
    session cookie, no compression, no proxy from the environment."""
    import websockets

    kwargs = {"origin": origin, "compression": None, "open_timeout": 15}
    if cookie:
        kwargs["additional_headers"] = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"}
    if int(websockets.__version__.split(".")[0]) >= 15:
        kwargs["proxy"] = None
    return kwargs


def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of already sorted values, nearest-rank."""
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, int(round(q * len(sorted_values) + 0.5)) - 1))
    return sorted_values[index]


@dataclass
class Table:
    room_id: int
    users: list = field(default_factory=list)
    cookies: list[str] = field(default_factory=list)


@dataclass
class Sample:
    room_id: int
    seat: int
    version: int
    latency_ms: float


class Command(BaseCommand):
    help = "Measure websocket update latency over N live tables (production topology)."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=10, help="number of tables N")
        parser.add_argument("--hands", type=int, default=1, help="hands per table H")
        parser.add_argument("--seconds", type=float, default=60.0, help="cap on the run")
        parser.add_argument("--url", default="http://127.0.0.1:8000",
                            help="daphne base URL(s), comma-separated; sockets round-robin")
        parser.add_argument("--game", default="baohuang")
        parser.add_argument("--bot-delay-ms", type=int, default=800,
                            help="delay of every automatic move (the room's bot delay)")
        parser.add_argument("--keep", action="store_true", help="leave the rooms open")
        parser.add_argument("--json", action="store_true", help="also print one JSON line")
        parser.add_argument("--affinity", choices=("socket", "room"), default="socket",
                            help="socket: the sockets of a table spread over the daphnes in turn "
                                 "(a round-robin proxy); room: all of a table's sockets on one "
                                 "daphne (a proxy hashing /ws/rooms/<id>/)")
        parser.add_argument("--redis-commands", action="store_true",
                            help="also count the Redis server's commands per action (INFO "
                                 "commandstats: the whole server, so only with a private one)")
        parser.add_argument("--cpu-pids", default="",
                            help="process kinds to charge CPU time to, 'web=PID,PID;wrk=PID;"
                                 "beat=PID' (trees from /proc; PostgreSQL backends of this "
                                 "database, the cluster and Redis are added)")

    # ----------------------------------------------------------------- setup
    def handle(self, *args, **opts):
        try:
            import websockets  # noqa: F401
        except ImportError:
            raise CommandError("bench_live needs the websockets package (requirements-dev.txt)")
        if not getattr(settings, "REDIS_URL", None):
            raise CommandError(
                "bench_live measures the production topology: set DATABASE_URL and REDIS_URL "
                "as for the daphne and worker processes (make bench does)"
            )
        n = opts["tables"]
        if not 1 <= n <= MAX_TABLES:
            raise CommandError(f"--tables must be within 1..{MAX_TABLES}")
        urls = [u.rstrip("/") for u in opts["url"].split(",") if u.strip()]
        # statements per served move, on the stack's own database (before the tables
        # play, in a room of its own that is closed again)
        close_old_connections()
        shapes = move_queries.measure(opts["game"])
        tables = self.create_tables(n, opts["game"], opts["bot_delay_ms"])
        self.stdout.write(f"created {n} tables ({sum(len(t.users) for t in tables)} seats) "
                          f"on {', '.join(urls)}")
        try:
            result = asyncio.run(self.run(tables, urls, opts))
        finally:
            if not opts["keep"]:
                self.close_tables(tables)
        result["queries"] = {k: v.as_dict() for k, v in shapes.items()}
        self.report(n, result, opts)

    def create_tables(self, n: int, game: str, bot_delay_ms: int) -> list[Table]:
        from games import services
        from games.engine import get_rules

        seats = get_rules(game).seats
        User = get_user_model()
        tag = secrets.token_hex(3)
        tables = []
        for t in range(n):
            users = [User.objects.create_user(f"bench{tag}t{t}s{s}", password=None)
                     for s in range(seats)]
            room = services.create_room(users[0], game, f"bench {tag} #{t}",
                                        bot_delay_ms=bot_delay_ms, turn_seconds=30)
            for s, user in enumerate(users[1:], start=1):
                services.take_seat(room, user, s)
            for user in users:
                services.set_autoplay(room, user, True)
            tables.append(Table(room.pk, users, [session_cookie(u) for u in users]))
        return tables

    def close_tables(self, tables: list[Table]) -> None:
        from games import services

        close_old_connections()
        for table in tables:
            try:
                services.close_room(table.room_id, table.users[0])
            except Exception as exc:  # report, keep closing the others
                self.stderr.write(f"closing room {table.room_id}: {exc}")

    # ----------------------------------------------------------------- run
    async def run(self, tables: list[Table], urls: list[str], opts) -> dict:
        from websockets.asyncio.client import connect

        samples: list[Sample] = []
        seen: dict[tuple[int, int], set[int]] = {}
        initial: dict[tuple[int, int], int] = {}
        stop = asyncio.Event()
        errors: list[str] = []
        opened: list = []

        async def socket(table: Table, seat: int, url: str, connected: asyncio.Event):
            ws_url = url.replace("http", "ws", 1) + f"/ws/rooms/{table.room_id}/"
            key = (table.room_id, seat)
            seen[key] = set()
            try:
                async with connect(ws_url, **ws_connect_kwargs(url, table.cookies[seat])) as ws:
                    first = await asyncio.wait_for(ws.recv(), 15)
                    initial[key] = fragment_stamp(first)[0] or 0
                    opened.append(ws)
                    connected.set()
                    # One plain receive per message (no timer task per receive: the
                    # client shares the machine's cores with the site); the end of
                    # the run closes the sockets, which ends this loop.
                    async for html in ws:
                        if stop.is_set():
                            break
                        arrival = time.time() * 1000
                        version, committed = fragment_stamp(html)
                        if version is None or committed is None or version <= initial[key]:
                            continue
                        seen[key].add(version)
                        samples.append(Sample(table.room_id, seat, version, arrival - committed))
            except Exception as exc:  # a socket failure is reported, not fatal
                errors.append(f"room {table.room_id} seat {seat}: {exc!r}")
                connected.set()

        lags: list[float] = []

        async def loop_lag():
            """How late this process's own event loop wakes up (client-side
            delay included in every sample)."""
            while not stop.is_set():
                before = time.monotonic()
                await asyncio.sleep(0.05)
                lags.append((time.monotonic() - before - 0.05) * 1000)

        tasks, events = [], []
        i = 0
        for t, table in enumerate(tables):
            for seat in range(len(table.users)):
                ev = asyncio.Event()
                events.append(ev)
                url = urls[(t if opts["affinity"] == "room" else i) % len(urls)]
                tasks.append(asyncio.create_task(socket(table, seat, url, ev)))
                i += 1
                if i % CONNECT_BATCH == 0:  # browsers arrive over time, not in one burst
                    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), 60)
        try:
            await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), 60)
        except asyncio.TimeoutError:
            errors.append("not every socket connected within 60 s")
        lag_task = asyncio.create_task(loop_lag())
        # Every table is dealt before the window opens: the tables ask for
        # moves from the deal on, and the seconds this client spends saying
        # ready for N × seats accounts one by one are not the site's.
        dealing = time.monotonic()
        await asyncio.to_thread(self.say_ready, tables)
        dealt_s = time.monotonic() - dealing
        cpu_before = self.cpu_sample(opts)
        redis_before = self.redis_commands() if opts["redis_commands"] else {}
        client_before = time.process_time()
        start = time.monotonic()
        start_actions = await asyncio.to_thread(self.action_count, tables)
        deadline = start + opts["seconds"]
        hands_done = 0
        while time.monotonic() < deadline:
            await asyncio.sleep(1.0)
            hands_done = await asyncio.to_thread(self.hands_completed, tables)
            if all(h >= opts["hands"] for h in hands_done.values()):
                break
        elapsed = time.monotonic() - start
        client_cpu = time.process_time() - client_before
        cpu = proc_cpu.delta(cpu_before, self.cpu_sample(opts))
        redis_calls = {}
        if opts["redis_commands"]:
            after = self.redis_commands()
            redis_calls = {k: v - redis_before.get(k, 0) for k, v in after.items()
                           if v - redis_before.get(k, 0)}
        cpu["client"] = client_cpu
        end_actions = await asyncio.to_thread(self.action_count, tables)
        versions = await asyncio.to_thread(self.versions, tables)
        await asyncio.sleep(0.5)  # let the last fragments arrive
        stop.set()
        await asyncio.wait([asyncio.create_task(ws.close()) for ws in opened] or [lag_task], timeout=15)
        await asyncio.wait(tasks + [lag_task], timeout=15)
        expected = sum(max(0, versions[t.room_id] - initial.get((t.room_id, s), 0))
                       for t in tables for s in range(len(t.users)))
        return {
            "samples": samples,
            "errors": errors,
            "elapsed": elapsed,
            "dealt_s": dealt_s,
            "actions": end_actions - start_actions,
            "hands": hands_done,
            "expected_pairs": expected,
            "seen_pairs": sum(len(v) for v in seen.values()),
            "loop_lag": sorted(lags),
            "cpu": cpu,
            "redis_calls": redis_calls,
        }

    @staticmethod
    def cpu_sample(opts) -> dict:
        """CPU seconds per process kind now (:mod:`games.management.proc_cpu`)."""
        kinds: dict[str, list[int]] = {}
        for part in filter(None, (opts.get("cpu_pids") or "").split(";")):
            kind, _, pids = part.partition("=")
            kinds[kind.strip()] = [int(p) for p in pids.split(",") if p.strip()]
        return proc_cpu.sample(kinds, settings.DATABASES["default"].get("NAME"))

    @staticmethod
    def redis_commands() -> dict[str, int]:
        """``{command: calls}`` of the Redis server at ``REDIS_URL`` so far."""
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL)
        try:
            return {k.removeprefix("cmdstat_"): int(v["calls"])
                    for k, v in client.info("commandstats").items()}
        finally:
            client.close()

    # DB helpers (run in a thread: the ORM is synchronous)
    def say_ready(self, tables: list[Table]) -> None:
        from games import services

        close_old_connections()
        for table in tables:
            for user in table.users:
                services.set_ready(table.room_id, user, True)

    def action_count(self, tables: list[Table]) -> int:
        from games.models import HandAction

        close_old_connections()
        return HandAction.objects.filter(
            hand__match__room_id__in=[t.room_id for t in tables]).count()

    def hands_completed(self, tables: list[Table]) -> dict[int, int]:
        from games.models import Room

        close_old_connections()
        rows = Room.objects.filter(pk__in=[t.room_id for t in tables]).annotate(
            done=Count("matches__hands", filter=Q(matches__hands__complete=True)))
        return {r.pk: r.done for r in rows}

    def versions(self, tables: list[Table]) -> dict[int, int]:
        from games.models import Room

        close_old_connections()
        return dict(Room.objects.filter(pk__in=[t.room_id for t in tables])
                    .values_list("pk", "version"))

    # ----------------------------------------------------------------- report
    def report(self, n: int, result: dict, opts) -> None:
        lat = sorted(s.latency_ms for s in result["samples"])
        elapsed = result["elapsed"]
        actions = result["actions"]
        # every table has exactly one seat to act at a time (C5 pace: the bot delay)
        asked = n * 1000.0 / opts["bot_delay_ms"] if opts["bot_delay_ms"] else float("nan")
        served = actions / elapsed if elapsed else 0.0
        cpu = {k: round(v, 2) for k, v in result["cpu"].items()}
        per_action = {k: round(v / actions * 1000, 2) if actions else None
                      for k, v in result["cpu"].items()}
        figures = {
            "tables": n,
            "samples": len(lat),
            "p50_ms": round(percentile(lat, 0.50), 1),
            "p95_ms": round(percentile(lat, 0.95), 1),
            "p99_ms": round(percentile(lat, 0.99), 1),
            "max_ms": round(lat[-1], 1) if lat else float("nan"),
            "mean_ms": round(statistics.fmean(lat), 1) if lat else float("nan"),
            "pairs_expected": result["expected_pairs"],
            "pairs_seen": result["seen_pairs"],
            # the share of (socket, version) pairs sent: a push folded into a newer
            # one while its room renders is never sent (games.live.fanout), and the
            # latency percentiles count only the pushes sent
            "seen_pct": round(100 * result["seen_pairs"] / result["expected_pairs"], 1)
            if result["expected_pairs"] else None,
            "actions": result["actions"],
            "actions_per_s": round(served, 1),
            "asked_per_s": round(asked, 1),
            "served_pct": round(100 * served / asked, 1) if asked else None,
            "cpu_s": cpu,
            "cpu_ms_per_action": per_action,
            "redis_commands_per_action": {
                k: round(v / actions, 2) for k, v in sorted(
                    result["redis_calls"].items(), key=lambda kv: -kv[1])} if actions else {},
            "load": [round(x, 2) for x in os.getloadavg()],
            "hands_completed": sum(result["hands"].values()) if result["hands"] else 0,
            "seconds": round(elapsed, 1),
            "dealt_s": round(result["dealt_s"], 1),
            "bot_delay_ms": opts["bot_delay_ms"],
            "socket_errors": len(result["errors"]),
            "client_lag_p95_ms": round(percentile(result["loop_lag"], 0.95), 1),
            # SQL statements of one player's move (the whole POST) and one bot's turn
            "queries_per_move": result.get("queries", {}),
        }
        self.stdout.write(
            "N={tables:<3} samples={samples} p50={p50_ms}ms p95={p95_ms}ms p99={p99_ms}ms "
            "max={max_ms}ms | pairs seen/expected={pairs_seen}/{pairs_expected} ({seen_pct}%) | "
            "actions={actions} ({actions_per_s}/s of {asked_per_s}/s asked, {served_pct}%) hands={hands_completed} in {seconds}s "
            "(tables dealt in {dealt_s}s before) | bot delay {bot_delay_ms}ms | socket errors={socket_errors} "
            "| client loop lag p95={client_lag_p95_ms}ms".format(**figures)
        )
        self.stdout.write(
            "  CPU ms per action: " + "  ".join(f"{k} {v}" for k, v in per_action.items())
            + f"  | load {figures['load']}")
        for who, label in (("player", "a player's move (the POST)"), ("bot", "a bot's turn")):
            shape = figures["queries_per_move"].get(who)
            if shape:
                self.stdout.write(f"  queries per served move, {label}: {shape['queries']} "
                                  f"(+{shape['savepoints']} BEGIN/COMMIT or savepoints): " + ", ".join(shape["shape"]))
        if figures["redis_commands_per_action"]:
            calls = figures["redis_commands_per_action"]
            self.stdout.write(f"  Redis commands per action: {round(sum(calls.values()), 1)} "
                              + " ".join(f"{k} {v}" for k, v in calls.items()))
        for err in result["errors"][:5]:
            self.stderr.write(f"  {err}")
        if opts["json"]:
            self.stdout.write(json.dumps(figures))
