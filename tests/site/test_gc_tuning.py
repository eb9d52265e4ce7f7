"""The collector thresholds of the web, worker, manage.py and review-child processes (config.gc_tuning: called by config.asgi, on celery's worker_init, by manage.py; the review child takes its parent's)."""

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


def test_the_web_process_tunes_the_collector_before_django_starts():
    """config.asgi (what daphne imports) calls the tuning before it sets Django
    up (importing it here would start a web process's threads)."""
    import ast
    from pathlib import Path

    tree = ast.parse((Path(__file__).resolve().parents[2] / "config" / "asgi.py").read_text())
    calls = [node.value.func.id for node in tree.body
             if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
             and isinstance(node.value.func, ast.Name)]
    setup = next(i for i, node in enumerate(tree.body) if isinstance(node, ast.Assign)
                 and isinstance(node.value, ast.Call) and getattr(node.value.func, "id", "") == "get_asgi_application")
    tuned = next(i for i, node in enumerate(tree.body) if isinstance(node, ast.Expr)
                 and isinstance(node.value, ast.Call) and getattr(node.value.func, "id", "") == "tune_gc")
    assert "tune_gc" in calls and tuned < setup
    imported = {alias.asname or alias.name for node in tree.body if isinstance(node, ast.ImportFrom)
                and node.module == "config.gc_tuning" for alias in node.names}
    assert imported == {"tune_gc"}


def test_a_worker_tunes_the_collector_as_it_starts(monkeypatch, restore_thresholds):
    """celery's worker_init (sent in the worker's process as it starts) sets
    the same thresholds as the web process."""
    from celery.signals import worker_init

    import config.celery  # noqa: F401  (connects the handler)

    gc.set_threshold(700, 10, 10)
    monkeypatch.delenv("GAMES_GC_THRESHOLDS", raising=False)
    worker_init.send(sender=None)
    assert gc.get_threshold() == gc_tuning.DEFAULT


def test_every_manage_py_command_runs_with_the_tuned_collector():
    """manage.py tunes the collector before any command (simulate, review,
    runserver run the engine's hot loops); GAMES_GC_THRESHOLDS=default keeps
    CPython's."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = "import gc; print(tuple(gc.get_threshold()))"
    env = {k: v for k, v in os.environ.items() if k != "GAMES_GC_THRESHOLDS"}
    tuned = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=root, env=env,
                           capture_output=True, text=True, timeout=120, check=True)
    assert tuned.stdout.strip().splitlines()[-1] == str(gc_tuning.DEFAULT)
    plain = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=root,
                           env={**env, "GAMES_GC_THRESHOLDS": "default"},
                           capture_output=True, text=True, timeout=120, check=True)
    assert plain.stdout.strip().splitlines()[-1] == "(700, 10, 10)"


def test_the_embedded_review_child_runs_with_its_parents_collector(restore_thresholds):
    """The spawned review child (games.runtime.reviewing.review_pool, started
    with governor.nice_child) gets the thresholds of the process that spawned
    it (tuned there by config.asgi or manage.py): a review is play-outs."""
    from games.runtime import reviewing

    gc.set_threshold(12345, 6, 7)
    pool = reviewing.review_pool()
    try:
        assert tuple(pool.submit(gc.get_threshold).result(timeout=60)) == (12345, 6, 7)
    finally:
        pool.shutdown()
