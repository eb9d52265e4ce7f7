"""The pairing benchmark command runs and prints a time per round (small sizes
here; the figures come from running it by hand, see README)."""

from io import StringIO

from django.core.management import call_command


def test_bench_pairing_prints_every_round():
    out = StringIO()
    call_command("bench_pairing", pairs=21, players=23, rounds=3, stdout=out)
    text = out.getvalue()
    assert text.count(" ms ") == 6
    assert "repeats 0" in text and "bots 2" in text


def test_tournament_core_has_no_django_imports():
    """clubs.tournament is pure Python: no module in it imports Django."""
    import ast
    from pathlib import Path

    import clubs.tournament

    root = Path(clubs.tournament.__file__).parent
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in getattr(node, "names", [])] if isinstance(node, ast.Import) else [
                getattr(node, "module", "") or ""
            ] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.split(".")[0] == "django" for n in names), path


def test_bench_round_start_prints_times(db, multipliers):
    out = StringIO()
    call_command("bench_round_start", tables=2, game="baohuang", stdout=out)
    text = out.getvalue()
    assert "baohuang: 2 tables, 10 entries" in text and "ms per table" in text
