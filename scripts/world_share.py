"""How near the 保皇 search's sampled worlds are to the real deal: the share of
the other seats' cards a world puts in the right hand.

    python scripts/world_share.py [--seeds 1001 1002 1003] [--every 3] [--worlds 4]
                                  [--records DIR]

For each seed, the hand of ``scripts/review_figures.py`` (one random seat, the
others searching at 4 worlds a decision); at every ``--every``-th decision of
the play phase, ``--worlds`` hands from :func:`games.engine.baohuang.search.sample_hands`
on the acting seat's information set, each with its own seeded generator (a
pure function of the seed and the decision's index).  A world's score is
Σ over the other seats with cards, Σ over card kinds, min(world count, real
count): the cards it deals to the right seat.  Printed: that total over the
other seats' cards, overall and split by whether the acting seat bought or
sold a 3 in 買3 (B7; only those seats know a payment or a 3).

``--records DIR`` keeps each seed's record as ``DIR/SEED.json`` and reads it
back when present: the search bot's play depends on its sampler, so a
before/after comparison of samplers must read the same records.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import get_rules  # noqa: E402
from games.engine.base import Action  # noqa: E402
from games.engine.baohuang import search  # noqa: E402


def record_for(seed: int, records: Path | None) -> dict:
    path = records / f"{seed}.json" if records else None
    if path is not None and path.exists():
        return json.loads(path.read_text())
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from review_figures import hand_record
    rec, _seat = hand_record("baohuang", seed)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(rec))
    return rec


def measure(rec: dict, seed: int, every: int, worlds: int) -> dict:
    """``{"all": [right, total], "buy3": [...], "other": [...]}`` for one record."""
    rules = get_rules("baohuang")
    match = rules.new_match(rec.get("options"), rec.get("start"))
    hand = rec["hands"][-1]
    state = rules.start_hand(match, rules.deal_from_record(match, hand))
    out = {"all": [0, 0], "buy3": [0, 0], "other": [0, 0]}
    n = 0
    for i, a in enumerate(hand["actions"]):
        action = Action.from_record(a, rules.seats)
        if state.phase == "play":
            if n % every == 0:
                seat = action.seat
                info = search.infoset(state, seat)
                key = "buy3" if any(seat in (b, s) for b, s, _p, _t in state.bought) else "other"
                rng = random.Random(seed * 100_000 + i)
                for _ in range(worlds):
                    hands = search.sample_hands(info, rng)
                    if hands is None:
                        continue
                    for s in range(5):
                        if s == seat or not state.sizes[s]:
                            continue
                        right = sum(min(x, y) for x, y in zip(hands[s], state.hands[s]))
                        for k in ("all", key):
                            out[k][0] += right
                            out[k][1] += state.sizes[s]
            n += 1
        state = rules.apply(state, action)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, nargs="+", default=[1001, 1002, 1003])
    p.add_argument("--every", type=int, default=3)
    p.add_argument("--worlds", type=int, default=4)
    p.add_argument("--records", default=None)
    a = p.parse_args(argv)
    records = Path(a.records) if a.records else None
    total = {"all": [0, 0], "buy3": [0, 0], "other": [0, 0]}
    for seed in a.seeds:
        got = measure(record_for(seed, records), seed, a.every, a.worlds)
        for k, (r, t) in got.items():
            total[k][0] += r
            total[k][1] += t
        r, t = got["all"]
        print(f"seed {seed}: {100 * r / t:.2f} % of {t} cards in the right hand")
    for k, (r, t) in total.items():
        print(f"{k}: {100 * r / t if t else float('nan'):.2f} % of {t} cards")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
