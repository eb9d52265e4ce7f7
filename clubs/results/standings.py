"""What an event's tables add up to: history for pairing, standings, the
duplicate travelling tables.  Read-only; computed from the stored table
results every time (a correction changes the standings at once).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from fractions import Fraction

from .. import formats
from ..guards import embargoed_boards
from ..models import Entry, Event, EventTable, Round
from ..teams import results as team_results
from ..tournament.duplicate import board_matchpoints, neuberg_matchpoints
from ..tournament.standings import (
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


def board_cells(tables: list[EventTable]) -> list[dict]:
    """Every board of one duplicate round, as compared across its ``tables``
    (finished, with ``result["boards"]``): a list (board order) of ``{table
    pk: [cell per entry index]}``, each cell ``{"entry", "score", "mp",
    "top", "raw_mp", "raw_top", "neuberg", "absent"}`` (``score`` None: the
    table did not play the board; ``mp`` a ``Fraction`` or None: nothing to
    score).

    Matchpoints are Law 78A's (:func:`board_matchpoints`).  A board played
    fewer times than the round's most played board (a table ran out of time
    before it) is scaled to that many results by Neuberg's formula
    (:func:`neuberg_matchpoints`): ``mp``/``top`` are the adjusted figures
    that count, ``raw_mp``/``raw_top`` the board's own and ``neuberg`` says
    whether they differ; a board played at one table only is not compared
    (nothing to scale).  The no-show rule
    (``result["forfeit"]``, the absent entry ids, docs/tournaments.md
    "Duplicate: no-shows"): an absent entry scores **0 matchpoints** out of
    the usual maximum on every board its table played (the bot's result still
    stands for the comparison of the other tables); at a table that played no
    board at all because of the forfeit (a match event's forfeit), the absent
    entry scores 0 and the entry present the maximum (a win) on every board
    some table played, the maximum being the number of those tables."""
    out = []
    count = max((len(t.result.get("boards") or []) for t in tables), default=0)
    boards = [
        {t.pk: t.result["boards"][k] for t in tables
         if k < len(t.result["boards"]) and t.result["boards"][k] is not None}
        for k in range(count)
    ]
    expected = max((len(played) for played in boards), default=0)
    for played in boards:
        mps = board_matchpoints(played) if played else {}
        board: dict = {}
        for t in tables:
            absent = set(t.result.get("forfeit") or [])
            forfeited = bool(absent) and not any(b is not None for b in t.result.get("boards") or [])
            cells = []
            for idx, entry in enumerate(t.entries):
                score = played[t.pk][idx] if t.pk in played and idx < len(played[t.pk]) else None
                if t.pk in played:
                    raw_mp, raw_top = mps.get((t.pk, idx), (None, 0))
                    if entry and entry in absent:
                        raw_mp = Fraction(0)
                    mp, top = raw_mp, raw_top
                    if raw_mp is not None and 2 <= len(played) < expected:
                        mp, top = neuberg_matchpoints(raw_mp, len(played), expected)
                        if entry and entry in absent:
                            mp = Fraction(0)
                elif forfeited and played:
                    top = len(played)
                    mp = Fraction(0) if entry in absent else Fraction(top)
                    raw_mp, raw_top = mp, top
                else:
                    mp, top = None, 0
                    raw_mp, raw_top = None, 0
                cells.append({"entry": entry, "score": score, "mp": mp, "top": top,
                              "raw_mp": raw_mp, "raw_top": raw_top,
                              "neuberg": (mp, top) != (raw_mp, raw_top),
                              "absent": bool(entry and entry in absent)})
            board[t.pk] = cells
        out.append(board)
    return out


def _duplicate_tables(event: Event) -> dict:
    by_round: dict = defaultdict(list)
    for t in _tables(event):
        if t.result and t.result.get("boards") is not None:
            by_round[t.round_id].append(t)
    return by_round


def hidden_boards(round_: Round, event: Event, organiser: bool = False) -> range:
    """The boards of ``round_`` the standings and exports leave out for this
    viewer: none for the event's ``organiser`` (organisers and admins, who see
    a running round's scores, :func:`clubs.results.labels.sees_running_scores`) and
    for rounds that are not running; otherwise the boards still embargoed
    (:func:`clubs.guards.embargoed_boards`: some table of the round has
    neither finished nor completed the board)."""
    if organiser or round_.status != Round.Status.RUNNING or event.format != Event.Format.DUPLICATE:
        return range(0)
    round_.event = event
    return embargoed_boards(round_)


def duplicate_scores(event: Event, organiser: bool = False) -> Iterator[tuple[int, int, float, int]]:
    """``(round number, entry, matchpoints, maximum)`` per board and entry:
    each board is compared across the round's tables, entry index by entry
    index, with the no-show rule, Neuberg and the corrections applied
    (:func:`board_cells`).  A board of a running round still embargoed counts
    only for an ``organiser`` (:func:`hidden_boards`: while some table has to
    play it, comparing the tables that finished it tells about the board)."""
    for tables in _duplicate_tables(event).values():
        round_ = tables[0].round
        hidden = hidden_boards(round_, event, organiser)
        for k, board in enumerate(board_cells(tables)):
            if k in hidden:
                continue
            for cells in board.values():
                for c in cells:
                    if c["entry"] and c["mp"] is not None:
                        yield round_.number, c["entry"], float(c["mp"]), c["top"]


def duplicate_rows_of(event: Event, organiser: bool = False) -> list[tuple[int, float, int]]:
    """``(entry, matchpoints, maximum)`` per board and entry
    (:func:`duplicate_scores` without the round)."""
    return [(entry, mp, top) for _, entry, mp, top in duplicate_scores(event, organiser)]


def standings(event: Event, organiser: bool = False) -> list[Standing]:
    """The event's standings, best first (``Standing.entry`` is an entry id).
    A duplicate event's running round counts only its boards no longer
    embargoed, unless the viewer is an ``organiser`` (:func:`duplicate_rows_of`)."""
    ids = _entry_ids(event)
    if event.is_teams:
        return team_results.standings(event, organiser)
    if event.format == Event.Format.DUPLICATE:
        return percentage_standings(duplicate_rows_of(event, organiser), ids)
    if formats.is_match(event.game):
        return match_standings(match_rows_of(event), ids)
    return table_standings(table_rows_of(event), ids)


def travelling(round_: Round) -> list[dict]:
    """A duplicate round's travelling tables, empty until the round has ended:
    per board ``{"board": k (1-based), "rows": [{"table": number, "entries":
    [entry id or None], "cells": [cell]}]}``, a cell per entry index being a
    :func:`board_cells` cell plus ``role`` (the seat's role on that board, a
    msgid of the game's hook ``board_roles``, or None) and ``pct`` (the
    matchpoints as a percentage of the maximum, None when nothing was
    compared)."""
    if round_.status != Round.Status.FINISHED or round_.event.format != Event.Format.DUPLICATE:
        return []
    tables = [t for t in round_.tables.order_by("number") if t.result and t.result.get("boards") is not None]
    out = []
    for k, board in enumerate(board_cells(tables)):
        rows = []
        for t in tables:
            roles = (t.result.get("roles") or [])
            board_roles = roles[k] if k < len(roles) and roles[k] else []
            cells = []
            for idx, c in enumerate(board[t.pk]):
                pct = float(100 * c["mp"] / c["top"]) if c["mp"] is not None and c["top"] else None
                role = board_roles[idx] if idx < len(board_roles) else None
                cells.append({**c, "role": role, "pct": pct})
            rows.append({"table": t.number, "entries": t.entries, "cells": cells})
        out.append({"board": k + 1, "rows": rows})
    return out
