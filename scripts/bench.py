#!/usr/bin/env python3
"""``make bench``: start a production stack, run ``manage.py bench_live`` per N, stop it.

    python scripts/bench.py --tables 10 20 50 --hands 3 --seconds 60 [--webs 2] [--workers 1 2]

The stack (``tests/integration/stack.py``) is a fresh PostgreSQL database
``cardroom_it_*``, ``--webs`` daphne processes, one Celery worker
(``--worker-pool``, ``--concurrency``) and one beat, against Redis on
127.0.0.1; it is torn down (processes stopped, database dropped) at the end,
also on Ctrl-C.  Each N gets fresh rooms; the figures are printed as they come
and once more as a table at the end.  ``--workers 1 2`` runs every N with one
worker process, then starts a second one and runs every N again (the ratio of
the two ``served`` columns is what a second worker process buys here).

Columns: served actions/s next to the actions/s the tables ask for (N × one
seat to act per bot delay), ``seen%`` (the share of each socket's versions it
was sent: pushes folded into newer ones while a room renders are not, and the
latency percentiles count only the pushes sent), commit-to-socket latency percentiles, socket
errors, and CPU milliseconds per served action of each process kind, read
from ``/proc/<pid>/stat`` over the measured window: ``web`` (the daphnes),
``proxy`` (nginx's master and workers, with ``--proxy``: every socket then goes
through ``deploy/nginx.conf``, which puts all of a table's sockets on one
daphne), ``wrk`` (the Celery workers), ``beat``, ``pg`` (the PostgreSQL backends of
the bench database), ``pg*`` (the whole PostgreSQL cluster: other users'
databases included), ``redis`` (the shared redis-server) and ``cli`` (the
bench client).  The machine's load average is printed with every row, and a
machine gauge (``machine_gauge``: a fixed standard-library workload's rounds per CPU-second)
once before the stack starts, so that figures of different days can be compared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.integration.stack import LiveStack  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 20, 50])
    parser.add_argument("--hands", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--game", default="baohuang", help="baohuang or shengji")
    parser.add_argument("--bot-delay-ms", type=int, default=800)
    parser.add_argument("--webs", type=int, default=2, help="daphne processes")
    parser.add_argument("--worker-pool", default="threads")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--affinity", choices=("socket", "room"), default="socket",
                        help="socket: a table's sockets spread over the daphnes in turn; room: "
                             "all on one daphne (a proxy hashing the room's path)")
    parser.add_argument("--proxy", action="store_true",
                        help="every socket through nginx with deploy/nginx.conf in front of the "
                             "daphnes (a table's sockets on one daphne, by the room's id); "
                             "--affinity is then the proxy's")
    parser.add_argument("--sample", metavar="DIR",
                        help="sample every stack process's threads into DIR (scripts/sampler) and "
                             "print each process's CPU per thread at the end")
    parser.add_argument("--redis-commands", action="store_true",
                        help="count Redis commands per action (INFO commandstats of the whole "
                             "server: give --redis-url of a private redis-server)")
    parser.add_argument("--workers", type=int, nargs="+",
                        default=[int(w) for w in os.environ.get("BENCH_WORKERS", "1").split()],
                        help="worker process counts to run every N with, ascending (e.g. 1 2)")
    parser.add_argument("--reviews", action="store_true",
                        help="run every N twice, without and then with the review worker "
                             "busy (deploy/supervisord.conf's reviewer: CARDROOM_WORKER_ROLE=reviews, one process, "
                             "nice 19), and print the p95 ratio")
    parser.add_argument("--review-hands", type=int, default=16,
                        help="finished hands whose reviews keep the review worker busy")
    parser.add_argument("--review-idle-below", default=None,
                        help="the review worker's governor (GAMES_REVIEW_IDLE_BELOW: a share of "
                             "all CPUs, or 'off'); default: the site's setting")
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL"),
                        help="default: redis://127.0.0.1:6379/<index + 8 of REDIS_URL, or 9>")
    args = parser.parse_args()

    print(machine_gauge(), flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="bench-stack-"))
    kw = {"webs": args.webs,
          "worker_args": (f"--pool={args.worker_pool}", f"--concurrency={args.concurrency}")}
    if args.redis_url:
        kw["redis_url"] = args.redis_url
    if args.sample:
        Path(args.sample).mkdir(parents=True, exist_ok=True)
        kw["pythonpath_first"] = str(REPO / "scripts" / "sampler")
        kw["extra_env"] = {"BENCH_SAMPLE_DIR": str(Path(args.sample).resolve())}
    stack = LiveStack.production(workdir, **kw)
    rows = []
    status = 0
    reviews = None
    try:
        print(f"starting the production stack in {workdir} ...", flush=True)
        stack.start()
        urls = ",".join(stack.web_url_of(i) for i in range(args.webs))
        proxy_pids = []
        if args.proxy:
            port = stack.add_proxy()
            proxy_pids = [stack.procs["proxy"].popen.pid]  # nginx's master: its workers are its tree
            print(f"nginx (deploy/nginx.conf) on 127.0.0.1:{port} in front of {urls}", flush=True)
            urls = f"http://127.0.0.1:{port}"
        print(f"daphne: {urls}; worker {args.worker_pool}×{args.concurrency}; beat; "
              f"db {stack.created_db}; redis {stack.redis_url}", flush=True)
        reviews = ReviewLoad(stack, args) if args.reviews else None
        # each N is a block of two windows, without and with the review worker,
        # in alternate orders (off-on, on-off, ...: ABBA), so that a stack that drifts
        # from one window to the next (±35 % of p95 at N = 100 here, no reviewer at
        # all: docs/review.md, "Session 13") weighs on both sides alike
        def phases(block: int) -> tuple:
            if not reviews:
                return (False,)
            return (False, True) if block % 2 == 0 else (True, False)

        for workers, block, n, busy in [(w, i, n, b) for w in sorted(set(args.workers))
                                        for i, n in enumerate(args.tables) for b in phases(i)]:
            if reviews:
                reviews.set_busy(busy)
            while sum(1 for name in stack.procs if name.startswith("worker")) < workers:
                print(f"started {stack.add_worker()}", flush=True)
            pids = {"web": [stack.procs[p].popen.pid for p in stack.procs if p.startswith("web")],
                    "wrk": [stack.procs[p].popen.pid for p in stack.procs if p.startswith("worker")],
                    "beat": [stack.procs["beat"].popen.pid]}
            if proxy_pids:
                pids["proxy"] = proxy_pids
            if reviews and busy:
                pids["rev"] = [reviews.pid]
            cmd = [sys.executable, "manage.py", "bench_live", "--game", args.game, "--tables", str(n),
                   "--hands", str(args.hands), "--seconds", str(args.seconds),
                   "--bot-delay-ms", str(args.bot_delay_ms), "--url", urls, "--json",
                   "--affinity", args.affinity,
                   "--cpu-pids", ";".join(f"{k}={','.join(map(str, v))}" for k, v in pids.items())]
            if args.redis_commands:
                cmd.append("--redis-commands")
            result = subprocess.run(cmd, cwd=REPO, env=stack.env, capture_output=True,
                                    text=True, timeout=args.seconds + 600)
            lines = result.stdout.strip().splitlines()
            for line in lines:
                if not line.startswith("{"):
                    print(line, flush=True)
            if result.stderr.strip():
                print(result.stderr.strip()[-3000:], file=sys.stderr, flush=True)
            if result.returncode != 0 or not lines or not lines[-1].startswith("{"):
                print(f"bench_live N={n} failed ({result.returncode})", file=sys.stderr)
                status = 1
                continue
            row = {**json.loads(lines[-1]), "workers": workers, "block": block}
            if reviews:
                row["reviews"] = reviews.summary(row) if busy else "off"
            rows.append(row)
    except BaseException:
        print(stack.logs(40), file=sys.stderr)
        raise
    finally:
        try:
            if reviews:
                reviews.close()
        finally:
            stack.close()
    if rows:
        print(table(rows))
    if reviews:
        print(review_ratios(rows))
    if args.sample:
        print(thread_cpu(Path(args.sample)))
    return status


GAUGE_WORK = """
import json, random, re, time
def one_round(rng):
    words = ["".join(rng.choice("abcdefghij") for _ in range(6)) for _ in range(200)]
    counts = {}
    for w in words:
        counts[w[:3]] = counts.get(w[:3], 0) + 1
    text = json.dumps({"words": words, "counts": counts}, sort_keys=True)
    back = json.loads(text)
    hits = len(re.findall(r"a[b-e]+", text))
    ordered = sorted(back["words"], key=lambda w: (w[::-1], len(w)))
    return hits + len(ordered) + sum(counts.values())
