"""``python manage.py simulate GAME --hands N --seed S --policies P0,P1,... [--duplicate --budget-ms MS --jobs J] [--records DIR]``

``--records DIR`` writes each hand's record there as
``GAME-NNNN.json`` (``docs/spec/hand-record.md``; one hand per file, with
the match it started from), ready for ``replay`` and ``review``.

Plays bot-only hands in one process (no database) and prints hands per second,
decisions per second, p50/p99 decision time in ms, per-policy mean game points
with a 95% interval, and for shengji the attackers' points and levels gained
per hand by team.
"""

from django.core.management.base import BaseCommand, CommandError

from games.engine import GAMES
from games.engine.simulate import (format_duplicate, format_report, run_duplicate,
                                   run_simulation)
from games.engine import get_rules
import json
import os


class Command(BaseCommand):
    help = "Play bot-only hands and print speed and result figures."
    requires_system_checks: list = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("game", choices=GAMES)
        parser.add_argument("--hands", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--policies",
            default=None,
            help="comma-separated policy per seat (default: heuristic at every seat)",
        )
        parser.add_argument("--max-seconds", type=float, default=None)
        parser.add_argument(
            "--duplicate", action="store_true",
            help="play every deal again with the policies' seats rotated (teams swapped "
                 "in shengji, each seat in turn in baohuang); --hands counts deals",
        )
        parser.add_argument("--budget-ms", type=float, default=None,
                            help="search bot time budget per decision (default 300)")
        parser.add_argument("--jobs", type=int, default=1, help="worker processes (duplicate)")
        parser.add_argument("--records", default=None, metavar="DIR",
                            help="write each hand's record to DIR/GAME-NNNN.json (not with "
                                 "--duplicate)")
        parser.add_argument("--max-worlds", type=int, default=None,
                            help="cap on the worlds a search decision samples (with a large "
                                 "--budget-ms: results independent of machine load)")

    def handle(self, *args, **opts):
        rules = get_rules(opts["game"])
        policies = (opts["policies"] or ",".join(["heuristic"] * rules.seats)).split(",")
        if opts["hands"] < 1:
            raise CommandError("--hands must be at least 1")
        if opts["records"] and opts["duplicate"]:
            raise CommandError("--records writes the hands of a plain run, not --duplicate")
        try:
            if opts["duplicate"]:
                dup = run_duplicate(
                    opts["game"], opts["hands"], opts["seed"], policies,
                    budget_ms=opts["budget_ms"], jobs=max(1, opts["jobs"]),
                    max_seconds=opts["max_seconds"], max_worlds=opts["max_worlds"],
                )
                self.stdout.write(format_duplicate(dup))
                return
            on_record = None
            if opts["records"]:
                on_record = _record_writer(opts["records"], opts["game"])
            report = run_simulation(
                opts["game"], opts["hands"], opts["seed"], policies, opts["max_seconds"],
                budget_ms=opts["budget_ms"], on_record=on_record,
                max_worlds=opts["max_worlds"],
            )
        except (ValueError, KeyError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(format_report(report))


def _record_writer(directory: str, game: str):
    """``on_record`` for :func:`run_simulation`: one JSON file per hand."""

    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot create {directory}: {exc}") from exc

    def write(n: int, record: dict) -> None:
        path = os.path.join(directory, f"{game}-{n:04d}.json")
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(record, fh, ensure_ascii=False)

    return write
