"""scripts/bench.py --reviews (the measure): each N of ``--tables`` is a
block of two windows, without and with the review worker, in alternate
orders (ABBA), and each "with" window is compared with the "without" window
of its own block, never with another block's."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "scripts" / "bench.py"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_script", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _row(block, p95, reviews):
    return {"workers": 1, "block": block, "tables": 100, "p95_ms": p95, "p50_ms": p95 / 4,
            "served_pct": 99.0, "reviews": reviews}


def test_each_window_with_reviews_is_paired_within_its_block_and_the_noise_is_shown():
    rows = [_row(0, 200.0, "off"), _row(0, 400.0, "0 done, 1 paused, CPU 0.01 s"),
            _row(1, 1000.0, "0 done, 1 paused, CPU 0.0 s"), _row(1, 800.0, "off")]
    text = _bench().review_ratios(rows)
    assert "N 100 (off, on): p95 200.0 ms → 400.0 ms (2.00×, +100 %)" in text
    # the second block ran "with" first: paired with its own "without" (800), not block 0's
    assert "N 100 (on, off): p95 800.0 ms → 1000.0 ms (1.25×, +25 %)" in text
    assert ("median of 2 windows each: p95 500.0 ms without → 700.0 ms with (+40 %); "
            "without, the windows ranged 200.0–800.0 ms (-60 % to +60 % of their median)") in text
