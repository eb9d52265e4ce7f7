"""simulate's speed figures: CPU seconds of the process beside wall time, and
which build of the engine ran (pure Python, or ``make engine-fast``'s
compiled modules), so that a figure measured on a shared machine says what
it measured (docs/commands.md, docs/bots.md)."""

from games.engine import simulate
from games.engine.simulate import format_report, run_simulation


def test_the_report_counts_cpu_seconds_and_hands_per_cpu_second():
    report = run_simulation("baohuang", hands=3, seed=5, policies=["heuristic"] * 5)
    assert report.hands == 3
    assert report.cpu_seconds > 0
    assert report.hands_per_cpu_second == report.hands / report.cpu_seconds
    text = format_report(report)
    assert f"cpu: {report.cpu_seconds:.2f} s" in text
    assert f"{report.hands_per_cpu_second:.1f} per CPU-second" in text


def test_the_report_names_the_build_it_ran():
    from games.engine.shengji import state

    expected = "pure Python" if state.__file__.endswith(".py") else "compiled engine"
    assert simulate._engine_build() == expected
    report = run_simulation("shengji", hands=1, seed=2, policies=["heuristic"] * 4)
    assert f"({expected})" in format_report(report)


def test_the_report_says_when_decision_times_are_play_out_means():
    """All-heuristic seats play a hand's play phase in one play-out, timed as a
    whole: the report counts those decisions and says its percentiles are of
    means; with a policy that steps, every decision is timed alone."""
    fast = run_simulation("baohuang", hands=2, seed=5, policies=["heuristic"] * 5)
    assert 0 < fast.playout_decisions < fast.decisions  # 買3/crown decisions step
    assert f"{fast.playout_decisions} of {fast.decisions} decisions were made in play-outs" \
        in format_report(fast)
    stepped = run_simulation("baohuang", hands=2, seed=5, policies=["heuristic"] * 4 + ["random"])
    assert stepped.playout_decisions == 0
    assert "play-outs" not in format_report(stepped)
