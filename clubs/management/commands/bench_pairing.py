"""``python manage.py bench_pairing``: time the pairing functions on large fields.

Pairs a Swiss of ``--pairs`` two-sided entries (default 512) for ``--rounds``
rounds with random results, and seats ``--players`` individuals (default 1,000)
at tables of five for the same number of rounds; prints the time of every
round's pairing and the repeats it had to make.  No database is touched.
"""

from __future__ import annotations

import random
import time
from collections import Counter

from django.core.management.base import BaseCommand

from clubs.tournament.swiss import PairingEntry, swiss_pairs
from clubs.tournament.tables import TableEntry, swiss_tables


class Command(BaseCommand):
    help = "Time Swiss pairing (two-sided entries) and Swiss seating at tables of five."

    def add_arguments(self, parser):
        parser.add_argument("--pairs", type=int, default=512)
        parser.add_argument("--players", type=int, default=1000)
        parser.add_argument("--rounds", type=int, default=4)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, pairs, players, rounds, seed, **options):
        rng = random.Random(seed)
        out = self.stdout
        out.write(f"Swiss pairing, {pairs} entries, {rounds} rounds")
        score = dict.fromkeys(range(pairs), 0)
        met = {i: set() for i in range(pairs)}
        byes: set[int] = set()
        for r in range(rounds):
            order = sorted(range(pairs), key=lambda i: (-score[i], i))
            entries = [PairingEntry(i, score[i], frozenset(met[i]), i in byes, k) for k, i in enumerate(order)]
            t0 = time.perf_counter()
            p = swiss_pairs(entries)
            dt = time.perf_counter() - t0
            out.write(f"  round {r + 1}: {dt * 1000:8.1f} ms  tables {len(p.pairs)}  bye {p.bye}  repeats {p.repeats}")
            for a, b in p.pairs:
                met[a].add(b)
                met[b].add(a)
                x = rng.choice((0, 1, 2))
                score[a] += x
                score[b] += 2 - x
            if p.bye is not None:
                byes.add(p.bye)
                score[p.bye] += 2

        out.write(f"Swiss seating at tables of five, {players} players, {rounds} rounds")
        points = dict.fromkeys(range(players), 0)
        mates = {i: Counter() for i in range(players)}
        seats = {i: [0] * 5 for i in range(players)}
        bot_tables: Counter = Counter()
        for r in range(rounds):
            order = sorted(range(players), key=lambda i: (-points[i], i))
            entries = [TableEntry(i, k, mates[i], tuple(seats[i]), bot_tables[i]) for k, i in enumerate(order)]
            t0 = time.perf_counter()
            s = swiss_tables(entries)
            dt = time.perf_counter() - t0
            out.write(f"  round {r + 1}: {dt * 1000:8.1f} ms  tables {len(s.tables)}  bots {s.bots}  repeats {s.repeats}")
            for t, table in enumerate(s.tables):
                humans = [p for p in table if p is not None]
                for k, p in enumerate(table):
                    if p is None:
                        continue
                    seats[p][k] += 1
                    points[p] += rng.randint(-6, 6)
                    bot_tables[p] += t == s.bot_table
                    mates[p].update(q for q in humans if q != p)