rng = random.Random(1)
start = time.process_time()
rounds = 0
while rounds < 400 or time.process_time() - start < 1.0:
    one_round(rng)
    rounds += 1
print(f"{rounds / (time.process_time() - start):.0f}")
"""


def machine_gauge() -> str:
    """One line that says how fast this machine runs Python today: rounds per CPU-second.

    ``GAUGE_WORK`` is a fixed standard-library workload (string building, dicts,
    ``json``, ``re``, sorting with a key: the kinds of work a move's render and
    services do), run in a child process before the stack starts, at least 400
    rounds and one CPU-second.  It does not depend on the project's code, so a
    faster engine or render does not move it; the bench's CPU milliseconds per
    move from two days are compared after dividing by the ratio of their gauges.
    (The gauge used to be ``simulate baohuang``, which moved with the engine's
    play-out and so stopped measuring the machine.)"""
    result = subprocess.run([sys.executable, "-c", GAUGE_WORK], capture_output=True,
                            text=True, timeout=120)
    if result.returncode != 0 or not result.stdout.strip().isdigit():
        return f"machine gauge: failed ({result.returncode})"
    return (f"machine gauge (GAUGE_WORK in scripts/bench.py, before the stack starts): "
            f"{result.stdout.strip()} rounds per CPU-second")


class ReviewLoad:
    """The review worker of ``--reviews``, as deploy/supervisord.conf runs it:
    ``nice -n 19 celery worker --concurrency 1`` (CARDROOM_WORKER_ROLE=reviews) with
    ``CARDROOM_WORKER_ROLE=reviews``, on the bench's stack, kept busy.

    Work: ``--review-hands`` finished hands with a human seat (the ``finished_hands``
    op plays them out in-process before any window), whose reviews are asked for
    again (``manage.py request_reviews --again``) whenever the worker has done all
    of them (checked every ``REFILL_S`` seconds), so that its queue never runs dry
    in a window (a review samples ``GAMES_REVIEW_WORLDS`` worlds a decision and
    spends at most ``GAMES_REVIEW_BUDGET_MS`` of CPU: 32 worlds and 60 s by
    default).  The worker runs under the site's review governor
    (games/runtime/governor.py, ``GAMES_REVIEW_IDLE_BELOW``): while the live tables
    keep the machine busy it pauses, its queue does not drain and nothing is asked
    again; the summary counts its pauses."""

    REFILL_S = 15

    def __init__(self, stack, args) -> None:
        import threading

        from tests.integration.stack import Proc

        self.stack, self.args = stack, args
        print(f"playing out {args.review_hands} {args.game} hands for the reviewer ...", flush=True)
        self.hands = stack.ops("finished_hands", count=args.review_hands, game=args.game,
                               timeout=900)["hands"]
        env = dict(stack.env, CARDROOM_WORKER_ROLE="reviews")
        if args.review_idle_below is not None:
            env["GAMES_REVIEW_IDLE_BELOW"] = args.review_idle_below
        self.governor = env.get("GAMES_REVIEW_IDLE_BELOW", "the site's default")
        self.proc = Proc("reviewer", ["nice", "-n", "19", sys.executable, "-m", "celery", "-A",
                                      "config", "worker", "--concurrency", "1",
                                      "--pool=solo", "--loglevel=INFO", "--without-gossip",
                                      "--without-mingle", "-n", "bench-reviewer@%h"],
                         env, stack.workdir / "reviewer.log")
        self.busy = False
        self.stopping = threading.Event()
        self.thread = None
        self.log_mark = 0
        self.asked_mark = 0  # the log's length when the reviews were last asked for

    @property
    def pid(self) -> int:
        return self.proc.popen.pid

    def _request(self) -> None:
        """``manage.py request_reviews --again`` at nice 19: on the site a review is
        asked for by the hand's completion inside a live process, at no cost; a
        fresh Django process of the bench's own at nice 0 (a second of CPU) would
        be load the site does not have."""
        import subprocess

        subprocess.run(["nice", "-n", "19", sys.executable, "manage.py", "request_reviews",
                        "--last", str(len(self.hands)), "--again"],
                       cwd=REPO, env=self.stack.env, capture_output=True, timeout=120, check=True)

    def _refill(self) -> None:
        while not self.stopping.wait(self.REFILL_S):
            text = self.proc.log_text()
            if text[self.asked_mark:].count("succeeded in") >= len(self.hands):
                self.asked_mark = len(text)
                self._request()

    def set_busy(self, busy: bool) -> None:
        """Start (True) or stop (False) the review worker and its refills."""
        import threading

        if busy == self.busy:
            return
        self.busy = busy
        if busy:
            self._request()
            self.proc.start()
            self.stopping.clear()
            self.thread = threading.Thread(target=self._refill, daemon=True)
            self.thread.start()
            text = self.proc.log_text()
            self.log_mark = self.asked_mark = len(text)
            print(f"review worker started (pid {self.pid}, nice 19, SCHED_IDLE, governor "
                  f"{self.governor})", flush=True)
        else:
            self.close()

    def summary(self, row: dict) -> str:
        """``N done, P paused, CPU S s``: reviews finished and the governor's pauses
        since the worker started (or the last summary), and the reviewer's CPU
        seconds in the measured window."""
        text = self.proc.log_text()
        done = text[self.log_mark:].count("succeeded in")
        paused = text[self.log_mark:].count("paused: the other processes use")
        self.log_mark = len(text)
        cpu = (row.get("cpu_s") or {}).get("rev")
        return f"{done} done, {paused} paused, CPU {cpu if cpu is not None else '?'} s"

    def close(self) -> None:
        self.stopping.set()
        if self.thread:
            self.thread.join(timeout=130)
            self.thread = None
        if self.proc.alive:
            self.proc.stop()


def review_ratios(rows: list[dict]) -> str:
    """p95 with the review worker busy over p95 without it in the other window
    of the same block (one N of ``--tables``; blocks alternate off-on and
    on-off), per (workers, N); ``--tables 100 100 100 100`` measures four
    pairs.  Then, per (workers, N) with two windows or more of each kind, the
    medians, and the spread of the windows without reviews (the noise floor
    against which a difference means something)."""
    out = ["\nreviews: p95 with the review worker busy / without (the other window of its block)"]
    blocks: dict = {}
    for r in rows:
        if r.get("reviews") is not None:
            blocks.setdefault((r["workers"], r.get("block")), {})[r["reviews"] == "off"] = r
    for (workers, block), pair in blocks.items():
        off, on = pair.get(True), pair.get(False)
        if off is None or on is None:
            continue
        order = "off, on" if rows.index(off) < rows.index(on) else "on, off"
        ratio = on["p95_ms"] / off["p95_ms"] if off["p95_ms"] else float("nan")
        out.append(f"  workers {workers} N {on['tables']} ({order}): p95 {off['p95_ms']} ms → "
                   f"{on['p95_ms']} ms ({ratio:.2f}×, {100 * (ratio - 1):+.0f} %); "
                   f"p50 {off['p50_ms']} → {on['p50_ms']} ms; served {off.get('served_pct')} → "
                   f"{on.get('served_pct')} %; reviewer {on['reviews']}")
    for key in sorted({(r["workers"], r["tables"]) for r in rows if r.get("reviews")}):
        p95 = {phase: sorted(r["p95_ms"] for r in rows if (r["workers"], r["tables"]) == key
                             and (r.get("reviews") == "off") == (phase == "off"))
               for phase in ("off", "on")}
        if len(p95["off"]) > 1 and p95["on"]:
            off, on = statistics.median(p95["off"]), statistics.median(p95["on"])
            out.append(f"  workers {key[0]} N {key[1]}, median of {len(p95['off'])} windows each: "
                       f"p95 {off:.1f} ms without → {on:.1f} ms with ({100 * (on / off - 1):+.0f} %); "
                       f"without, the windows ranged {p95['off'][0]:.1f}–{p95['off'][-1]:.1f} ms "
                       f"({100 * (p95['off'][0] / off - 1):+.0f} % to "
                       f"{100 * (p95['off'][-1] / off - 1):+.0f} % of their median)")
    return "\n".join(out)


def thread_cpu(directory: Path) -> str:
    """Each sampled process's CPU seconds per thread (``#cpu`` lines of
    scripts/sampler's files; the whole run, start-up included)."""
    lines = ["\nCPU seconds per thread (whole run):"]
    for path in sorted(directory.glob("*.txt")):
        cpu = [line[5:].rsplit(":", 1) for line in path.read_text().splitlines() if line.startswith("#cpu ")]
        if cpu:
            lines.append(f"  {path.stem}: " + ", ".join(f"{name} {int(t) / 100:.1f}" for name, t in cpu))
    return "\n".join(lines)


