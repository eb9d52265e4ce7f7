"""``python manage.py replay FILE`` (or ``-`` for stdin): check a hand record.

Runs the real rules engine without touching the database and prints one JSON
object (``shared/spec/hand-record.md``).  Exit 0: every action legal; 1: an
action was illegal (``error`` member, replay stopped); 2: not a valid hand
record (message on stderr).
"""

import json
import sys

from django.core.management.base import BaseCommand

from games.engine.base import RecordError
from games.engine.records import replay_record


class Command(BaseCommand):
    help = "Replay a hand record with the rules engine and print the result as JSON."
    requires_system_checks: list = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("file", help="path of a hand-record JSON file, or - for stdin")

    def handle(self, *args, **options):
        path = options["file"]
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
        except OSError as exc:
            self.stderr.write(f"cannot read {path}: {exc}")
            sys.exit(2)
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            self.stderr.write(f"not valid JSON: {exc}")
            sys.exit(2)
        try:
            output, status = replay_record(record)
        except RecordError as exc:
            self.stderr.write(f"not a valid hand record: {exc}")
            sys.exit(2)
        self.stdout.write(json.dumps(output, ensure_ascii=False))
        sys.exit(status)
