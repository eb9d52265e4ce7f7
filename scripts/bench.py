#!/usr/bin/env python3
"""``make bench``: start a production stack, run ``manage.py bench_live`` per N, stop it.

    python scripts/bench.py --tables 10 20 50 --hands 3 --seconds 60 [--webs 2]

The stack (``tests/integration/stack.py``) is a fresh PostgreSQL database
``cardroom_it_*``, ``--webs`` daphne processes, one Celery worker
(``--worker-pool``, ``--concurrency``) and one beat, against Redis on
127.0.0.1; it is torn down (processes stopped, database dropped) at the end,
also on Ctrl-C.  Each N gets fresh rooms; the figures are printed as they come
and once more as a table at the end.
"""

from __future__ import annotations

import argparse
import json
import os
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
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL"),
                        help="default: redis://127.0.0.1:6379/<index + 8 of REDIS_URL, or 9>")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="bench-stack-"))
    kw = {"webs": args.webs,
          "worker_args": (f"--pool={args.worker_pool}", f"--concurrency={args.concurrency}")}
    if args.redis_url:
        kw["redis_url"] = args.redis_url
    stack = LiveStack.production(workdir, **kw)
    rows = []
    status = 0
    try:
        print(f"starting the production stack in {workdir} ...", flush=True)
        stack.start()
        urls = ",".join(stack.web_url_of(i) for i in range(args.webs))
        print(f"daphne: {urls}; worker {args.worker_pool}×{args.concurrency}; beat; "
              f"db {stack.created_db}; redis {stack.redis_url}", flush=True)
        for n in args.tables:
            cmd = [sys.executable, "manage.py", "bench_live", "--game", args.game, "--tables", str(n),
                   "--hands", str(args.hands), "--seconds", str(args.seconds),
                   "--bot-delay-ms", str(args.bot_delay_ms), "--url", urls, "--json"]
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
            rows.append(json.loads(lines[-1]))
    except BaseException:
        print(stack.logs(40), file=sys.stderr)
        raise
    finally:
        stack.close()
    if rows:
        print("\n   N  samples   p50 ms   p95 ms   p99 ms   max ms  actions/s  hands")
        for r in rows:
            print(f"{r['tables']:>4} {r['samples']:>8} {r['p50_ms']:>8} {r['p95_ms']:>8} "
                  f"{r['p99_ms']:>8} {r['max_ms']:>8} {r['actions_per_s']:>10} "
                  f"{r['hands_completed']:>6}")
    return status


if __name__ == "__main__":
    sys.exit(main())
