"""``python manage.py review RECORD [--hand H] [--worlds W] [--budget-ms B] [--seed S] [--json]``

Reviews a finished hand of a hand record (``-``: stdin) with the search bot
(:mod:`games.engine.review`), without the database, and prints each
seat's decision count, mean loss per decision and accuracy, then the flagged
decisions (the move played and the better one).  ``--worlds``: worlds
sampled a decision on average (eight each, the rest to the decisions whose
play-outs vary), the review's budget (default
:data:`~games.engine.review.DEFAULT_WORLDS`; ``--max-worlds`` is the same);
the figures are a pure function of the record, ``--seed`` and ``--worlds``.
``--budget-ms``: an optional CPU cap for the whole hand (default none).  Exit 0; 2 with a
sentence on stderr when the file is not a valid record (read by
:func:`games.engine.records.load_record`, as ``replay`` reads it), or its
hand is illegal or not finished.
"""

import json
import sys

from django.core.management.base import BaseCommand

from games.engine.base import RecordError
from games.engine.records import load_record
from games.engine.review import DEFAULT_WORLDS, format_review, review_record


class Command(BaseCommand):
    help = "Review a finished hand of a hand record with the search bot."
    requires_system_checks: list = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("record", help="path of a hand-record JSON file, or - for stdin")
        parser.add_argument("--hand", type=int, default=-1,
                            help="which hand of the record (default the last)")
        parser.add_argument("--worlds", type=int, default=None,
                            help=f"worlds a decision on average (default {DEFAULT_WORLDS})")
        parser.add_argument("--budget-ms", type=float, default=None,
                            help="optional cap on the CPU milliseconds of the whole hand")
        parser.add_argument("--max-worlds", type=int, default=None,
                            help="the same as --worlds (kept for old scripts)")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--json", action="store_true", help="print the review as JSON")

    def handle(self, *args, **opts):
        record, problem = load_record(opts["record"])
        if problem:  # the same sentences as ``manage.py replay``
            self.stderr.write(problem)
            sys.exit(2)
        try:
            review = review_record(record, opts["hand"], budget_ms=opts["budget_ms"],
                                   worlds=opts["worlds"] or opts["max_worlds"],
                                   seed=opts["seed"])
        except (RecordError, ValueError) as exc:
            self.stderr.write(f"not a reviewable hand record: {exc}")
            sys.exit(2)
        if opts["json"]:
            self.stdout.write(json.dumps(review.to_json(), ensure_ascii=False))
        else:
            self.stdout.write(format_review(review))
