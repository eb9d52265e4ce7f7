"""Head-to-head: today's search bot against the search bot of an earlier commit.

    python scripts/strength_vs.py GAME --base REV [--deals N] [--budget-ms MS]
        [--policies search,base,...] [--jobs J] [--seed S] [--max-worlds W]

The engine of commit ``REV`` (``games/engine`` at that commit, read with
``git archive``) is unpacked into a temporary folder as a package of its own
(``base_engine``; its absolute ``games.engine`` names rewritten), so both
versions run in one process.  Every hand is played by both engines in lock
step: the current engine runs the table, the base engine replays each action
through its own ``apply`` (an action crosses as its hand-record form,
``Action.to_record``/``from_record``), and a seat whose policy is ``base``
decides with the base engine's own ``search`` bot on the base engine's state.
The deal, the turn order and the result must agree between the two engines at
every step (they implement the same rules; a disagreement stops the run with
the step).  Policies: ``search``, ``heuristic``, ``random`` (today's bots) and
``base`` (the base commit's ``search``).

Deals are played in duplicate, as ``manage.py simulate --duplicate`` does
(``games.engine.simulate.rotations``: 升級 with the teams swapped, 保皇 with the
policies moved round all five seats), from a random match start, and the last
line is ``difference search − base: +X per hand (95% CI [lo, hi], n deals)`` in
the game's unit (升級 levels gained per hand, 保皇 game points per hand).

A budget is wall-clock milliseconds per decision, for both bots alike, so a
loaded machine buys both fewer worlds; run it on a quiet machine with
``--jobs`` at most the number of cores.
"""

from __future__ import annotations

import argparse
import importlib
import io
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engine import get_rules  # noqa: E402
from games.engine.base import Action, bot_decision  # noqa: E402
from games.engine.search import SearchConfig  # noqa: E402
from games.engine.simulate import (  # noqa: E402
    DuplicateReport, interval, random_start_options, rotations)

BASE_PACKAGE = "base_engine"
POLICIES = ("search", "base", "heuristic", "random")

_base = None  # the loaded base package (per process)
_base_dir: str | None = None


def unpack_base(rev: str, dest: str | os.PathLike, repo: Path = ROOT) -> Path:
    """Unpack ``games/engine`` of commit ``rev`` as ``dest/base_engine``.

    Returns the package folder.  Raises ``subprocess.CalledProcessError`` for
    an unknown commit.  The package's ``games.engine`` names (its game
    registry imports ``games.engine.<game>``; doctests name it too) become
    ``base_engine``; its relative imports need nothing."""
    data = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", rev,
                           "games/engine"], check=True, capture_output=True).stdout
    dest = Path(dest)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")
    package = dest / BASE_PACKAGE
    (dest / "games" / "engine").rename(package)
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "games.engine" in text:
            path.write_text(text.replace("games.engine", BASE_PACKAGE), encoding="utf-8")
    return package


def load_base(folder: str):
    """Import the unpacked base package from ``folder`` (once per process)."""
    global _base, _base_dir
    if _base is None or _base_dir != folder:
        if folder not in sys.path:
            sys.path.insert(0, folder)
        _base = importlib.import_module(BASE_PACKAGE)
        _base_dir = folder
    return _base


class Diverged(AssertionError):
    """The two engines disagree (deal, turn or result) on the same actions."""


