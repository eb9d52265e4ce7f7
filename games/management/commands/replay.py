"""``python manage.py replay FILE`` (or ``-`` for stdin): check a hand record.

Runs the real rules engine without touching the database and prints one JSON
object (``docs/spec/hand-record.md``).  Exit 0: every action legal; 1: an
action was illegal (``error`` member, replay stopped); 2: not a valid hand
record (one sentence on stderr, no traceback: unreadable file, invalid UTF-8,
invalid or too deeply nested JSON, a record the engine refuses —); the
file is read by :func:`games.engine.records.load_record`, as ``review`` reads it.
"""

import json
import sys

from django.core.management.base import BaseCommand

from games.engine.base import RecordError
from games.engine.records import load_record, replay_record


class Command(BaseCommand):
    help = "Replay a hand record with the rules engine and print the result as JSON."
    requires_system_checks: list = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("file", help="path of a hand-record JSON file, or - for stdin")

    def handle(self, *args, **options):
        record, problem = load_record(options["file"])
        if problem:
            self.stderr.write(problem)
            sys.exit(2)
        try:
            output, status = replay_record(record)
        except RecordError as exc:
            self.stderr.write(f"not a valid hand record: {exc}")
            sys.exit(2)
        except RecursionError:
            self.stderr.write("not a valid hand record: a value is nested too deeply")
            sys.exit(2)
        self.stdout.write(json.dumps(output, ensure_ascii=False))
        sys.exit(status)
