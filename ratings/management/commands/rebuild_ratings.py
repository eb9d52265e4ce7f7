"""``python manage.py rebuild_ratings [--game G] [--check]``: recompute every
rating from the stored hands (:mod:`ratings.rebuild`) and write them, or with
``--check`` only compare (exit status 1 when a stored value differs)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from games.models import GAME_CHOICES
from ratings import rebuild


class Command(BaseCommand):
    help = "Recompute the ratings from the stored hands (same numbers as the live updates)."

    def add_arguments(self, parser):
        parser.add_argument("--game", choices=[g for g, _label in GAME_CHOICES],
                            help="only this game (default: every game)")
        parser.add_argument("--check", action="store_true",
                            help="compare with the stored ratings, write nothing; exit 1 on a difference")
        parser.add_argument("--show", type=int, default=10,
                            help="print at most this many differences (default 10)")

    def handle(self, *args, game=None, check=False, show=10, **options):
        games = [game] if game else [g for g, _label in GAME_CHOICES]
        differences = 0
        for code in games:
            started = time.perf_counter()
            result = rebuild.recompute(code)
            for line in result.differences[:show]:
                self.stdout.write(f"  differs: {line}")
            differences += len(result.differences)
            if not check:
                rebuild.write(result)
            self.stdout.write(
                f"{code}: {len(result.hands)} rated hands, {len(result.standings)} players, "
                f"{len(result.differences)} stored values differed"
                f"{'' if check else ' (rewritten)'} [{time.perf_counter() - started:.2f} s]"
            )
        if check and differences:
            raise CommandError(f"{differences} stored values differ from the recomputed ones")
