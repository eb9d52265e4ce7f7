"""Swiss seating of individuals at tables of ``size`` (five for a five-player game).

One round is seated in four steps, each a pure function of the entries:

1. **Tables and bots.** ``T = ceil(n / size)`` tables and ``T * size - n``
   bots (0 to ``size - 1``), all at ONE table, so the fewest possible tables
   get bots (none when ``n`` is a multiple of ``size``).  The humans at that
   table are picked one at a time among those who have sat at a bot table least
   often (like a Swiss bye: nobody gets it twice while someone else has not had
   it), by fewest repeats with those already picked, then lowest rank.
2. **Tables from the standings.** The rest are seated best first: each table
   takes the best-ranked player left, then fills its seats one at a time from
   the next ``3 * size`` players left (all players left in a field of up to
   12 tables), choosing whoever adds the fewest
   repeated tablemates (pairs who sat at one table before, counted as often as
   they did), ties to the better rank.
3. **Repairs.** At a table with a repeat, players are swapped with another
   table (any table in a field of up to 12 tables, else at most two apart) when
   that lowers (repeated tablemates, squared rank spread) lexicographically; at
   most ``passes`` sweeps, each bounded by the field size.
4. **Seats rotate.** At each table the seats are assigned by trying every
   permutation (120 for five) and keeping the one with the fewest earlier
   sittings in the same seat (ties: the lexicographically first, so the
   result is deterministic); bots take the seats left.

Rules and sources: ``docs/tournaments.md`` ("Swiss seating at tables").
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations

from .swiss import PairingError


@dataclass(frozen=True)
class TableEntry:
    """One active player as the seating sees them.

    ``id``: any hashable id; ``rank``: place in the current standings (0 = first);
    ``tablemates``: ``{other id: times sat at one table}``; ``seats``: times in
    each seat so far, indexed by seat (shorter tuples count as zeros);
    ``bot_tables``: times seated at a table with bots.
    """

    id: Hashable
    rank: int = 0
    tablemates: Mapping[Hashable, int] = field(default_factory=dict)
    seats: tuple[int, ...] = ()
    bot_tables: int = 0

    def met(self, other: Hashable) -> int:
        """Times this player sat at one table with ``other``."""
        return self.tablemates.get(other, 0)


@dataclass(frozen=True)
class Seating:
    """A seated round: ``tables`` in order (best first), each a tuple of
    ``size`` ids in seat order, ``None`` where a bot sits; ``bot_table`` is
    the index of the table with bots or None; ``bots`` how many;
    ``repeats`` the repeated tablemates (pairs that met before, with
    multiplicity) over all tables."""

    tables: tuple[tuple[Hashable | None, ...], ...]
    bot_table: int | None
    bots: int
    repeats: int

    def ids(self) -> list[Hashable]:
        """Every seated player's id (bots left out)."""
        return [p for table in self.tables for p in table if p is not None]


def table_repeats(members: Sequence[TableEntry]) -> int:
    """Repeated tablemates among ``members`` (pairs that met before, counted
    as often as they did; symmetric: the larger of the two records counts)."""
    return sum(max(a.met(b.id), b.met(a.id)) for a, b in combinations(members, 2))


def _spread(members: Sequence[TableEntry], rank: Mapping[Hashable, int]) -> int:
    return sum((rank[a.id] - rank[b.id]) ** 2 for a, b in combinations(members, 2))


def _seat_order(members: Sequence[TableEntry], size: int) -> tuple[Hashable | None, ...]:
    """Assign seats to ``members`` (len <= size) minimising earlier sittings in
    the same seat; bots (None) take the rest."""

    def sat(entry: TableEntry, seat: int) -> int:
        return entry.seats[seat] if seat < len(entry.seats) else 0

    best = None
    for seats in permutations(range(size), len(members)):
        cost = sum(sat(m, s) for m, s in zip(members, seats))
        if best is None or cost < best[0]:
            best = (cost, seats)
    order: list[Hashable | None] = [None] * size
    for m, s in zip(members, best[1]):
        order[s] = m.id
    return tuple(order)


def swiss_tables(entries: Iterable[TableEntry], *, size: int = 5, passes: int = 4) -> Seating:
    """Seat one Swiss round of individuals at tables of ``size``.

    ``entries``: the active players (at least one; withdrawn ones left out).
    Returns a :class:`Seating`; raises :class:`PairingError` for duplicate ids
    or an empty field.  Runs in O(n * size^2) plus the bounded repair sweeps.
    """
    order = sorted(entries, key=lambda e: e.rank)
    ids = [e.id for e in order]
    if not order:
        raise PairingError("no players to seat")
    if len(set(ids)) != len(ids):
        raise PairingError("duplicate entry ids")
    rank = {e.id: i for i, e in enumerate(order)}
    n = len(order)
    count = -(-n // size)
    bots = count * size - n

    bot_humans: list[TableEntry] = []
    if bots:
        # fewest earlier bot tables first, then fewest repeats with those
        # already picked, then the lowest rank
        pool = list(order)
        while len(bot_humans) < size - bots:
            best = min(
                pool,
                key=lambda e: (
                    e.bot_tables,
                    sum(max(e.met(m.id), m.met(e.id)) for m in bot_humans),
                    -rank[e.id],
                ),
            )
            pool.remove(best)
            bot_humans.append(best)
        bot_humans.sort(key=lambda e: rank[e.id])
    taken = {e.id for e in bot_humans}
    left = [e for e in order if e.id not in taken]

    groups: list[list[TableEntry]] = []
    while left:
        table = [left.pop(0)]
        while len(table) < size:
            window = left if n <= 12 * size else left[: 3 * size]
            best_i = min(
                range(len(window)),
                key=lambda i: (sum(max(window[i].met(m.id), m.met(window[i].id)) for m in table), i),
            )
            table.append(left.pop(best_i))
        groups.append(table)

    def cost(table: list[TableEntry]) -> tuple[int, int]:
        return (table_repeats(table), _spread(table, rank))

    for _ in range(passes):
        improved = False
        for t in range(len(groups)):
            if table_repeats(groups[t]) == 0:
                continue
            reach = len(groups) if len(groups) <= 12 else 2
            for u in range(max(0, t - reach), min(len(groups), t + reach + 1)):
                if u == t:
                    continue
                for i in range(size):
                    for j in range(size):
                        a, b = groups[t], groups[u]
                        before = tuple(x + y for x, y in zip(cost(a), cost(b)))
                        a[i], b[j] = b[j], a[i]
                        after = tuple(x + y for x, y in zip(cost(a), cost(b)))
                        if after < before:
                            improved = True
                        else:
                            a[i], b[j] = b[j], a[i]
        if not improved:
            break

    tables = [sorted(g, key=lambda e: rank[e.id]) for g in groups]
    bot_table = None
    if bots:
        tables.append(bot_humans)
        bot_table = len(tables) - 1
    return Seating(
        tables=tuple(_seat_order(t, size) for t in tables),
        bot_table=bot_table,
        bots=bots,
        repeats=sum(table_repeats(t) for t in tables),
    )
