"""Standings of an event: who is ahead, with the tiebreaks in a fixed order.

Two kinds of event, named by their shape (a game's hooks say which it uses):

* **Match events** (two sides per table, entry against entry).  Each played
  match gives **2 / 1 / 0 match points** for a win / draw / loss, decided by
  the sign of the *margin* (the entry's lead at the end of the round, e.g. in
  levels).  Standings by match points; tiebreaks in order: (1) margin summed
  over rounds, (2) points summed over rounds (e.g. game points), (3) Buchholz:
  the sum of the final match points of every opponent met, (4) the direct
  encounter: match points scored in the games among the still-tied entries.
  A bye scores :data:`BYE_MATCH_POINTS` with margin 0, points 0 and no
  opponent (adds nothing to Buchholz); a forfeit scores as a win for the side
  present (margin 0) and a loss for the absent side.
* **Table events** (individuals at tables of N).  Standings by total points
  (the sum of the player's points over the round's hands); tiebreaks: (1) the
  number of "firsts" (e.g. 头科, first out in a hand), (2) the sum of the
  final totals of every tablemate met, once per round sat together.

Entries tied on everything share a rank ("1, 2, 2, 4").  Sources:
``docs/tournaments.md`` ("Scoring and standings").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

WIN, DRAW, LOSS = 2, 1, 0
#: A bye scores like a win (the Swiss convention; see docs/tournaments.md).
BYE_MATCH_POINTS = WIN


@dataclass(frozen=True)
class MatchResult:
    """One entry's result in one round of a match event.

    ``opponent`` None means a bye.  ``match_points``: 2 / 1 / 0 (see
    :func:`match_rows`); ``margin`` and ``points`` from this entry's side;
    ``forfeit`` marks a result given rather than played."""

    round: int
    entry: Hashable
    opponent: Hashable | None
    match_points: float
    margin: float = 0
    points: float = 0
    forfeit: bool = False


@dataclass(frozen=True)
class TableResult:
    """One player's result in one round of a table event: ``points`` over the
    round's hands, ``firsts`` hands finished first, ``tablemates`` the other
    entries at the table (bots left out)."""

    round: int
    entry: Hashable
    points: float
    firsts: int = 0
    tablemates: tuple = ()


@dataclass(frozen=True)
class Standing:
    """A line of the standings: 1-based ``rank`` (shared on a complete tie),
    ``score`` (match points, total points or matchpoint %), ``tiebreaks`` in
    the order they are applied, ``played`` rounds with a result."""

    entry: Hashable
    rank: int
    score: float
    tiebreaks: dict = field(default_factory=dict)
    played: int = 0


def outcome_points(margin: float) -> int:
    """Match points of a played match from its margin: 2 if > 0, 1 if 0, 0 if < 0."""
    return WIN if margin > 0 else DRAW if margin == 0 else LOSS


def match_rows(
    round_: int, a: Hashable, b: Hashable, margin_a: float, points_a: float = 0, points_b: float = 0
) -> tuple[MatchResult, MatchResult]:
    """Both entries' rows of a played match; ``margin_a`` is a's lead (b's is its negative)."""
    return (
        MatchResult(round_, a, b, outcome_points(margin_a), margin_a, points_a),
        MatchResult(round_, b, a, outcome_points(-margin_a), -margin_a, points_b),
    )


def bye_row(round_: int, entry: Hashable) -> MatchResult:
    """The row of an entry that had the bye."""
    return MatchResult(round_, entry, None, BYE_MATCH_POINTS)


def forfeit_rows(round_: int, present: Hashable, absent: Hashable) -> tuple[MatchResult, MatchResult]:
    """A match won by forfeit: ``present`` scores a win, ``absent`` a loss, margins 0."""
    return (
        MatchResult(round_, present, absent, WIN, forfeit=True),
        MatchResult(round_, absent, present, LOSS, forfeit=True),
    )


def _ranked(keys: list[tuple[Hashable, tuple]]) -> dict[Hashable, int]:
    """1-based shared ranks of entries sorted by ``key`` descending."""
    keys.sort(key=lambda kv: kv[1], reverse=True)
    ranks: dict[Hashable, int] = {}
    for i, (entry, key) in enumerate(keys):
        ranks[entry] = ranks[keys[i - 1][0]] if i and keys[i - 1][1] == key else i + 1
    return ranks


def match_standings(rows: Iterable[MatchResult], entries: Iterable[Hashable] = ()) -> list[Standing]:
    """Standings of a match event from every entry's rows (``entries`` adds
    entries with no row yet).  Returns :class:`Standing` best first with
    ``tiebreaks = {"margin", "points", "buchholz", "direct"}``."""
    rows = list(rows)
    mp: dict = defaultdict(float)
    margin: dict = defaultdict(float)
    points: dict = defaultdict(float)
    played: dict = defaultdict(int)
    opponents: dict = defaultdict(list)
    for e in entries:
        mp[e] += 0
    for r in rows:
        mp[r.entry] += r.match_points
        margin[r.entry] += r.margin
        points[r.entry] += r.points
        played[r.entry] += 1
        if r.opponent is not None:
            opponents[r.entry].append(r.opponent)
            mp[r.opponent] += 0
    buchholz = {e: sum(mp[o] for o in opponents[e]) for e in mp}
    base = {e: (mp[e], margin[e], points[e], buchholz[e]) for e in mp}

    groups: dict[tuple, list] = defaultdict(list)
    for e, key in base.items():
        groups[key].append(e)
    direct = {e: 0.0 for e in mp}
    for members in groups.values():
        if len(members) < 2:
            continue
        inside = set(members)
        for r in rows:
            if r.entry in inside and r.opponent in inside:
                direct[r.entry] += r.match_points
    ranks = _ranked([(e, base[e] + (direct[e],)) for e in mp])
    out = [
        Standing(
            entry=e,
            rank=ranks[e],
            score=mp[e],
            tiebreaks={"margin": margin[e], "points": points[e], "buchholz": buchholz[e], "direct": direct[e]},
            played=played[e],
        )
        for e in mp
    ]
    out.sort(key=lambda s: (s.rank, str(s.entry)))
    return out


def table_standings(rows: Iterable[TableResult], entries: Iterable[Hashable] = ()) -> list[Standing]:
    """Standings of a table event.  Returns :class:`Standing` best first with
    ``tiebreaks = {"firsts", "tablemates"}``."""
    rows = list(rows)
    total: dict = defaultdict(float)
    firsts: dict = defaultdict(int)
    played: dict = defaultdict(int)
    for e in entries:
        total[e] += 0
    for r in rows:
        total[r.entry] += r.points
        firsts[r.entry] += r.firsts
        played[r.entry] += 1
    mates: dict = defaultdict(float)
    for r in rows:
        mates[r.entry] += sum(total[m] for m in r.tablemates if m in total)
    ranks = _ranked([(e, (total[e], firsts[e], mates[e])) for e in total])
    out = [
        Standing(
            entry=e,
            rank=ranks[e],
            score=total[e],
            tiebreaks={"firsts": firsts[e], "tablemates": mates[e]},
            played=played[e],
        )
        for e in total
    ]
    out.sort(key=lambda s: (s.rank, str(s.entry)))
    return out


def percentage_standings(rows: Iterable[tuple[Hashable, float, int]], entries: Iterable[Hashable] = ()) -> list[Standing]:
    """Standings of a duplicate event from ``(entry, matchpoints, maximum)``
    rows (one per board and seat played): by matchpoint percentage, then by
    total matchpoints.  ``tiebreaks = {"matchpoints", "maximum"}``."""
    earned: dict = defaultdict(float)
    top: dict = defaultdict(int)
    boards: dict = defaultdict(int)
    for e in entries:
        earned[e] += 0
    for entry, mp, maximum in rows:
        earned[entry] += float(mp)
        top[entry] += maximum
        boards[entry] += 1
    pct = {e: (100.0 * earned[e] / top[e]) if top[e] else 0.0 for e in earned}
    ranks = _ranked([(e, (round(pct[e], 9), earned[e])) for e in earned])
    out = [
        Standing(e, ranks[e], pct[e], {"matchpoints": earned[e], "maximum": top[e]}, boards[e])
        for e in earned
    ]
    out.sort(key=lambda s: (s.rank, str(s.entry)))
    return out
