"""scripts/strength_vs.py: an earlier commit's search bot against today's, both
engines in lock step.  The base here is HEAD itself (the checkout's own
commit), so the two engines must agree at every step; a base that deals other
cards must stop the run."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def strength():
    spec = importlib.util.spec_from_file_location("strength_vs", ROOT / "scripts" / "strength_vs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def base_folder(strength, tmp_path_factory):
    folder = tmp_path_factory.mktemp("base")
    package = strength.unpack_base("HEAD", folder)
    assert (package / "search.py").exists()
    assert "games.engine" not in (package / "__init__.py").read_text(encoding="utf-8")
    return str(folder)


@pytest.mark.parametrize("game, policies", [
    ("shengji", ["search", "base", "search", "base"]),
    ("baohuang", ["search", "base", "base", "heuristic", "base"]),
])
def test_both_engines_play_every_rotation_in_lock_step(strength, base_folder, game, policies):
    out = strength.play_deal(game, policies, 11, 60_000.0, base_folder, max_worlds=2)
    rotations = 2 if game == "shengji" else 5
    for name in set(policies):
        assert len(out["result"][name]) == rotations
    assert out["decisions"] > 40 * rotations
    # the base's search made decisions of its own, on its own engine's state
    assert len(out["times"]["base"]) > 0


def test_a_base_that_deals_other_cards_stops_the_run(strength, base_folder, monkeypatch):
    base = strength.load_base(base_folder)
    rules = base.get_rules("shengji")
    real_deal = type(rules).deal
    monkeypatch.setattr(type(rules), "deal", lambda self, match, seed: real_deal(self, match, seed + 1))
    with pytest.raises(strength.Diverged, match="different cards"):
        strength.play_deal("shengji", ["search", "base"] * 2, 5, 60_000.0, base_folder, max_worlds=1)


def test_the_report_ends_with_the_difference(strength, base_folder):
    report = strength.run("shengji", base_folder, 2, 3, ["search", "base"] * 2, 60_000.0,
                          max_worlds=1)
    text = strength.format_report(report)
    assert report.deals == 2
    assert text.splitlines()[-1].startswith("difference search − base: ")


def test_the_report_shows_the_load_and_warns_when_the_machine_was_busy(strength, base_folder):
    """The budget is wall time: a figure taken beside other work compares bots
    that searched fewer worlds than on an idle machine, and the report says so."""
    report = strength.run("shengji", base_folder, 1, 3, ["search", "base"] * 2, 60_000.0,
                          max_worlds=1)
    assert len(report.loads) == report.deals == 1
    quiet = strength.load_lines([0.4, 1.2], 2)
    busy = strength.load_lines([1.5, 9.8], 2)
    assert quiet == ["load average during the run: 0.4 to 1.2 on 2 CPUs"]
    assert busy[0] == "load average during the run: 1.5 to 9.8 on 2 CPUs"
    assert busy[1].startswith("warning: the machine was busier than its CPUs")
    assert "load average during the run" in strength.format_report(report)
