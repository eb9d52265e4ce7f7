"""What a team-duplicate event's tables add up to: per match the IMPs of
each board and the victory points, team standings, team score cards and the
travellers.  Read-only, computed from the stored table results every time
(a correction of a table's boards changes the match at once), like
:mod:`clubs.results.standings`.

A match is two tables of a round (``pairing["matches"]`` and
``pairing["legs"]``, :func:`clubs.teams.lineup.expand_pairing`): team A at
entry index 0 of the first, at entry index 1 of the second.  Board *k*'s
swing for A is ``first.boards[k][0] + second.boards[k][1]`` (IMPs by
:func:`clubs.tournament.teams.imps`); the VPs count the round's scheduled
boards (``hands_per_round``).  A board some table of a running round has
yet to play (the embargo, :func:`clubs.guards.embargoed_boards`) counts for
nobody but the organisers; a match counts once both its tables finished.
No-show: a team absent (``result["forfeit"]``) at either table of its match
scores 0 VP and its opponent 20 (both absent: 0 each).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..guards import embargoed_boards
from ..models import Entry, Event, EventTable, Round
from ..tournament.standings import Standing
from ..tournament.teams import BYE_VP, MatchScore, TeamResult, score_match, team_standings


@dataclass
class TeamMatch:
    """One match of a round: the teams, its two tables, the score (None until
    both tables finished), and who was absent."""

    round: int
    number: int
    a: int
    b: int
    first: EventTable | None
    second: EventTable | None
    score: MatchScore | None = None
    absent: frozenset = frozenset()

    def vps(self) -> tuple[float, float] | None:
        """``(A's VPs, B's VPs)`` with the no-show rule, None if not scored."""
        if self.absent:
            return (0.0 if self.a in self.absent else 20.0, 0.0 if self.b in self.absent else 20.0)
        if self.score is None:
            return None
        return (self.score.vp_a, self.score.vp_b)


def _boards(table: EventTable | None, index: int, hidden: range) -> list[float | None]:
    if table is None or not table.result or table.finished is None:
        return []
    out = []
    for k, b in enumerate(table.result.get("boards") or []):
        ok = b is not None and k not in hidden and index < len(b) and b[index] is not None
        out.append(float(b[index]) if ok else None)
    return out


def round_matches(round_: Round, organiser: bool = False) -> list[TeamMatch]:
    """The matches of ``round_`` (a round of a team-duplicate event), scored
    as far as this viewer may see (``organiser``: every board a table
    finished; else the embargoed boards of a running round count for nobody)."""
    event = round_.event
    p = round_.pairing or {}
    tables = {t.number: t for t in round_.tables.all()}
    hidden = range(0) if organiser else embargoed_boards(round_)
    legs = p.get("legs") or []
    out = []
    for m, (a, b) in enumerate(p.get("matches") or []):
        numbers = [k + 1 for k, ids in enumerate(p.get("tables") or []) if set(ids) == {a, b}]
        first = next((tables.get(n) for n in numbers if legs[n - 1] == 0), None)
        second = next((tables.get(n) for n in numbers if legs[n - 1] == 1), None)
        match = TeamMatch(round_.number, m + 1, a, b, first, second)
        done = all(t is not None and t.finished is not None and t.result for t in (first, second))
        if done:
            absent = set(first.result.get("forfeit") or []) | set(second.result.get("forfeit") or [])
            match.absent = frozenset(absent & {a, b})
            match.score = score_match(_boards(first, 0, hidden), _boards(second, 1, hidden),
                                      boards=event.hands_per_round or None)
        out.append(match)
    return out


def _rounds(event: Event):
    return (event.round_set.exclude(status=Round.Status.PREVIEW).order_by("number")
            .prefetch_related("tables"))


def team_results(event: Event, organiser: bool = False) -> list[TeamResult]:
    """Every team's result per match (and bye) of ``event`` so far."""
    rows: list[TeamResult] = []
    for r in _rounds(event):
        r.event = event
        if r.pairing.get("bye"):
            rows.append(TeamResult(r.pairing["bye"], None, BYE_VP))
        for m in round_matches(r, organiser):
            vps = m.vps()
            if vps is None:
                continue
            ia, ib = (m.score.imps_a, m.score.imps_b) if m.score else (0, 0)
            rows.append(TeamResult(m.a, m.b, vps[0], ia, ib))
            rows.append(TeamResult(m.b, m.a, vps[1], ib, ia))
    return rows


