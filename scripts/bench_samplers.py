"""Print how many world samples per second each search bot's sampler deals
(``sample_hands`` of games/engine/shengji/search.py and
games/engine/baohuang/search.py), over states reached by heuristic play from
fixed seeds, plus the hard 升級 state of the voids example (seed 3651, 68 steps).

    python scripts/bench_samplers.py [--repeat 20]

Best of five runs each.  A benchmark printing figures, not a test: compare runs before and after a change.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.getcwd())

from games.engine.baohuang import RULES as BH  # noqa: E402
from games.engine.baohuang import search as bh_search  # noqa: E402
from games.engine.shengji import RULES as SJ  # noqa: E402
from games.engine.shengji import search as sj_search  # noqa: E402
from games.engine.shengji.view import seat_view  # noqa: E402


def advance(rules, seed, steps, match=None):
    match = match or rules.new_match()
    state = rules.start_hand(match, rules.deal(match, seed))
    rng = random.Random(seed)
    for _ in range(steps):
        if rules.is_complete(state):
            break
        state = rules.apply(state, rules.bot_action(state, rules.to_act(state), "heuristic", rng))
    return state


def rate(fn, views, repeat, runs=5):
    """Calls per second of ``fn(view, rng)``, the best of ``runs`` runs (the
    machine is shared: the best run is the least disturbed)."""
    best = 0.0
    for _ in range(runs):
        rng = random.Random(1)
        n = 0
        t0 = time.perf_counter()
        for _ in range(repeat):
            for v in views:
                fn(v, rng)
                n += 1
        best = max(best, n / (time.perf_counter() - t0))
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    a = ap.parse_args()
    sj_views = []
    for seed in range(8):
        for steps in (0, 20, 40, 60, 90, 130):
            st = advance(SJ, seed, steps)
            if not SJ.is_complete(st):
                sj_views.append(seat_view(st, SJ.to_act(st)))
    hard = advance(SJ, 3651, 68)
    hard_view = [seat_view(hard, SJ.to_act(hard))]
    bh_views = []
    for seed in range(8):
        match = BH.new_match(None, {"previous": {
            "emperor": seed % 5, "guard": (seed + 2) % 5, "solo": None,
            "guard_declared": "open", "finish_order": [(seed + i) % 5 for i in range(5)]}})
        for steps in (0, 10, 30, 60, 100):
            st = advance(BH, seed, steps, match)
            if not BH.is_complete(st):
                bh_views.append(bh_search.infoset(st, BH.to_act(st)))
    print(f"shengji sample_hands: {rate(sj_search.sample_hands, sj_views, a.repeat):8.0f} calls/s"
          f" over {len(sj_views)} states")
    print(f"shengji sample_hands, hard voids state (3651/68): "
          f"{rate(sj_search.sample_hands, hard_view, a.repeat * 10):8.0f} calls/s")
    print(f"baohuang sample_hands: {rate(bh_search.sample_hands, bh_views, a.repeat):8.0f} calls/s"
          f" over {len(bh_views)} states")


if __name__ == "__main__":
    main()
