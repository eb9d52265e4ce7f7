"""The web process's collector thresholds (config.gc_tuning, called by config.asgi)."""

from __future__ import annotations

import gc

import pytest

from config import gc_tuning


@pytest.fixture
def restore_thresholds():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


@pytest.mark.parametrize("value, expected", [
    (None, gc_tuning.DEFAULT),
    ("", gc_tuning.DEFAULT),
    ("5000,10,10", (5000, 10, 10)),
    (" 900, 5 ,7", (900, 5, 7)),
    ("default", None),
    ("5000,10", gc_tuning.DEFAULT),
    ("5000,0,10", gc_tuning.DEFAULT),
    ("many,10,10", gc_tuning.DEFAULT),
])
def test_thresholds_from_the_environment(value, expected):
    assert gc_tuning.thresholds(value) == expected


def test_tune_sets_them(monkeypatch, restore_thresholds):
    gc.set_threshold(700, 10, 10)
    monkeypatch.setenv("GAMES_GC_THRESHOLDS", "12345,6,7")
    assert gc_tuning.tune() == (12345, 6, 7) == gc.get_threshold()
    monkeypatch.delenv("GAMES_GC_THRESHOLDS")
    assert gc_tuning.tune() == gc_tuning.DEFAULT


def test_default_leaves_cpythons(monkeypatch, restore_thresholds):
    gc.set_threshold(700, 10, 10)
    monkeypatch.setenv("GAMES_GC_THRESHOLDS", "default")
    assert gc_tuning.tune() == (700, 10, 10)


def test_the_web_process_tunes_the_collector():
    """What daphne imports sets the thresholds (in a process of its own: the
    import starts the embedded topology's turn runner)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if k != "GAMES_GC_THRESHOLDS"}
    out = subprocess.run(
        [sys.executable, "-c", "import gc, config.asgi; print(gc.get_threshold())"],
        cwd=Path(__file__).resolve().parents[2], env=env, capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == str(gc_tuning.DEFAULT)