def standings(event: Event, organiser: bool = False) -> list[Standing]:
    """The team standings as :class:`Standing` lines (score: victory points;
    tiebreaks ``imp_quotient``, ``imp_margin``; ``played``: matches and
    byes), by :func:`clubs.tournament.teams.team_standings`."""
    ids = list(event.entries.exclude(status=Entry.Status.PENDING).values_list("pk", flat=True))
    return [
        Standing(s.team, s.rank, s.vp, {"imp_quotient": round(s.quotient, 3),
                                        "imp_margin": s.imps_for - s.imps_against}, s.matches)
        for s in team_standings(ids, team_results(event, organiser))
    ]


def card(entry: Entry, names: dict) -> list[dict]:
    """A team's score card rows, finished rounds only (the embargo): per
    match and board ``{"round", "board", "table", "opponents", "result",
    "score", "total"}``: the board's swing (levels) as the result and its
    IMPs as the score; then a row per match with its VPs (``board`` None,
    ``result`` "IMPs a–b"), the running total in VPs."""
    event = entry.event
    rows: list[dict] = []
    total = 0.0
    for r in _rounds(event).filter(status=Round.Status.FINISHED):
        r.event = event
        if r.pairing.get("bye") == entry.pk:
            total += BYE_VP
            rows.append({"round": r.number, "board": None, "table": None, "opponents": [],
                         "result": "bye", "score": BYE_VP, "total": total})
        for m in round_matches(r, organiser=True):
            if entry.pk not in (m.a, m.b) or m.vps() is None:
                continue
            mine_a = entry.pk == m.a
            opp = names.get(m.b if mine_a else m.a, "🤖")
            tables = f"{m.first.number}/{m.second.number}" if m.first and m.second else None
            if m.score:
                for k, (sw, im) in enumerate(zip(m.score.swings, m.score.board_imps)):
                    if sw is None:
                        continue
                    sign = 1 if mine_a else -1
                    rows.append({"round": r.number, "board": k + 1, "table": tables, "opponents": [opp],
                                 "result": f"{sign * sw:+.2f}", "score": sign * im, "total": None})
            vp = m.vps()[0 if mine_a else 1]
            total = round(total + vp, 2)
            mine, theirs = ((m.score.imps_a, m.score.imps_b) if mine_a else (m.score.imps_b, m.score.imps_a)) \
                if m.score else (0, 0)
            rows.append({"round": r.number, "board": None, "table": tables, "opponents": [opp],
                         "result": f"IMPs {mine}–{theirs}", "score": vp, "total": total})
    return rows


def travelling(round_: Round) -> list[dict]:
    """A finished team round's travellers: per board ``{"board": k
    (1-based), "rows": [{"match", "a", "b", "first", "second", "swing",
    "imps"}]}``: team A's score at each table (levels), the swing and its
    IMPs (positive: A gained).  Empty until the round has ended."""
    if round_.status != Round.Status.FINISHED or not round_.event.is_teams:
        return []
    matches = round_matches(round_, organiser=True)
    count = len(round_.boards or [])
    out = []
    for k in range(count):
        rows = []
        for m in matches:
            f, s = _boards(m.first, 0, range(0)), _boards(m.second, 1, range(0))
            sw = m.score.swings[k] if m.score and k < len(m.score.swings) else None
            im = m.score.board_imps[k] if m.score and k < len(m.score.board_imps) else None
            rows.append({"match": m.number, "a": m.a, "b": m.b,
                         "first": f[k] if k < len(f) else None, "second": s[k] if k < len(s) else None,
                         "swing": sw, "imps": im})
        out.append({"board": k + 1, "rows": rows})
    return out