def play_deal(game: str, policies: list[str], deal_seed: int, budget_ms: float,
              base_folder: str, max_worlds: int | None = None) -> dict:
    """One deal in every rotation, both engines in lock step.

    Returns ``{"result": {policy: [mean result per rotation]}, "times":
    {policy: [decision seconds]}, "decisions": n, "voided": n, "worlds":
    {policy: [worlds per searched decision]}}``; the result is levels gained
    (升級) or game points (保皇).  Raises :class:`Diverged`."""
    base = load_base(base_folder)
    rules, brules = get_rules(game), base.get_rules(game)
    config = SearchConfig(budget_ms=budget_ms, max_playouts=max_worlds)
    bbase = importlib.import_module(f"{BASE_PACKAGE}.base")
    bsearch = importlib.import_module(f"{BASE_PACKAGE}.search")
    bconfig = bsearch.SearchConfig(budget_ms=budget_ms, max_playouts=max_worlds)
    BAction = bbase.Action
    rng = random.Random(deal_seed)
    start = random_start_options(game, rng)
    match, bmatch = rules.new_match(None, start), brules.new_match(None, start)
    out = {"result": {}, "times": {}, "decisions": 0, "voided": 0}
    for _attempt in range(20):
        seed = rng.getrandbits(63)
        deal, bdeal = rules.deal(match, seed), brules.deal(bmatch, seed)
        if rules.deal_to_record(deal) != brules.deal_to_record(bdeal):
            raise Diverged(f"deal {seed}: the engines deal different cards")
        rows = []
        for r, seating in enumerate(rotations(game, policies)):
            rng_now = random.Random(seed ^ (r + 1) * 0x9E3779B97F4A7C15)
            rng_base = random.Random(seed ^ (r + 1) * 0x9E3779B97F4A7C15)
            state, bstate = rules.start_hand(match, deal), brules.start_hand(bmatch, bdeal)
            step = 0
            while not rules.is_complete(state):
                seat = rules.to_act(state)
                if brules.to_act(bstate) != seat or brules.is_complete(bstate):
                    raise Diverged(f"deal {seed}, rotation {r}, step {step}: turn differs")
                policy = seating[seat]
                t0 = time.perf_counter()
                if policy == "base":
                    baction = bbase.bot_decision(brules, bstate, seat, "search", rng_base,
                                                 bconfig)
                    action = Action.from_record(baction.to_record(), rules.seats)
                else:
                    action = bot_decision(rules, state, seat, policy, rng_now, config)
                    baction = BAction.from_record(action.to_record(), brules.seats)
                out["times"].setdefault(policy, []).append(time.perf_counter() - t0)
                state = rules.apply(state, action)
                bstate = brules.apply(bstate, baction)
                out["decisions"] += 1
                step += 1
            if not brules.is_complete(bstate):
                raise Diverged(f"deal {seed}, rotation {r}: the base hand is not over")
            summary, bsummary = rules.summary(state), brules.summary(bstate)
            for key in ("game_points", "levels_gained", "voided"):
                if summary.get(key) != bsummary.get(key):
                    raise Diverged(f"deal {seed}, rotation {r}: {key} differs: "
                                   f"{summary.get(key)!r} against {bsummary.get(key)!r}")
            if summary.get("voided"):
                out["voided"] += 1
                break  # the table redeals (B8): this deal is not counted
            rows.append({name: policy_result(game, seating, summary, name)
                         for name in set(policies)})
        else:
            for row in rows:
                for name, value in row.items():
                    out["result"].setdefault(name, []).append(value)
            return out
    return out


def policy_result(game: str, seating: list[str], summary: dict, name: str) -> float:
    """The result of the seats that ``seating`` gives policy ``name``, from a
    hand's ``summary``: 升級 the levels its team gained (S17), 保皇 its seats'
    mean game points."""
    seats = [s for s, p in enumerate(seating) if p == name]
    if game == "shengji":
        gained = summary["levels_gained"]
        return statistics.fmean(float(gained[str(t)]) for t in {s % 2 for s in seats})
    points = summary.get("game_points") or {}
    return statistics.fmean(float(points.get(str(s), 0)) for s in seats)


def _job(args):
    return play_deal(*args)


