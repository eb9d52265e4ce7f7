"""Tune the 保皇 heuristic's parameters by paired self-play.

    python scripts/tune_heuristic.py --deals N [--seed S] [--jobs J]
        [--try NAME=VALUE[,NAME=VALUE...] ...] [--sweep] [--step F] [--base NAME=VALUE,...]

The heuristic (``games.engine.baohuang.bots.heuristic``) is the 启发式 bot,
the search's play-out policy and the inference's model of the other seats;
its ``PARAMS`` were set by hand.  A candidate (``PARAMS`` with some values
changed) is measured in duplicate against ``PARAMS`` itself: each deal (a
random match start, as ``manage.py simulate --duplicate``) is played once with
``PARAMS`` at all five seats, then five times with the candidate at one seat
(each seat in turn) and ``PARAMS`` at the other four.  The heuristic draws no
random numbers, so the two plays of a seat differ only by the candidate's
decisions; the figure is the candidate seat's game points minus that seat's
in the all-``PARAMS`` play, averaged over the five seats (B12 with doublings;
a voided deal, B8, scores 0 in both and is counted).

``--try`` measures the candidates given; ``--sweep`` measures each numeric
parameter moved up and down by ``--step`` (a fraction of its value, or of 1
where it is 0) and prints them best first; ``--base`` measures against
``PARAMS`` with some values changed (the next round of a search).  Every line gives the mean
difference in game points per hand with its 95 % interval over deals.  The
deals are a pure function of ``--seed``: two runs with the same seed measure
the same hands, so a change found on one seed is checked on another.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engine.baohuang import RULES, bots  # noqa: E402
from games.engine.baohuang.rules import heuristic_action  # noqa: E402
from games.engine.simulate import interval, random_start  # noqa: E402


def play(match, deal, seat_params: list[dict]) -> list[float]:
    """The five seats' game points of one hand, seat ``s`` deciding with
    ``seat_params[s]``."""
    state = RULES.start_hand(match, deal)
    while not RULES.is_complete(state):
        seat = RULES.to_act(state)
        state = RULES.apply(state, heuristic_action(state, seat, params=seat_params[seat]))
    points = RULES.summary(state).get("game_points") or {}
    return [float(points.get(str(s), 0)) for s in range(5)]


def deal_difference(args) -> float:
    """Candidate minus ``PARAMS`` at the same seat, mean over the five seats,
    for deal number ``index`` of ``seed``."""
    seed, index, candidate = args
    rng = random.Random(seed * 1_000_003 + index)
    match = random_start("baohuang", rng)
    deal = RULES.deal(match, rng.getrandbits(63))
    base = play(match, deal, [bots.PARAMS] * 5)
    total = 0.0
    for seat in range(5):
        seating = [bots.PARAMS] * 5
        seating[seat] = candidate
        total += play(match, deal, seating)[seat] - base[seat]
    return total / 5


def measure(candidate: dict, deals: int, seed: int, pool) -> tuple[float, float, float]:
    """``(mean, lo, hi)``: the candidate's difference per hand over ``deals``."""
    values = pool.map(deal_difference, [(seed, i, candidate) for i in range(deals)], chunksize=32)
    iv = interval(values)
    return iv.mean, iv.low, iv.high


def parse_try(text: str) -> dict:
    changes = {}
    for part in text.split(","):
        name, value = part.split("=")
        if name not in bots.PARAMS:
            raise SystemExit(f"unknown parameter {name!r}; known: {', '.join(bots.PARAMS)}")
        changes[name] = None if value == "None" else type(bots.PARAMS[name] or 0.0)(float(value))
    return changes


def sweep(step: float) -> list[dict]:
    out = []
    for name, value in bots.PARAMS.items():
        if not isinstance(value, (int, float)):
            continue
        delta = abs(value) * step if value else step
        for sign in (1, -1):
            moved = value + sign * delta
            if isinstance(value, int):
                moved = int(round(moved)) if round(moved) != value else value + sign
            out.append({name: moved})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--try", dest="tries", action="append", default=[])
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--step", type=float, default=0.3)
    ap.add_argument("--base", default=None,
                    help="NAME=VALUE,...: measure against PARAMS with these changes (a second round)")
    args = ap.parse_args(argv)
    if args.base:
        bots.PARAMS.update(parse_try(args.base))  # before the pool: its workers inherit it
    changes = [parse_try(t) for t in args.tries]
    if args.sweep:
        changes += sweep(args.step)
    if not changes:
        ap.error("nothing to measure: give --try or --sweep")
    rows = []
    with multiprocessing.Pool(args.jobs) as pool:
        for change in changes:
            mean, lo, hi = measure({**bots.PARAMS, **change}, args.deals, args.seed, pool)
            label = ",".join(f"{k}={v}" for k, v in change.items())
            rows.append((mean, label, lo, hi))
            print(f"{label:40s} {mean:+.3f} game points a hand  [{lo:+.3f}, {hi:+.3f}]", flush=True)
    if len(rows) > 1:
        print("\nbest first:")
        for mean, label, lo, hi in sorted(rows, reverse=True):
            print(f"{label:40s} {mean:+.3f}  [{lo:+.3f}, {hi:+.3f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