KINDS = (("web", "web"), ("proxy", "proxy"), ("wrk", "wrk"), ("beat", "beat"), ("pg", "pg"),
         ("pg*", "pg_cluster"), ("redis", "redis"), ("cli", "client"))


def table(rows: list[dict]) -> str:
    """The summary table of the ``bench_live`` JSON rows (see the module)."""
    head = (f"\n{'':>14}{'actions/s':^19}{'commit-to-socket ms':^28}"
            f"{'':>6}{'CPU ms per served action':^49}{'queries':>13}\n"
            f"{'wrk':>3} {'N':>4} {'served':>8} {'asked':>7} {'%':>5} {'seen%':>6} "
            f"{'p50':>6} {'p95':>6} {'p99':>6} {'max':>7} {'errs':>5} "
            + " ".join(f"{label:>6}" for label, _ in KINDS) + f" {'player':>6} {'bot':>4}   load(1,5,15)")
    lines = [head]
    for r in rows:
        cpu = r.get("cpu_ms_per_action") or {}
        queries = r.get("queries_per_move") or {}
        lines.append(
            f"{r.get('workers', 1):>3} {r['tables']:>4} {r['actions_per_s']:>8} "
            f"{r.get('asked_per_s', ''):>7} {r.get('served_pct', ''):>5} "
            f"{'' if r.get('seen_pct') is None else r['seen_pct']:>6} "
            f"{r['p50_ms']:>6} {r['p95_ms']:>6} {r['p99_ms']:>6} {r['max_ms']:>7} "
            f"{r.get('socket_errors', ''):>5} "
            + " ".join(f"{'' if cpu.get(key) is None else cpu[key]:>6}" for _, key in KINDS)
            + f" {queries.get('player', {}).get('queries', ''):>6} {queries.get('bot', {}).get('queries', ''):>4}"
            + f"   {r.get('load', '')}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
