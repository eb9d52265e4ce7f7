"""The matchmaker pass: pure Python (no Django), a function of the waiting
parties, the table layout and the time.

A *party* is one player, or two friends who sit as partners (升級: seats 0+2
or 1+3).  One pass seats as many parties as it can:

1. **Human tables.**  Oldest party first (the *anchor*), the table is filled
   with the waiting parties closest in rating whose addition keeps the
   table's rating spread (max − min) within the *window* of every party at
   it.  A party's window widens with its waiting time (:func:`window`).  A
   table is formed only when full.
2. **Bot tables.**  Every party whose bot wait has passed (it chose 10 s,
   30 s … and has waited that long) and is still waiting gets a table now:
   with other such parties within the window if there are any, the rest
   bots.  A party that chose "never" never sits with bots; a party is never
   given bots before its own wait is over.

So, after a pass: nobody is seated twice, every table is full (parties plus
bots), every table's spread is within each of its parties' windows, and no
waiting party is past its bot wait.  Ratings are the displayed numbers
(a pair: the mean of the two).

Two constraints come from the apps above quick play (:mod:`quickplay.rules`):
a party's ``tier`` (players of low reputation wait for each other: a table
holds parties of one tier only) and ``apart``, pairs of party ids never put
at one table (a player blocked the other).  Both hold in both steps.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Iterable, Sequence


@dataclass(frozen=True, slots=True)
class Party:
    """A waiting party: ``id`` (unique), ``size`` 1 or 2, ``rating`` (a
    pair's mean), ``since`` (seconds, when it joined the queue) and
    ``bot_wait`` (seconds after ``since`` from which bots may fill its
    table; None: never)."""

    id: int
    size: int
    rating: float
    since: float
    bot_wait: float | None = None
    tier: int = 0

    def waited(self, now: float) -> float:
        return max(0.0, now - self.since)

    def bots_allowed(self, now: float) -> bool:
        """Whether bots may fill this party's table at ``now``."""
        return self.bot_wait is not None and self.waited(now) >= self.bot_wait


@dataclass(frozen=True, slots=True)
class Layout:
    """A table: ``seats`` and the ``pair_slots`` where a pair of partners may
    sit (e.g. ``((0, 2), (1, 3))``; empty: no pairs in this game)."""

    seats: int
    pair_slots: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Window:
    """Rating window parameters, in displayed rating points: ``base`` at
    once, growing by ``per_second`` of waiting, up to ``cap``."""

    base: float = 60.0
    per_second: float = 12.0
    cap: float = 800.0


def window(waited: float, params: Window = Window()) -> float:
    """The rating spread a party accepts after waiting ``waited`` seconds."""
    return min(params.cap, params.base + params.per_second * max(0.0, waited))


@dataclass(frozen=True, slots=True)
class Table:
    """A table formed by a pass: ``seats[i]`` is the id of the party sitting
    at seat i (a pair appears at both its seats) or None for a bot."""

    seats: tuple[int | None, ...]

    @property
    def parties(self) -> tuple[int, ...]:
        """The party ids at the table, each once, in seat order."""
        out: list[int] = []
        for p in self.seats:
            if p is not None and p not in out:
                out.append(p)
        return tuple(out)

    @property
    def bots(self) -> int:
        return sum(1 for p in self.seats if p is None)


@dataclass
class _Group:
    """A table being formed."""

    members: list[Party] = field(default_factory=list)
    lo: float = float("inf")
    hi: float = float("-inf")
    limit: float = float("inf")  # the smallest window among members
    size: int = 0
    pairs: int = 0

    def accepts(self, p: Party, now: float, layout: Layout, params: Window,
                apart: frozenset = frozenset()) -> bool:
        if self.members and p.tier != self.members[0].tier:
            return False
        if apart and any(frozenset((m.id, p.id)) in apart for m in self.members):
            return False
        if self.size + p.size > layout.seats:
            return False
        if p.size == 2 and self.pairs >= len(layout.pair_slots):
            return False
        if p.size not in (1, 2):
            return False
        lo, hi = min(self.lo, p.rating), max(self.hi, p.rating)
        return hi - lo <= min(self.limit, window(p.waited(now), params))

    def add(self, p: Party, now: float, params: Window) -> None:
        self.members.append(p)
        self.lo, self.hi = min(self.lo, p.rating), max(self.hi, p.rating)
        self.limit = min(self.limit, window(p.waited(now), params))
        self.size += p.size
        self.pairs += p.size == 2


def _seat(group: _Group, layout: Layout) -> Table:
    """Seat a group: pairs on the pair slots, single players on the other
    seats in seat order (by rating, highest first), bots in what is left."""
    seats: list[int | None] = [None] * layout.seats
    pairs = [p for p in group.members if p.size == 2]
    singles = sorted((p for p in group.members if p.size == 1), key=lambda p: (-p.rating, p.id))
    for p, slot in zip(pairs, layout.pair_slots):
        for s in slot:
            seats[s] = p.id
    free = [s for s in range(layout.seats) if seats[s] is None]
    for p, s in zip(singles, free):
        seats[s] = p.id
    return Table(tuple(seats))


class _Pool:
    """The unseated parties sorted by rating (for nearest-first scans)."""

    def __init__(self, parties: Iterable[Party]):
        self.items = sorted(parties, key=lambda p: (p.rating, p.id))
        self.keys = [(p.rating, p.id) for p in self.items]

    def remove(self, p: Party) -> None:
        i = bisect.bisect_left(self.keys, (p.rating, p.id))
        del self.items[i], self.keys[i]

    def add(self, p: Party) -> None:
        i = bisect.bisect_left(self.keys, (p.rating, p.id))
        self.keys.insert(i, (p.rating, p.id))
        self.items.insert(i, p)

    def nearest(self, anchor: Party):
        """Parties other than ``anchor`` by distance in rating, nearest first."""
        i = bisect.bisect_left(self.keys, (anchor.rating, anchor.id))
        left, right = i - 1, i + 1
        items = self.items
        while left >= 0 or right < len(items):
            if right >= len(items) or (
                left >= 0 and anchor.rating - items[left].rating <= items[right].rating - anchor.rating
            ):
                yield items[left]
                left -= 1
            else:
                yield items[right]
                right += 1


def _form(anchor: Party, pool: _Pool, now: float, layout: Layout, params: Window,
          eligible, apart: frozenset = frozenset()) -> _Group:
    """Grow a group around ``anchor`` with the nearest eligible parties."""
    group = _Group()
    group.add(anchor, now, params)
    for p in pool.nearest(anchor):
        if group.size == layout.seats:
            break
        if abs(p.rating - anchor.rating) > group.limit:
            break  # every later party is further away than the window allows
        if eligible(p) and group.accepts(p, now, layout, params, apart):
            group.add(p, now, params)
    return group


def match(parties: Sequence[Party], layout: Layout, now: float,
          params: Window = Window(), apart: Iterable = ()) -> list[Table]:
    """One matchmaker pass over the waiting ``parties`` at time ``now``:
    the tables to open (see the module docstring).  ``apart``: pairs of
    party ids (any iterable of two ids) never seated at one table; parties
    of different ``tier`` never share a table either.  Parties larger than a
    pair, or pairs in a game without pair slots, are never seated (the queue
    refuses them).  Deterministic: the same input gives the same tables."""
    apart = frozenset(frozenset(pair) for pair in apart)
    pool = _Pool(p for p in parties if p.size == 1 or (p.size == 2 and layout.pair_slots))
    order = sorted(pool.items, key=lambda p: (p.since, p.id))
    seated: set[int] = set()
    tables: list[Table] = []
    # 1. full tables of humans, oldest anchor first
    for anchor in order:
        if anchor.id in seated:
            continue
        pool.remove(anchor)
        group = _form(anchor, pool, now, layout, params, lambda p: True, apart)
        if group.size == layout.seats:
            for p in group.members[1:]:
                pool.remove(p)
            seated.update(p.id for p in group.members)
            tables.append(_seat(group, layout))
        else:
            pool.add(anchor)
    # 2. parties past their bot wait: a table now, with bots
    for anchor in order:
        if anchor.id in seated or not anchor.bots_allowed(now):
            continue
        pool.remove(anchor)
        group = _form(anchor, pool, now, layout, params, lambda p: p.bots_allowed(now), apart)
        for p in group.members[1:]:
            pool.remove(p)
        seated.update(p.id for p in group.members)
        tables.append(_seat(group, layout))
    return tables
