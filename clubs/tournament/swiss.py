"""Swiss pairing of two-sided matches (entry against entry), for any field size.

One round is paired as a maximum-weight perfect matching (networkx's blossom
algorithm, ``max_weight_matching(maxcardinality=True)``) on the graph whose
nodes are the active entries, plus a virtual ``BYE`` node when the count is
odd.  Edge weights are integers built so that the matching optimises, in
strict order (each level outweighs everything below it):

0. **a bye at most once**: the bye goes to an entry that has not had one
   whenever there is such an entry;
1. **no repeat opponent**: the number of pairs that have not met before is
   maximised, so an opponent is repeated only when no pairing without a repeat
   (and without a second bye) exists;
2. **small score differences**: the sum of squared score-group distances is
   minimised (score groups are the distinct scores, best first; the bye counts
   as a group below the lowest, so it goes to the lowest group);
3. **top half against bottom half** inside a group (the Dutch system's
   ordering): the distance in rank from half the group's size is minimised;
   for the bye, the lowest-ranked eligible entry is preferred.

The pairing is a pure function of its arguments (deterministic: networkx
visits nodes in insertion order, which is the rank order).  For large fields
the graph is first restricted to each entry's nearest ``window`` possible
opponents by rank; if that sparse graph has no perfect matching without
repeats, the complete graph is used, so rule 1 always holds.

Rules and sources: ``docs/tournaments.md`` ("Swiss pairing").
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx

#: The virtual opponent of the entry that has the bye.
BYE = ("bye",)


class PairingError(ValueError):
    """Entries that cannot be paired (duplicate ids, fewer than two entries)."""


@dataclass(frozen=True)
class PairingEntry:
    """One active entry as the pairing sees it.

    ``id``: any hashable id; ``score``: match points so far (any number);
    ``opponents``: ids met in earlier rounds (byes not included); ``had_bye``:
    True if the entry already had a bye; ``rank``: its place in the current
    standings, 0 = first (ties are broken by the standings' tiebreaks, then by
    this order).
    """

    id: Hashable
    score: float = 0
    opponents: frozenset = field(default_factory=frozenset)
    had_bye: bool = False
    rank: int = 0


@dataclass(frozen=True)
class Pairing:
    """A paired round: ``pairs`` are ``(higher ranked id, lower ranked id)``
    in table order (best first); ``bye`` is the id with the bye or None;
    ``repeats`` counts pairs that met before plus a repeated bye (0 unless
    unavoidable)."""

    pairs: tuple[tuple[Hashable, Hashable], ...]
    bye: Hashable | None
    repeats: int

    def ids(self) -> list[Hashable]:
        """Every id in the pairing, the bye included."""
        out = [x for pair in self.pairs for x in pair]
        if self.bye is not None:
            out.append(self.bye)
        return out


def _ordered(entries: Sequence[PairingEntry]) -> list[PairingEntry]:
    ids = [e.id for e in entries]
    if len(set(ids)) != len(ids):
        raise PairingError("duplicate entry ids")
    return sorted(entries, key=lambda e: (e.rank, -e.score))


def swiss_pairs(
    entries: Iterable[PairingEntry],
    *,
    avoid: Iterable[frozenset] = (),
    window: int | None = 16,
) -> Pairing:
    """Pair one Swiss round.

    ``entries``: the active entries (at least two; withdrawn ones left out).
    ``avoid``: extra pairs (``frozenset({a, b})``) to treat like a repeat, e.g.
    the current pairs when the organiser asks for a different pairing.
    ``window``: how many nearest possible opponents by rank each entry is first
    offered (None: the complete graph at once).  Raises :class:`PairingError`.
    """
    order = _ordered(list(entries))
    if len(order) < 2:
        raise PairingError("at least two entries are needed")
    avoid = {frozenset(p) for p in avoid}
    n = len(order)
    scores = sorted({e.score for e in order}, reverse=True)
    group = {e.id: scores.index(e.score) for e in order}
    group_size = {g: 0 for g in range(len(scores))}
    pos_in_group: dict[Hashable, int] = {}
    for e in order:
        pos_in_group[e.id] = group_size[group[e.id]]
        group_size[group[e.id]] += 1
    rank = {e.id: i for i, e in enumerate(order)}
    by_id = {e.id: e for e in order}
    odd = n % 2 == 1
    bye_group = len(scores)

    # Lexicographic integer weights: Dutch order < unit2 (score gap) < unit1 (no
    # repeat) < unit0 (a first bye).  Each unit exceeds the largest possible sum
    # of everything below it over the n/2 + 1 edges of a matching.
    unit2 = n * n + 1
    unit1 = (n * (bye_group + 1) ** 2 + 1) * unit2 + n * n + 1
    unit0 = (n + 2) * unit1
    top2 = (bye_group + 1) ** 2

    def repeat(a: Hashable, b: Hashable) -> bool:
        if b == BYE:
            return by_id[a].had_bye
        return b in by_id[a].opponents or a in by_id[b].opponents or frozenset((a, b)) in avoid

    def weight(a: Hashable, b: Hashable) -> int:
        if b == BYE and not by_id[a].had_bye:
            return unit0 + _weight(a, b)
        return _weight(a, b)

    def _weight(a: Hashable, b: Hashable) -> int:
        if b == BYE:
            gap = bye_group - group[a]
            dutch = n - 1 - rank[a]
        else:
            gap = group[a] - group[b]
            if gap == 0:
                half = group_size[group[a]] // 2
                dutch = abs(abs(pos_in_group[a] - pos_in_group[b]) - half)
            else:
                dutch = abs(rank[a] - rank[b])
        return (0 if repeat(a, b) else unit1) + (top2 - gap * gap) * unit2 + (n - dutch)

    def solve(graph: nx.Graph) -> dict | None:
        matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
        if 2 * len(matching) != graph.number_of_nodes():
            return None
        return {**dict(matching), **{b: a for a, b in matching}}

    nodes = [e.id for e in order] + ([BYE] if odd else [])
    mate = None
    if window is not None and n > window + 1:
        sparse = nx.Graph()
        sparse.add_nodes_from(nodes)
        for i, e in enumerate(order):
            fresh = [o.id for o in order[i + 1 :] if not repeat(e.id, o.id)][:window]
            for o in fresh:
                sparse.add_edge(e.id, o, weight=weight(e.id, o))
        if odd:
            eligible = [e.id for e in reversed(order) if not e.had_bye][: max(window, 1)]
            for a in eligible:
                sparse.add_edge(a, BYE, weight=weight(a, BYE))
        mate = solve(sparse)
    if mate is None:
        full = nx.Graph()
        full.add_nodes_from(nodes)
        for i, a in enumerate(nodes):
            for b in nodes[i + 1 :]:
                full.add_edge(a, b, weight=weight(a, b))
        mate = solve(full)
        assert mate is not None  # a complete graph on an even node count has a perfect matching

    seen: set = set()
    pairs = []
    bye = None
    repeats = 0
    for e in order:
        if e.id in seen:
            continue
        other = mate[e.id]
        seen.update((e.id, other))
        if other == BYE:
            bye = e.id
            repeats += int(e.had_bye)
            continue
        a, b = sorted((e.id, other), key=rank.__getitem__)
        repeats += int(repeat(a, b))
        pairs.append((a, b))
    return Pairing(pairs=tuple(pairs), bye=bye, repeats=repeats)


def can_avoid_repeats(entries: Sequence[PairingEntry]) -> bool:
    """True if some pairing of ``entries`` repeats no opponent and no bye
    (a maximum matching on the "not met yet" graph; for tests and the preview)."""
    order = _ordered(list(entries))
    graph = nx.Graph()
    nodes = [e.id for e in order] + ([BYE] if len(order) % 2 else [])
    graph.add_nodes_from(nodes)
    by_id = {e.id: e for e in order}
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            if b.id not in a.opponents and a.id not in b.opponents:
                graph.add_edge(a.id, b.id)
        if len(order) % 2 and not by_id[a.id].had_bye:
            graph.add_edge(a.id, BYE)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(nodes)
