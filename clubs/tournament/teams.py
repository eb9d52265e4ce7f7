"""Team duplicate (teams of four): IMPs per board, a match's IMPs and victory
points, team standings.  Pure Python, no Django.

A team match is played at two tables with the same boards: team A sits at
entry index 0 (north–south) at the first table and at entry index 1
(east–west) at the second, team B the other way round.  A board's **swing**
for team A is the sum of its board scores at the two tables (its score as one
side plus its score as the other side of the same deal), in the game's board
unit (升級: levels, ``team_board_scores``); the swing becomes IMPs by
:func:`imps`, the match's IMP margin becomes victory points by
:func:`clubs.tournament.scoring.wbf_vp`.  The scale and its calibration on
simulated boards: docs/tournaments.md, "Team duplicate".
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field

from .scoring import wbf_vp

#: The WBF IMP scale (Laws of Duplicate Bridge 2017, Law 78B): the lower
#: bound in bridge points of 1, 2, … 24 IMPs.
BRIDGE_IMP_STEPS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100,
                    1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000)

#: How many bridge points one level of swing is worth on :data:`BRIDGE_IMP_STEPS`
#: (calibrated on simulated boards, docs/tournaments.md: the median board swings
#: 3-5 IMPs and a four-level swing, 大光 against a made hand, 13-14).
POINTS_PER_LEVEL = 220


def imps(swing: float) -> int:
    """IMPs for a board's ``swing`` (team A's score at one table plus its
    score at the other, in levels; negative: team B gained): the WBF IMP
    scale (Law 78B) read with one level = :data:`POINTS_PER_LEVEL` bridge
    points, so 0.1 level → 0, ½ level → 3, 1 level → 6, 2 levels → 10,
    4 levels → 13, 9 levels or more → 20 and up (at most 24).  Signed like
    ``swing``."""
    points = round(abs(swing) * POINTS_PER_LEVEL)
    n = bisect.bisect_right(BRIDGE_IMP_STEPS, points)
    return n if swing >= 0 else -n


def board_swing(a_first: float | None, a_second: float | None) -> float | None:
    """Team A's swing on a board: its score at the first table (as entry 0)
    plus its score at the second (as entry 1); None when a table did not
    complete the board (it then counts for nobody)."""
    if a_first is None or a_second is None:
        return None
    return round(a_first + a_second, 2)


@dataclass(frozen=True)
class MatchScore:
    """A scored team match: per board the swing and IMPs for team A (None:
    not played at both tables), the IMP totals of both teams, the VPs."""

    swings: tuple[float | None, ...]
    board_imps: tuple[int | None, ...]
    imps_a: int
    imps_b: int
    vp_a: float
    vp_b: float

    @property
    def margin(self) -> int:
        """Team A's IMP margin (negative: B won)."""
        return self.imps_a - self.imps_b


def score_match(first: Sequence[float | None], second: Sequence[float | None],
                boards: int | None = None) -> MatchScore:
    """Score a two-table match from team A's board scores at the first table
    (``first[k]``: as entry 0) and at the second (``second[k]``: as entry
    1).  IMPs won per team are summed over the boards played at both tables;
    the VPs (:func:`wbf_vp`) count ``boards`` boards (default: the boards
    scheduled, ``len(first)``), so an unplayed board is a flat board.  A
    match with no board scheduled is 10–10."""
    n = max(len(first), len(second))
    swings = tuple(board_swing(first[k] if k < len(first) else None, second[k] if k < len(second) else None)
                   for k in range(n))
    per = tuple(None if s is None else imps(s) for s in swings)
    a = sum(x for x in per if x and x > 0)
    b = -sum(x for x in per if x and x < 0)
    count = boards if boards is not None else n
    vp = wbf_vp(a - b, count) if count >= 1 else (10.0, 10.0)
    return MatchScore(swings, per, a, b, vp[0], vp[1])


@dataclass(frozen=True)
class TeamResult:
    """One team's side of a match (or a bye: ``opponent`` None)."""

    team: int
    opponent: int | None
    vp: float
    imps_for: int = 0
    imps_against: int = 0


@dataclass
class TeamStanding:
    """A team's place: VPs, then the IMP quotient, then IMP margin."""

    team: int
    rank: int = 0
    vp: float = 0.0
    imps_for: int = 0
    imps_against: int = 0
    matches: int = 0
    opponents: list[int] = field(default_factory=list)

    @property
    def quotient(self) -> float:
        """IMPs won ÷ IMPs lost (won when none lost; 0 ÷ 0 is 1)."""
        if self.imps_against == 0:
            return float(self.imps_for) if self.imps_for else 1.0
        return self.imps_for / self.imps_against


#: VPs of a bye (the WBF's general conditions give the team with a bye 12
#: VPs; a club event is free to choose, and this one does as the WBF).
BYE_VP = 12.0


def team_standings(teams: Sequence[int], results: Sequence[TeamResult]) -> list[TeamStanding]:
    """Standings of ``teams`` from their match results: by victory points
    (summed, to hundredths), then the IMP quotient (IMPs won ÷ lost, the
    WBF's first tiebreak for teams level on VPs in a round robin), then the
    IMP margin; teams equal on all three share a rank (1, 2, 2, 4).  A
    result of a team not in ``teams`` raises ``KeyError``."""
    rows = {t: TeamStanding(t) for t in teams}
    for r in results:
        s = rows[r.team]
        s.vp = round(s.vp + r.vp, 2)
        s.imps_for += r.imps_for
        s.imps_against += r.imps_against
        s.matches += 1
        if r.opponent is not None:
            s.opponents.append(r.opponent)

    def key(s: TeamStanding):
        return (-s.vp, -round(s.quotient, 6), -(s.imps_for - s.imps_against))

    ordered = sorted(rows.values(), key=lambda s: (key(s), s.team))
    for i, s in enumerate(ordered):
        s.rank = ordered[i - 1].rank if i and key(ordered[i - 1]) == key(s) else i + 1
    return ordered


def team_tables(matches: Sequence[Sequence[int]]) -> list[dict]:
    """The tables of a round of team matches: per match ``[A, B]`` two
    tables, ``[A, B]`` (A north–south) then ``[B, A]`` (A east–west); each
    table says which ``match`` (index) it belongs to and which ``leg`` (0 the
    first table, 1 the second); a team sends its first pair to the first
    table and its second pair to the second."""
    out = []
    for m, (a, b) in enumerate(matches):
        out.append({"entries": [a, b], "match": m, "leg": 0})
        out.append({"entries": [b, a], "match": m, "leg": 1})
    return out
