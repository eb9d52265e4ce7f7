"""scripts/review_figures.py: the must-show figures read from kept
per-decision data (no hand is played or reviewed here)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "review_figures.py"


def _script():
    spec = importlib.util.spec_from_file_location("review_figures_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _d(seat, loss, se):
    return {"seat": seat, "phase": "play", "loss": max(0.0, loss), "raw_loss": loss, "se": se,
            "worlds": 8, "forced": False}


def _rows():
    # seat 0 plays at random: one clear, confident loss of 1.5 game points and
    # four decisions that lost nothing in any world; seat 1 searches: small
    # noisy losses; the 80-world review agrees on the flag.
    lo = [_d(0, 1.5, 0.1)] + [_d(0, 0.0, 0.0)] * 4 + [_d(1, 0.4, 0.1), _d(1, -0.1, 0.3)]
    hi = [_d(0, 1.4, 0.03)] + [_d(0, 0.0, 0.0)] * 4 + [_d(1, 0.3, 0.02), _d(1, 0.0, 0.1)]
    return [{"seed": 1, "random_seat": 0, "reviews": {"8": lo, "80": hi}}]


def test_the_random_seat_ranks_worst_only_on_the_decisions_that_lost_in_some_world():
    f = _script().figures("baohuang", _rows(), 8, 10)
    # seat 0: 1.5 / 5 = 0.3 a decision over all, 1.5 over the one that lost
    # in some world; seat 1: 0.15 over both
    assert f["worst"] == 1
    assert f["worst_moved"] == 1
    assert f["worst_hi"] == 1  # at 80 worlds: 1.4 / 5 = 0.28 against 0.15
    assert f["still"]["random"] == 0.8 and f["still"]["search"] == 0.0
    assert f["flags"]["random"] == [1, 5] and f["flags"]["search"] == [0, 2]
    assert f["agree"] == 1.0 and f["confirmed"] == 1.0


def test_the_rank_at_the_larger_budget_is_counted_on_its_own_reviews():
    """The 8-world review ranks the random seat worst, the 80-world one
    does not: ``worst`` counts the first, ``worst_hi`` the second."""
    rows = _rows()
    rows[0]["reviews"]["80"] = [_d(0, 0.1, 0.03)] + [_d(0, 0.0, 0.0)] * 4 + [_d(1, 0.3, 0.02), _d(1, 0.0, 0.1)]
    f = _script().figures("baohuang", rows, 8, 10)
    assert f["worst"] == 1 and f["worst_hi"] == 0


def test_the_sweep_flags_more_with_a_lower_threshold_and_fewer_standard_errors():
    lines = _script().sweep("baohuang", _rows(), 8, 10)
    rows = {(float(p[0]), float(p[1])): p for p in (line.split() for line in lines[1:])}
    # a search seat's loss 0.4 ± 0.1: its lower end 0.4 - z × 0.1 against the threshold
    assert rows[(0.0, 0.25)][4] == "1/2"
    assert rows[(2.0, 0.125)][4] == "1/2"
    assert rows[(2.0, 0.25)][4] == "0/2"
    assert rows[(3.0, 0.125)][4] == "0/2"
    assert rows[(0.0, 0.5)][4] == "0/2"
    # the random seat's 1.5 ± 0.1 is flagged by every rule (lower end ≥ 1.2 ≥ 2 × 0.5)
    assert all(p[2] == "1/5" for p in rows.values())


def test_records_keep_the_hands_played_for_the_next_run(tmp_path, monkeypatch):
    """``--records``: the hands played are kept by game, seed and search
    worlds, so a change of the review is re-measured without playing them
    again (the second run plays nothing and gives the same figures)."""
    script = _script()
    kept = tmp_path / "records.json"
    first = script.collect("baohuang", 1, 7, 2, 1, search_worlds=1, records=kept)
    assert list(json.loads(kept.read_text())) == ["baohuang/7/1"]

    def no_play(*args, **kwargs):
        raise AssertionError("the hand was played again")

    monkeypatch.setattr(script, "hand_record", no_play)
    again = script.collect("baohuang", 1, 7, 2, 1, search_worlds=1, records=kept)
    assert again == first
