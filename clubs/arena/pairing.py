"""Grouping an arena's waiting pool into tables (pure Python, no Django).

The rule (docs/tournaments.md, "Arena: grouping"):

1. Who sits: as many whole tables as the pool fills; when the pool is not a
   multiple of the table size, those who waited longest sit first (ties: the
   higher rank).
2. A first grouping by rank.  Partnership games (a table is two pairs of partners):
   a **minimum-weight perfect matching** (networkx, blossom) pairs players by
   rating distance, then a second one pairs the pairs into tables by the
   distance of their mean ratings (pairs of pairs).  Individual games (a
   table of five): the sorted pool cut into windows of the table size.
   An edge between players who sat at the same table last time costs more
   than any rating distance, so both matchings avoid them where they can.
3. **No repeats when avoidable**: if the first grouping still seats two of
   last time's table-mates together, an exhaustive search (players in rank
   order, each table completed with the nearest-ranked players who are no one's
   last table-mates) looks for a grouping with none; it is complete for the
   pool sizes an arena sees (a node budget of :data:`SEARCH_BUDGET` bounds it),
   so when a grouping without repeats exists it is the one used.
4. **Swaps** between two tables that lower (repeats, rating spread) improve
   the result, never adding a repeat.
5. **Hold**: a table that still has a repeat is not formed until each of its
   players has waited ``hold_s`` (the arena's wait, growing with the table's
   length): another table may end meanwhile and give them new opponents.

Partners at a table of two pairs: of the three ways to split four players into two
pairs, the one that does not repeat last time's partner and best balances the
two pairs' ratings.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

#: Most search nodes tried when looking for a grouping without repeats.
SEARCH_BUDGET = 50_000
#: Cost of one repeated table-mate pair, above any rating distance.
REPEAT_COST = 1_000_000


@dataclass(frozen=True)
class Waiting:
    """A player in the pool: ``id``, ``rating`` (the rank), seconds waited,
    ``last_mates`` (ids of last table's other players) and ``last_partner``."""

    id: int
    rating: float
    waited_s: float = 0.0
    last_mates: frozenset = field(default_factory=frozenset)
    last_partner: int | None = None


@dataclass
class Grouping:
    """``tables``: per table, groups of player ids (one group per entry at the
    table: pairs of partners, or single players), ``waiting``: ids left in
    the pool; ``repeats``: last-time table-mate pairs seated together."""

    tables: list[list[tuple[int, ...]]]
    waiting: list[int]
    repeats: int


def _conflict(a: Waiting, b: Waiting) -> bool:
    return b.id in a.last_mates or a.id in b.last_mates


def repeats_of(table: Sequence[Waiting]) -> int:
    """Pairs of ``table`` who sat at the same table last time."""
    return sum(1 for a, b in itertools.combinations(table, 2) if _conflict(a, b))


def _spread(table: Sequence[Waiting]) -> float:
    r = [p.rating for p in table]
    return max(r) - min(r)


def _cost(tables: Sequence[Sequence[Waiting]]) -> tuple[int, float]:
    return sum(repeats_of(t) for t in tables), sum(_spread(t) for t in tables)


def _windows(players: list[Waiting], size: int) -> list[list[Waiting]]:
    ranked = sorted(players, key=lambda p: (-p.rating, p.id))
    return [ranked[i:i + size] for i in range(0, len(ranked), size)]


def _matched_pairs(players: list[Waiting], size: int) -> list[list[Waiting]]:
    """Tables of two pairs: two minimum-weight perfect matchings."""
    g = nx.Graph()
    for a, b in itertools.combinations(players, 2):
        g.add_edge(a.id, b.id, weight=abs(a.rating - b.rating) + (REPEAT_COST if _conflict(a, b) else 0))
    by_id = {p.id: p for p in players}
    pairs = [tuple(sorted((by_id[a], by_id[b]), key=lambda p: p.id)) for a, b in nx.min_weight_matching(g)]
    h = nx.Graph()
    for i, j in itertools.combinations(range(len(pairs)), 2):
        mean_i = sum(p.rating for p in pairs[i]) / 2
        mean_j = sum(p.rating for p in pairs[j]) / 2
        cross = sum(1 for a in pairs[i] for b in pairs[j] if _conflict(a, b))
        h.add_edge(i, j, weight=abs(mean_i - mean_j) + REPEAT_COST * cross)
    return [[*pairs[i], *pairs[j]] for i, j in nx.min_weight_matching(h)]


def _search(players: list[Waiting], size: int, budget: int = SEARCH_BUDGET) -> list[list[Waiting]] | None:
    """A grouping with no repeated table-mates, or None (none exists, or the
    budget ran out)."""
    ranked = sorted(players, key=lambda p: (-p.rating, p.id))
    nodes = [0]

    def solve(left: list[Waiting]) -> list[list[Waiting]] | None:
        if not left:
            return []
        nodes[0] += 1
        if nodes[0] > budget:
            return None
        head, rest = left[0], left[1:]
        fits = sorted((p for p in rest if not _conflict(head, p)), key=lambda p: abs(p.rating - head.rating))
        for combo in itertools.combinations(fits, size - 1):
            if any(_conflict(a, b) for a, b in itertools.combinations(combo, 2)):
                continue
            taken = {p.id for p in combo}
            found = solve([p for p in rest if p.id not in taken])
            if found is not None:
                return [[head, *combo], *found]
            if nodes[0] > budget:
                return None
        return None

    return solve(ranked)


def _improve(tables: list[list[Waiting]], passes: int = 20) -> list[list[Waiting]]:
    """Swap players between two tables while that lowers (repeats, spread)."""
    tables = [list(t) for t in tables]
    for _ in range(passes):
        better = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            for x in range(len(tables[i])):
                for y in range(len(tables[j])):
                    before = _cost([tables[i], tables[j]])
                    tables[i][x], tables[j][y] = tables[j][y], tables[i][x]
                    if _cost([tables[i], tables[j]]) < before:
                        better = True
                    else:
                        tables[i][x], tables[j][y] = tables[j][y], tables[i][x]
        if not better:
            break
    return tables


def _split_pairs(table: list[Waiting]) -> list[tuple[int, ...]]:
    """Four players as two pairs of partners: no repeated partner if
    possible, then the two pairs' ratings closest."""
    a = table[0]
    best = None
    for mate in table[1:]:
        other = [p for p in table[1:] if p is not mate]
        same = int(a.last_partner == mate.id or mate.last_partner == a.id)
        same += int(other[0].last_partner == other[1].id or other[1].last_partner == other[0].id)
        balance = abs((a.rating + mate.rating) - (other[0].rating + other[1].rating))
        key = (same, balance, mate.id)
        if best is None or key < best[0]:
            best = (key, [(a.id, mate.id), (other[0].id, other[1].id)])
    return best[1]


def group(pool: Sequence[Waiting], table_size: int, partners: bool = False, hold_s: float = 0.0) -> Grouping:
    """Group ``pool`` into tables of ``table_size`` players (partners: tables
    of two pairs).  Returns every table that may be formed now (see the
    module docstring: who sits, rank, no avoidable repeat, the hold) and who
    keeps waiting.  Raises ValueError for a table size below 2 (or not 4
    with ``partners``)."""
    if table_size < 2 or (partners and table_size != 4):
        raise ValueError("table size")
    order = sorted(pool, key=lambda p: (-p.waited_s, -p.rating, p.id))
    seated = order[: len(order) // table_size * table_size]
    waiting = [p.id for p in order[len(seated):]]
    if not seated:
        return Grouping([], waiting, 0)
    tables = _matched_pairs(seated, table_size) if partners else _windows(seated, table_size)
    if _cost(tables)[0] > 0:
        found = _search(seated, table_size)
        if found is not None:
            tables = found
    tables = _improve(tables)
    out, repeats = [], 0
    for t in sorted(tables, key=lambda t: -max(p.rating for p in t)):
        r = repeats_of(t)
        if r and min(p.waited_s for p in t) < hold_s:
            waiting.extend(p.id for p in t)
            continue
        repeats += r
        if partners:
            out.append(_split_pairs(t))
        else:
            out.append([(p.id,) for p in sorted(t, key=lambda p: (-p.rating, p.id))])
    return Grouping(out, waiting, repeats)
