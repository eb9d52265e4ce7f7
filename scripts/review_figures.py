"""The review's "must show" figures: does a verdict tell a random player from
the search bot, and is it stable?

    python scripts/review_figures.py GAME [--hands 6] [--seed 2001] [--worlds W]
                                     [--factor 10] [--data FILE] [--reuse]

Plays ``--hands`` hands of GAME, each with one seat (chosen by the hand's seed)
playing at random and the others searching (4 worlds a decision: a pure
function of the seed), reviews each hand at ``--worlds`` worlds per decision
(default: the reviewer's :data:`~games.engine.review.DEFAULT_WORLDS`) and at
``--factor`` times that, and prints:

* per hand, each seat's mean loss per decision and whether the random seat's
  is the worst (the bar: 5 hands of 6);
* the flag rate (flagged / unforced decisions) of the random seat and of the
  search seats at the default budget, and their ratio (the bar: 3);
* stability: the share of all unforced decisions with the same
  flagged/not-flagged answer at both budgets (the bar: 80 % of decisions);
  of the decisions flagged at either budget, the share flagged at both; and
  of those flagged at the default budget, the share the larger review flags
  too (a flag "confirmed").

``--data FILE`` keeps the raw per-decision figures (JSON) and ``--reuse``
reads them back instead of reviewing again, so a change of the flag rule
(:func:`games.engine.review.classify`) is re-measured in a second.  Seeds
2001 and up are not used by the tests (tests/engine/test_review.py uses 1,
5, 7); calibration used 1001 and up.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import get_rules  # noqa: E402
from games.engine import review as rv  # noqa: E402
from games.engine.simulate import run_simulation  # noqa: E402


def hand_record(game: str, seed: int) -> tuple[dict, int]:
    """One hand of ``game`` from ``seed``: the record and its random seat."""
    rules = get_rules(game)
    seat = random.Random(seed).randrange(rules.seats)
    policies = ["search"] * rules.seats
    policies[seat] = "random"
    out: list[dict] = []
    run_simulation(game, 1, seed, policies, budget_ms=1e6, max_worlds=4,
                   on_record=lambda n, r: out.append(r))
    return out[0], seat


def collect(game: str, hands: int, seed: int, worlds: int, factor: int) -> list[dict]:
    rows = []
    for h in range(hands):
        s = seed + h
        rec, rseat = hand_record(game, s)
        row = {"seed": s, "random_seat": rseat, "reviews": {}}
        for w in (worlds, worlds * factor):
            t = time.process_time()
            review = rv.review_record(rec, worlds=w, seed=1, all_cards=False)
            row["reviews"][str(w)] = [
                {"seat": d.seat, "phase": d.phase, "loss": d.loss, "raw_loss": d.raw_loss, "se": d.se,
                 "worlds": d.worlds, "forced": d.verdict == "forced"}
                for d in review.decisions]
            print(f"  {game} seed {s} random seat {rseat}: {w} worlds in "
                  f"{time.process_time() - t:.1f} s cpu", file=sys.stderr, flush=True)
        rows.append(row)
    return rows


def figures(game: str, rows: list[dict], worlds: int, factor: int) -> dict:
    unit = get_rules(game).review_unit
    seats = get_rules(game).seats
    lo, hi = str(worlds), str(worlds * factor)
    worst = 0
    flags = {"random": [0, 0], "search": [0, 0]}
    agree = total = both = either = flagged_lo = 0
    lines = []
    for row in rows:
        rseat = row["random_seat"]
        ds = [d for d in row["reviews"][lo] if not d["forced"]]
        means = []
        for s in range(seats):
            mine = [d["raw_loss"] for d in ds if d["seat"] == s]
            means.append(sum(mine) / len(mine) if mine else 0.0)
        is_worst = max(range(seats), key=means.__getitem__) == rseat
        worst += is_worst
        lines.append(f"  seed {row['seed']}: random seat {rseat}; mean loss per decision "
                     + " ".join(f"{m:+.3f}" for m in means)
                     + ("  (random worst)" if is_worst else "  (random NOT worst)"))
        big = row["reviews"][hi]
        for d, e in zip(row["reviews"][lo], big):
            if d["forced"]:
                continue
            f = rv.classify(d["loss"], d["se"], unit) != "fine"
            g = rv.classify(e["loss"], e["se"], unit) != "fine"
            k = "random" if d["seat"] == rseat else "search"
            flags[k][0] += f
            flags[k][1] += 1
            total += 1
            agree += f == g
            both += f and g
            either += f or g
            flagged_lo += f
    rate = {k: v[0] / v[1] if v[1] else 0.0 for k, v in flags.items()}
    if rate["search"]:
        ratio = rate["random"] / rate["search"]
    else:  # no search seat flagged: infinite if the random seat was, else undefined
        ratio = float("inf") if rate["random"] else float("nan")
    return {"lines": lines, "worst": worst, "hands": len(rows), "flags": flags, "rate": rate,
            "ratio": ratio, "agree": agree / total if total else 0.0,
            "flag_overlap": both / either if either else 1.0, "decisions": total,
            "confirmed": both / flagged_lo if flagged_lo else float("nan"),
            "flagged_lo": flagged_lo}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", choices=["baohuang", "shengji"])
    p.add_argument("--hands", type=int, default=6)
    p.add_argument("--seed", type=int, default=2001)
    p.add_argument("--worlds", type=int, default=None)
    p.add_argument("--factor", type=int, default=10)
    p.add_argument("--data", default=None)
    p.add_argument("--reuse", action="store_true")
    a = p.parse_args(argv)
    worlds = a.worlds or rv.DEFAULT_WORLDS
    if a.reuse:
        rows = json.loads(Path(a.data).read_text())
    else:
        rows = collect(a.game, a.hands, a.seed, worlds, a.factor)
        if a.data:
            Path(a.data).write_text(json.dumps(rows))
    f = figures(a.game, rows, worlds, a.factor)
    print(f"{a.game}: {f['hands']} hands (seeds {rows[0]['seed']}-{rows[-1]['seed']}), "
          f"{worlds} worlds a decision, stability against {worlds * a.factor}")
    print("\n".join(f["lines"]))
    print(f"random seat's mean loss the worst: {f['worst']} of {f['hands']} hands (bar: 5 of 6)")
    fr, fs = f["flags"]["random"], f["flags"]["search"]
    print(f"flag rate: random seat {fr[0]}/{fr[1]} = {100 * f['rate']['random']:.1f} %, "
          f"search seats {fs[0]}/{fs[1]} = {100 * f['rate']['search']:.1f} %, "
          f"ratio {f['ratio']:.1f} (bar: 3; nan: nothing flagged)")
    print(f"stability: flagged or not the same at {worlds} and {worlds * a.factor} worlds on "
          f"{100 * f['agree']:.1f} % of {f['decisions']} decisions (bar: 80 %); of the "
          f"decisions flagged at either, {100 * f['flag_overlap']:.1f} % flagged at both; of the "
          f"{f['flagged_lo']} flagged at {worlds}, {100 * f['confirmed']:.1f} % flagged at "
          f"{worlds * a.factor} too")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