def run(game: str, base_folder: str, deals: int, seed: int, policies: list[str],
        budget_ms: float, jobs: int = 1, max_worlds: int | None = None,
        progress=None) -> DuplicateReport:
    """``deals`` duplicate deals (see :func:`play_deal`); the report's
    ``levels`` (升級) or ``points`` (保皇) hold each policy's mean per deal."""
    master = random.Random(seed)
    seeds = [master.getrandbits(63) for _ in range(deals)]
    report = DuplicateReport(game=game, policies=list(policies))
    into = report.levels if game == "shengji" else report.points
    tasks = [(game, list(policies), s, budget_ms, base_folder, max_worlds) for s in seeds]
    started = time.perf_counter()

    def absorb(res):
        if not res["result"]:
            return
        report.deals += 1
        report.voided += res["voided"]
        report.decisions += res["decisions"]
        report.hands += len(next(iter(res["result"].values())))
        for name, xs in res["result"].items():
            into.setdefault(name, []).append(statistics.fmean(xs))
        for name, xs in res["times"].items():
            report.times.setdefault(name, []).extend(xs)
        report.loads.append(os.getloadavg()[0])
        if progress is not None:
            progress(report)

    if jobs <= 1:
        for t in tasks:
            absorb(_job(t))
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for res in pool.imap_unordered(_job, tasks):
                absorb(res)
    report.wall_seconds = time.perf_counter() - started
    return report


def format_report(report: DuplicateReport, a: str = "search", b: str = "base") -> str:
    """The figures; the last line is ``difference a − b``."""
    from games.engine.simulate import _decision_lines, _unit
    unit = _unit(report.game)
    src = report.levels if report.game == "shengji" else report.points
    lines = [f"game: {report.game}  policies: {','.join(report.policies)}  duplicate, head to head",
             f"deals: {report.deals}  hands: {report.hands} (voided and redealt {report.voided})"
             f"  decisions: {report.decisions}  wall: {report.wall_seconds:.1f} s"]
    lines += _decision_lines(report.times)
    lines += load_lines(report.loads, os.cpu_count() or 1)
    for name in sorted(src):
        lines.append(f"{unit} per hand, policy {name}: {interval(src[name])}")
    if a in src and b in src:
        d = interval([x - y for x, y in zip(src[a], src[b])])
        lines.append(f"difference {a} − {b}: {d.mean:+.3f} {unit} per hand "
                     f"(95% CI [{d.low:+.3f}, {d.high:+.3f}], n={d.n} deals)")
    return "\n".join(lines)


def load_lines(loads: list[float], cpus: int) -> list[str]:
    """The machine's load during the run (1-minute averages as deals ended),
    and a warning when it exceeded the CPUs: the budget is wall time, so a
    busy machine gives both bots fewer worlds a decision (in 升級, with the
    CI suite beside the run, a median of 0 worlds in the auction and 1 in
    play: two heuristics compared, not two searches)."""
    if not loads:
        return []
    lines = [f"load average during the run: {min(loads):.1f} to {max(loads):.1f} on {cpus} CPUs"]
    if max(loads) > cpus:
        lines.append("warning: the machine was busier than its CPUs; at a wall-time budget "
                     "both bots searched fewer worlds than on an idle machine "
                     "(run it alone, or with --max-worlds and a large --budget-ms)")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=["shengji", "baohuang"])
    parser.add_argument("--base", required=True, help="the commit whose search bot plays 'base'")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=100.0)
    parser.add_argument("--max-worlds", type=int, default=None)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--policies", default=None,
                        help="comma-separated, one per seat (default: 升級 search,base,search,base; "
                             "保皇 search,base,base,base,base)")
    args = parser.parse_args(argv)
    policies = (args.policies.split(",") if args.policies else
                (["search", "base"] * 2 if args.game == "shengji" else ["search"] + ["base"] * 4))
    if any(p not in POLICIES for p in policies):
        parser.error(f"policies are {', '.join(POLICIES)}")
    with tempfile.TemporaryDirectory(prefix="strength-base-") as folder:
        unpack_base(args.base, folder)
        load_base(folder)

        def progress(report):
            src = report.levels if args.game == "shengji" else report.points
            if "search" in src and "base" in src and report.deals % 5 == 0:
                d = interval([x - y for x, y in zip(src["search"], src["base"])])
                print(f"  {report.deals} deals: search − base {d}", file=sys.stderr, flush=True)

        report = run(args.game, folder, args.deals, args.seed, policies, args.budget_ms,
                     args.jobs, args.max_worlds, progress)
    print(f"base: {args.base}  budget: {args.budget_ms:g} ms a decision")
    print(format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
