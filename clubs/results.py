"""What an event's tables add up to: history for pairing, standings, the
duplicate travelling tables.  Read-only; computed from the stored table
results every time (a correction changes the standings at once).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from . import formats
from .models import Entry, Event, EventTable, Round
from .tournament.duplicate import board_matchpoints
from .tournament.standings import (
    MatchResult,
    Standing,
    TableResult,
    bye_row,
    forfeit_rows,
    match_rows,
    match_standings,
    percentage_standings,
    table_standings,
)


def _played_rounds(event: Event):
    return event.round_set.exclude(status=Round.Status.PREVIEW).order_by("number")


def _tables(event: Event):
    return (
        EventTable.objects.filter(round__event=event)
        .exclude(round__status=Round.Status.PREVIEW)
        .select_related("round")
        .order_by("round__number", "number")
    )


def history(event: Event) -> dict:
    """Who met whom so far (rounds started, preview excluded): ``opponents``
    ``{entry: set}``, ``byes`` (set), ``tablemates`` ``{entry: Counter}``,
    ``seats`` ``{entry: [times per seat]}``, ``bot_tables`` ``{entry: n}``."""
    size = formats.hooks(event.game).ENTRIES_PER_TABLE
    opponents: dict = defaultdict(set)
    tablemates: dict = defaultdict(Counter)
    seats: dict = defaultdict(lambda: [0] * size)
    bot_tables: Counter = Counter()
    byes = set()
    for r in _played_rounds(event):
        if r.pairing.get("bye"):
            byes.add(r.pairing["bye"])
        for ids in r.pairing.get("tables", []):
            humans = [i for i in ids if i]
            for k, i in enumerate(ids):
                if not i:
                    continue
                seats[i][k] += 1
                if None in ids:
                    bot_tables[i] += 1
                for j in humans:
                    if j != i:
                        opponents[i].add(j)
                        tablemates[i][j] += 1
    return {"opponents": opponents, "byes": byes, "tablemates": tablemates, "seats": seats, "bot_tables": bot_tables}


def _entry_ids(event: Event) -> list[int]:
    return list(event.entries.exclude(status=Entry.Status.PENDING).values_list("pk", flat=True))


def match_rows_of(event: Event) -> list[MatchResult]:
    """Every entry's result rows of a match event (byes and forfeits included)."""
    rows: list[MatchResult] = []
    for r in _played_rounds(event):
        if r.pairing.get("bye"):
            rows.append(bye_row(r.number, r.pairing["bye"]))
    for t in _tables(event):
        if not t.result or len(t.entries) != 2:
            continue
        a, b = t.entries
        absent = set(t.result.get("forfeit") or [])
        if absent:
            if a in absent and b in absent:
                rows += [forfeit_rows(t.round.number, b, a)[1], forfeit_rows(t.round.number, a, b)[1]]
            else:
                present, gone = (b, a) if a in absent else (a, b)
                rows += list(forfeit_rows(t.round.number, present, gone))
            continue
        ra, rb = t.result["entries"]
        rows += list(match_rows(t.round.number, a, b, ra.get("margin", 0), ra.get("points", 0), rb.get("points", 0)))
    return rows


def table_rows_of(event: Event) -> list[TableResult]:
    """Every player's result rows of a table event (bot seats left out)."""
    rows: list[TableResult] = []
    for t in _tables(event):
        if not t.result:
            continue
        absent = set(t.result.get("forfeit") or [])
        for k, i in enumerate(t.entries):
            if not i:
                continue
            res = t.result["entries"][k] if k < len(t.result.get("entries", [])) else {}
            points = 0 if i in absent else res.get("points", 0)
            firsts = 0 if i in absent else res.get("firsts", 0)
            mates = tuple(j for j in t.entries if j and j != i)
            rows.append(TableResult(t.round.number, i, points, firsts, mates))
    return rows


def duplicate_rows_of(event: Event) -> list[tuple[int, float, int]]:
    """``(entry, matchpoints, maximum)`` per board and entry: each board is
    compared across the round's tables, entry index by entry index."""
    rows = []
    by_round: dict = defaultdict(list)
    for t in _tables(event):
        if t.result and t.result.get("boards") is not None:
            by_round[t.round_id].append(t)
    for tables in by_round.values():
        boards = max(len(t.result["boards"]) for t in tables)
        for k in range(boards):
            results = {
                t.pk: t.result["boards"][k]
                for t in tables
                if k < len(t.result["boards"]) and t.result["boards"][k] is not None
            }
            if not results:
                continue
            entries = {t.pk: t.entries for t in tables}
            for (tid, idx), (mp, top) in board_matchpoints(results).items():
                i = entries[tid][idx] if idx < len(entries[tid]) else None
                if i:
                    rows.append((i, float(mp), top))
    return rows


def standings(event: Event) -> list[Standing]:
    """The event's standings, best first (``Standing.entry`` is an entry id)."""
    ids = _entry_ids(event)
    if event.format == Event.Format.DUPLICATE:
        return percentage_standings(duplicate_rows_of(event), ids)
    if formats.is_match(event.game):
        return match_standings(match_rows_of(event), ids)
    return table_standings(table_rows_of(event), ids)


def travelling(round_: Round) -> list[dict]:
    """A duplicate round's travelling tables: per board, every table's scores
    (entry index order) and matchpoints.  Empty until the round has ended."""
    if round_.status != Round.Status.FINISHED or round_.event.format != Event.Format.DUPLICATE:
        return []
    tables = [t for t in round_.tables.order_by("number") if t.result and t.result.get("boards") is not None]
    out = []
    boards = max((len(t.result["boards"]) for t in tables), default=0)
    for k in range(boards):
        results = {t.pk: t.result["boards"][k] for t in tables if k < len(t.result["boards"]) and t.result["boards"][k] is not None}
        mps = board_matchpoints(results) if results else {}
        out.append({
            "board": k + 1,
            "rows": [
                {
                    "table": t.number,
                    "entries": t.entries,
                    "scores": results.get(t.pk),
                    "mps": [float(mps[(t.pk, i)][0]) for i in range(len(results[t.pk]))] if t.pk in results else None,
                }
                for t in tables
            ],
        })
    return out
