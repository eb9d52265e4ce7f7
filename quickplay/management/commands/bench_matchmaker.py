"""``python manage.py bench_matchmaker [--players 2000] [--layout 4|5] [--repeat 5]``:
time one matchmaker pass (:func:`quickplay.matcher.match`, pure, no database)
over N queued players with random ratings, join times and bot waits, and print
the figures."""

from __future__ import annotations

import random
import statistics
import time

from django.core.management.base import BaseCommand

from quickplay.matcher import Layout, Party, match


class Command(BaseCommand):
    help = "Time one matchmaker pass over N queued players (prints ms)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=2000)
        parser.add_argument("--seats", type=int, choices=[4, 5], default=4,
                            help="4: 升级 layout with partner pairs; 5: 保皇")
        parser.add_argument("--pairs", type=float, default=0.1,
                            help="share of parties that are pairs (4 seats only)")
        parser.add_argument("--repeat", type=int, default=5)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, players, seats, pairs, repeat, seed, **options):
        rng = random.Random(seed)
        layout = Layout(4, ((0, 2), (1, 3))) if seats == 4 else Layout(5)
        parties, n, i = [], 0, 0
        while n < players:
            size = 2 if seats == 4 and rng.random() < pairs and n + 2 <= players else 1
            parties.append(Party(i, size, rng.gauss(1500, 250), rng.uniform(0, 60),
                                 rng.choice([10.0, 30.0, None])))
            n += size
            i += 1
        times = []
        for _ in range(max(1, repeat)):
            started = time.perf_counter()
            tables = match(parties, layout, now=60.0)
            times.append((time.perf_counter() - started) * 1000)
        seated = sum(len(t.parties) for t in tables)
        bots = sum(t.bots for t in tables)
        self.stdout.write(
            f"matchmaker pass: {players} players in {len(parties)} parties, {seats} seats: "
            f"{len(tables)} tables ({bots} bot seats), {seated} parties seated; "
            f"median {statistics.median(times):.1f} ms, min {min(times):.1f} ms, "
            f"max {max(times):.1f} ms over {len(times)} runs"
        )
