"""The review's "must show" figures: does a verdict tell a random player from
the search bot, and is it stable?

    python scripts/review_figures.py GAME [--hands 6] [--seed 2001] [--worlds W]
                                     [--factor 10] [--search-worlds 64] [--data FILE]
                                     [--reuse] [--records FILE] [--sweep]

Plays ``--hands`` hands of GAME, each with one seat (chosen by the hand's seed)
playing at random and the others searching (``--search-worlds``, default 64,
worlds a decision at most: a pure function of the seed), reviews each hand at ``--worlds`` worlds per decision
(default: the reviewer's :data:`~games.engine.review.DEFAULT_WORLDS`) and at
``--factor`` times that, and prints:

* per hand, each seat's mean loss per decision and whether the random seat's
  is the worst (the bar: 5 hands of 6), and how often it is at the larger budget;
* the same counting only the decisions where the move lost something in some
  world (loss and standard error not both 0), and the share of those that
  lost nothing in any world, random seat and search seats;
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


#: Worlds a search seat samples a decision unless ``--search-worlds`` says:
#: at most 64 (it stops sooner once the answer is settled), about what the
#: site's search bot samples at its default 300 ms with the compiled engine
#: (session 38, an idle 2-core machine: median 66 worlds a 保皇 decision,
#: mean 284; 升級 median 12, mean 95).  It was 4 until session 38, a bot far
#: weaker than the site's, whose noisy choices the review counted as losses
#: (docs/review.md, session 38).
SEARCH_WORLDS = 64


def hand_record(game: str, seed: int, search_worlds: int = SEARCH_WORLDS) -> tuple[dict, int]:
    """One hand of ``game`` from ``seed``: the record and its random seat.

    The search seats sample ``search_worlds`` worlds a decision (a cap with
    no time limit: the hand is a pure function of the seed)."""
    rules = get_rules(game)
    seat = random.Random(seed).randrange(rules.seats)
    policies = ["search"] * rules.seats
    policies[seat] = "random"
    out: list[dict] = []
    run_simulation(game, 1, seed, policies, budget_ms=1e6, max_worlds=search_worlds,
                   on_record=lambda n, r: out.append(r))
    return out[0], seat


def collect(game: str, hands: int, seed: int, worlds: int, factor: int,
            search_worlds: int = SEARCH_WORLDS, records: Path | None = None) -> list[dict]:
    """Play (or, with ``records``, read back what an earlier run kept there:
    a JSON object by seed) and review the hands."""
    kept = json.loads(records.read_text()) if records and records.exists() else {}
    rows = []
    for h in range(hands):
        s = seed + h
        key = f"{game}/{s}/{search_worlds}"
        if key not in kept:
            kept[key] = hand_record(game, s, search_worlds)
            if records:
                records.write_text(json.dumps(kept))
        rec, rseat = kept[key]
        row = {"seed": s, "random_seat": rseat, "reviews": {}}
        for w in (worlds, worlds * factor):
            if str(w) in row["reviews"]:  # --factor 1: the review is a pure function
                continue
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


def _seat_means(decisions: list[dict], seats: int) -> list[float]:
    """Each seat's mean held-out loss (``raw_loss``) over ``decisions``, 0
    for a seat without any."""
    means = []
    for s in range(seats):
        mine = [d["raw_loss"] for d in decisions if d["seat"] == s]
        means.append(sum(mine) / len(mine) if mine else 0.0)
    return means


def figures(game: str, rows: list[dict], worlds: int, factor: int, flag=None) -> dict:
    """The figures of ``rows``; ``flag(loss, se)``: whether a decision is
    flagged (default: the review's own rule, :func:`games.engine.review.classify`)."""
    unit = get_rules(game).review_unit
    if flag is None:
        def flag(loss, se):
            return rv.classify(loss, se, unit) != "fine"
    seats = get_rules(game).seats
    lo, hi = str(worlds), str(worlds * factor)
    worst = worst_moved = worst_hi = 0
    still = {"random": [0, 0], "search": [0, 0]}
    flags = {"random": [0, 0], "search": [0, 0]}
    agree = total = both = either = flagged_lo = 0
    lines = []
    for row in rows:
        rseat = row["random_seat"]
        ds = [d for d in row["reviews"][lo] if not d["forced"]]
        means = _seat_means(ds, seats)
        is_worst = max(range(seats), key=means.__getitem__) == rseat
        worst += is_worst
        # the same at the larger budget (``factor`` times the worlds)
        big_means = _seat_means([d for d in row["reviews"][hi] if not d["forced"]], seats)
        worst_hi += max(range(seats), key=big_means.__getitem__) == rseat
        # the same, counting only the decisions where the move lost in some
        # world (a loss and its standard error both 0: it lost nothing in any)
        moved = []
        for s in range(seats):
            mine = [d for d in ds if d["seat"] == s]
            live = [d["raw_loss"] for d in mine if d["se"] or d["raw_loss"]]
            k = "random" if s == rseat else "search"
            still[k][0] += len(mine) - len(live)
            still[k][1] += len(mine)
            moved.append(sum(live) / len(live) if live else 0.0)
        worst_moved += max(range(seats), key=moved.__getitem__) == rseat
        lines.append(f"  seed {row['seed']}: random seat {rseat}; mean loss per decision "
                     + " ".join(f"{m:+.3f}" for m in means)
                     + ("  (random worst)" if is_worst else "  (random NOT worst)"))
        big = row["reviews"][hi]
        for d, e in zip(row["reviews"][lo], big):
            if d["forced"]:
                continue
            f = flag(d["loss"], d["se"])
            g = flag(e["loss"], e["se"])
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
    return {"lines": lines, "worst": worst, "worst_moved": worst_moved, "worst_hi": worst_hi,
            "still": {k: v[0] / v[1] if v[1] else 0.0 for k, v in still.items()},
            "hands": len(rows), "flags": flags, "rate": rate,
            "ratio": ratio, "agree": agree / total if total else 0.0,
            "flag_overlap": both / either if either else 1.0, "decisions": total,
            "confirmed": both / flagged_lo if flagged_lo else float("nan"),
            "flagged_lo": flagged_lo}


#: The flag rules ``--sweep`` compares: standard errors taken off the loss,
#: and the inaccuracy threshold as a multiple of the game's own.
SWEEP_Z = (0.0, 1.0, 2.0, 3.0)
SWEEP_SCALE = (0.25, 0.5, 1.0, 2.0)


def sweep(game: str, rows: list[dict], worlds: int, factor: int) -> list[str]:
    """One line per flag rule ``loss − z·se ≥ k × inaccuracy threshold``
    (:data:`SWEEP_Z` × :data:`SWEEP_SCALE`): flag rates of the random seat and
    the search seats, their ratio, and the stability."""
    base = get_rules(game).review_unit.thresholds[0]
    out = [f"{'z':>4} {'threshold':>9}  {'random':>12} {'search':>12} {'ratio':>6} {'stable':>7}"]
    for z in SWEEP_Z:
        for k in SWEEP_SCALE:
            t = k * base

            def flag(loss, se, z=z, t=t):
                return loss - z * max(0.0, se) >= t

            f = figures(game, rows, worlds, factor, flag)
            fr, fs = f["flags"]["random"], f["flags"]["search"]
            out.append(f"{z:4.1f} {t:9.3f}  {fr[0]:4d}/{fr[1]:<4d}{100 * f['rate']['random']:4.1f}% "
                       f"{fs[0]:4d}/{fs[1]:<4d}{100 * f['rate']['search']:4.1f}% {f['ratio']:6.1f} "
                       f"{100 * f['agree']:6.1f}%")
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", choices=["baohuang", "shengji"])
    p.add_argument("--hands", type=int, default=6)
    p.add_argument("--seed", type=int, default=2001)
    p.add_argument("--worlds", type=int, default=None)
    p.add_argument("--factor", type=int, default=10)
    p.add_argument("--search-worlds", type=int, default=SEARCH_WORLDS,
                   help=f"worlds a search seat samples a decision (default {SEARCH_WORLDS})")
    p.add_argument("--pilot", type=int, default=None,
                   help="the review's first-round worlds (review.PILOT_WORLDS; as many as "
                        "--worlds: every decision gets the same worlds, as before session 40)")
    p.add_argument("--data", default=None)
    p.add_argument("--reuse", action="store_true")
    p.add_argument("--records", default=None,
                   help="a JSON file that keeps the hands played (by game, seed and search "
                        "worlds) for the next run: a review change is re-measured without "
                        "playing the hands again")
    p.add_argument("--sweep", action="store_true",
                   help="also print the figures of other flag rules (calibration)")
    a = p.parse_args(argv)
    worlds = a.worlds or rv.DEFAULT_WORLDS
    if a.pilot is not None:
        rv.PILOT_WORLDS = a.pilot
    if a.reuse:
        rows = json.loads(Path(a.data).read_text())
    else:
        rows = collect(a.game, a.hands, a.seed, worlds, a.factor, a.search_worlds,
                       Path(a.records) if a.records else None)
        if a.data:
            Path(a.data).write_text(json.dumps(rows))
    f = figures(a.game, rows, worlds, a.factor)
    print(f"{a.game}: {f['hands']} hands (seeds {rows[0]['seed']}-{rows[-1]['seed']}), "
          f"{worlds} worlds a decision, stability against {worlds * a.factor}")
    print("\n".join(f["lines"]))
    print(f"random seat's mean loss the worst: {f['worst']} of {f['hands']} hands (bar: 5 of 6); "
          f"at {worlds * a.factor} worlds: {f['worst_hi']} of {f['hands']}")
    print(f"the same counting only decisions that lost in some world: {f['worst_moved']} of "
          f"{f['hands']}; decisions that lost nothing in any world: random seat "
          f"{100 * f['still']['random']:.0f} %, search seats {100 * f['still']['search']:.0f} %")
    fr, fs = f["flags"]["random"], f["flags"]["search"]
    print(f"flag rate: random seat {fr[0]}/{fr[1]} = {100 * f['rate']['random']:.1f} %, "
          f"search seats {fs[0]}/{fs[1]} = {100 * f['rate']['search']:.1f} %, "
          f"ratio {f['ratio']:.1f} (bar: 3; nan: nothing flagged)")
    print(f"stability: flagged or not the same at {worlds} and {worlds * a.factor} worlds on "
          f"{100 * f['agree']:.1f} % of {f['decisions']} decisions (bar: 80 %); of the "
          f"decisions flagged at either, {100 * f['flag_overlap']:.1f} % flagged at both; of the "
          f"{f['flagged_lo']} flagged at {worlds}, {100 * f['confirmed']:.1f} % flagged at "
          f"{worlds * a.factor} too")
    if a.sweep:
        print(f"other flag rules, loss - z*se >= threshold ({get_rules(a.game).review_unit.name}):")
        print("\n".join(sweep(a.game, rows, worlds, a.factor)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
