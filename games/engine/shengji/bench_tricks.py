"""Microbenchmarks of the shengji trick-taking core (prints figures; no assertions).

Run: ``/work/venv/bin/python -m games.engine.shengji.bench_tricks [--deals N]``

For ``N`` seeded deals (52-card hands, random level and trump) it times, per call:
``candidate_leads`` of a full hand, ``check_lead`` of each candidate lead,
``check_follow`` / ``candidate_follows`` / ``smallest_follow`` of the other three
hands against a random candidate lead, and ``trick_winner`` of the resulting
trick; then it plays complete random-legal hands (13…52 tricks) with a
structural bot loop (candidate lists only) and reports hands per second.
Figures: mean and p99 in microseconds.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from ..cards import shuffled, standard_deck
from .tricks import (
    candidate_follows,
    candidate_leads,
    check_follow,
    check_lead,
    resolve_throw,
    smallest_follow,
    smallest_lead,
    trick_winner,
)
from .trumps import LEVELS, TrumpContext


def _stats(name: str, samples: list[float]) -> None:
    samples.sort()
    n = len(samples)
    mean = sum(samples) / n
    p99 = samples[min(n - 1, int(n * 0.99))]
    print(f"{name:<22} n={n:<6} mean={mean * 1e6:8.1f} us  p99={p99 * 1e6:8.1f} us  "
          f"max={samples[-1] * 1e6:8.1f} us")


def _timed(fn, *args, **kw):
    t = time.perf_counter()
    out = fn(*args, **kw)
    return out, time.perf_counter() - t


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--hands", type=int, default=20)
    args = ap.parse_args(argv)
    rnd = random.Random(1)
    deck = standard_deck() * 4
    t_leads, t_lead, t_check, t_cands, t_small, t_win = [], [], [], [], [], []
    for d in range(args.deals):
        ctx = TrumpContext(rnd.choice(LEVELS), rnd.choice("SHDC"))
        cards = shuffled(deck, d)
        hands = [tuple(cards[i * 52:(i + 1) * 52]) for i in range(4)]
        leads, dt = _timed(candidate_leads, hands[0], ctx)
        t_leads.append(dt)
        for lead in leads[:20]:
            _, dt = _timed(check_lead, hands[0], lead, ctx)
            t_lead.append(dt)
        lead = rnd.choice(leads)
        plays = [(0, lead)]
        for seat in (1, 2, 3):
            cands, dt = _timed(candidate_follows, hands[seat], lead, ctx)
            t_cands.append(dt)
            small, dt = _timed(smallest_follow, hands[seat], lead, ctx)
            t_small.append(dt)
            for c in cands:
                _, dt = _timed(check_follow, hands[seat], lead, c, ctx)
                t_check.append(dt)
            plays.append((seat, rnd.choice(cands)))
        _, dt = _timed(trick_winner, plays, ctx)
        t_win.append(dt)
    _stats("candidate_leads", t_leads)
    _stats("check_lead", t_lead)
    _stats("check_follow", t_check)
    _stats("candidate_follows", t_cands)
    _stats("smallest_follow", t_small)
    _stats("trick_winner", t_win)

    # complete play phases with a random structural bot
    decisions: list[float] = []
    start = time.perf_counter()
    for h in range(args.hands):
        ctx = TrumpContext(rnd.choice(LEVELS), rnd.choice("SHDC"))
        cards = shuffled(deck, 10_000 + h)
        hands = [list(cards[i * 52:(i + 1) * 52]) for i in range(4)]
        leader = h % 4
        while hands[leader]:
            t = time.perf_counter()
            lead = tuple(rnd.choice(candidate_leads(hands[leader], ctx)))
            lo = check_lead(hands[leader], lead, ctx)
            stands, lead = resolve_throw(lo, leader, dict(enumerate(hands)), ctx)
            decisions.append(time.perf_counter() - t)
            plays = [(leader, lead)]
            for i in (1, 2, 3):
                seat = (leader + i) % 4
                t = time.perf_counter()
                play = rnd.choice(candidate_follows(hands[seat], lead, ctx))
                check_follow(hands[seat], lead, play, ctx)
                decisions.append(time.perf_counter() - t)
                plays.append((seat, play))
            for seat, played in plays:
                left = Counter(hands[seat])
                left.subtract(played)
                hands[seat] = list(left.elements())
            leader = trick_winner(plays, ctx)
    elapsed = time.perf_counter() - start
    print(f"random-structural play phases: {args.hands} hands in {elapsed:.2f} s "
          f"= {args.hands / elapsed:.1f} hands/s")
    _stats("decision (gen+check)", decisions)
    _ = smallest_lead  # exported for symmetry


if __name__ == "__main__":
    main()
