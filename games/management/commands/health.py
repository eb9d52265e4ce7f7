"""``manage.py health web|worker|beat|all``: exit 0 when healthy, 1 when not.

One line per check (``ok``/``FAIL`` and a detail).  For a supervisor's or an
operator's probe of each process kind; see :mod:`games.pages.health`.
"""

from django.core.management.base import BaseCommand

from games.pages import health


class Command(BaseCommand):
    help = "Health of a process kind: web (database, Redis), worker (answers a ping), beat (sweeps)."

    def add_arguments(self, parser):
        parser.add_argument("kind", choices=[*health.CHECKS, "all"])

    def handle(self, *args, kind, **options):
        results = health.run(kind)
        for ok, detail in results:
            self.stdout.write(f"{'ok  ' if ok else 'FAIL'} {detail}")
        if not all(ok for ok, _ in results):
            raise SystemExit(1)
