"""``python manage.py bench_round_start --tables 100``: time starting a round.

Creates a club and an event of bot entries big enough for ``--tables`` tables
(two pairs per table for a match game, five players for a table game), pairs
round 1 and times :func:`clubs.running.events.start_round` (one room per table, seats,
bots, the first deal of every table, in one transaction), then ends the round
at once (the rooms are closed).  Uses the configured database (embedded:
SQLite); prints the pairing time, the start time and the time per table.
"""

from __future__ import annotations

import secrets
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from clubs import formats, services
from clubs.running import events
from clubs.running.rounds import finish_round


class Command(BaseCommand):
    help = "Time starting a round of N tables (rooms, seats, first deal)."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=100)
        parser.add_argument("--game", required=True, help="a game code with tournament hooks")

    def handle(self, *args, tables, game, **options):
        settings.GAMES_SCHEDULING_DISABLED = True  # measure the start, not the bots
        hooks = formats.hooks(game)
        tag = secrets.token_hex(3)
        organiser = get_user_model().objects.create_user(f"bench-{tag}", password=secrets.token_urlsafe(16))
        club = services.create_club(organiser, f"bench {tag}")
        event = events.create_event(organiser, club, name=f"bench {tag}", game=game, rounds=1,
                                    hands_per_round=1, bot_delay_ms=10000)
        events.add_bot_entries(organiser, event, tables * hooks.ENTRIES_PER_TABLE)
        t0 = time.perf_counter()
        r = events.pair_round(organiser, event)
        t1 = time.perf_counter()
        events.start_round(organiser, r)
        t2 = time.perf_counter()
        count = r.tables.count()
        self.stdout.write(f"{game}: {count} tables, {tables * hooks.ENTRIES_PER_TABLE} entries "
                          f"({settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]})")
        self.stdout.write(f"  pairing:     {(t1 - t0) * 1000:8.1f} ms")
        self.stdout.write(f"  start round: {(t2 - t1) * 1000:8.1f} ms  ({(t2 - t1) * 1000 / count:.1f} ms per table)")
        finish_round(r.pk, early=True)
        self.stdout.write(f"  end round:   {(time.perf_counter() - t2) * 1000:8.1f} ms")
