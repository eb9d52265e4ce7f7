"""Calibrate the 升級 IMP scale on simulated boards (docs/tournaments.md, "Team duplicate").

    python scripts/imp_calibration.py [--deals N] [--seed S] [--policies P0,P1,P2,P3]

Plays each deal twice from the same start (random team levels and dealer, as
``games.engine.simulate.random_start``), the second time with the policies'
teams swapped (``rotations``), like the two tables of a team match: team A
sits north-south (seats 0, 2) at table 1 and east-west (seats 1, 3) at
table 2.  A team's board score at a table is its levels gained minus the
other team's (``games.engine.shengji.tournament.board_scores``); the board's
swing for team A is the sum of its scores at the two tables, in levels.  It
prints the distribution of |swing| in levels, then the distribution of |IMPs|
per board under ``clubs.tournament.teams.imps`` (median, quartiles, share of
boards with no swing) and the match IMP margins of 16-board matches.
No database, no Django: the engine only.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from clubs.tournament.teams import imps  # noqa: E402
from games.engine.shengji.tournament import team_board_scores  # noqa: E402
from games.engine import get_rules  # noqa: E402
from games.engine.base import bot_decision  # noqa: E402
from games.engine.simulate import random_start, rotations  # noqa: E402


def board_swing(rules, policies, deal_seed):
    """Team A's swing on one deal, in levels (None if a table voided it)."""
    rng = random.Random(deal_seed)
    match = random_start("shengji", rng)
    seed = rng.getrandbits(63)
    deal = rules.deal(match, seed)
    scores = []
    for r, seating in enumerate(rotations("shengji", policies)):
        bot_rng = random.Random(seed ^ (r + 1) * 0x9E3779B97F4A7C15)
        state = rules.start_hand(match, deal)
        while not rules.is_complete(state):
            seat = rules.to_act(state)
            state = rules.apply(state, bot_decision(rules, state, seat, seating[seat], bot_rng, None))
        s = rules.summary(state)
        if s.get("voided") or not s.get("complete"):
            return None
        team_a = r  # table 1: team A is team 0; table 2 (teams swapped): team 1
        scores.append(team_board_scores(s)[team_a])
    return round(sum(scores), 2)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--deals", type=int, default=400)
    p.add_argument("--seed", type=int, default=34)
    p.add_argument("--policies", default="heuristic,random,heuristic,random")
    a = p.parse_args()
    rules = get_rules("shengji")
    policies = a.policies.split(",")
    master = random.Random(a.seed)
    swings = [x for x in (board_swing(rules, policies, master.getrandbits(62)) for _ in range(a.deals)) if x is not None]
    n = len(swings)
    print(f"deals {n} (policies {a.policies}, seed {a.seed})")
    ab = sorted(abs(s) for s in swings)
    qs = statistics.quantiles(ab, n=10)
    print("|swing| in levels, deciles: " + " ".join(f"{x:.2f}" for x in qs) + f"; max {ab[-1]:.2f}")
    print("|swing| in levels, by whole level: " + ", ".join(
        f"{k}: {v}" for k, v in sorted(Counter(int(x) for x in ab).items())))
    im = sorted(abs(imps(s)) for s in swings)
    q = statistics.quantiles(im, n=4)
    print(f"|IMPs| per board: median {statistics.median(im):g}, quartiles {q[0]:g} / {q[2]:g}, "
          f"mean {statistics.fmean(im):.2f}, max {im[-1]}, no swing {sum(1 for x in im if x == 0) / n:.0%}")
    margins = sorted(abs(sum(imps(s) for s in swings[k:k + 16])) for k in range(0, n - 15, 16))
    if margins:
        print(f"16-board match |IMP margin|: median {statistics.median(margins):g}, "
              f"max {margins[-1]} over {len(margins)} matches")


if __name__ == "__main__":
    main()
