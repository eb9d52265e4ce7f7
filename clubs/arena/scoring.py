"""Arena points (pure Python, no Django): streaks, berserk, the clock, teams.

Per hand a player has a result (win, draw, loss) and base points from the
game's ``arena_result`` hook, ruling A1 (docs/tournaments.md: 2/1/0 by
the team's result, or by side, role and place).  Then, as lichess's arena:

* **fire**: after two wins in a row a player is on a streak; while on it,
  every hand's base points are doubled; any result but a win ends it;
* **berserk**: a player who went berserk at the table (half the turn time)
  gets +1 on a win (not doubled);
* **the clock**: a hand completed after the arena's end counts nothing (0
  points, no change of streak);
* a void deal (nothing to score) counts nothing and keeps the streak.

**Team battle**: each team's score is the sum of its best ``n`` players'
points.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

WIN, DRAW, LOSS, VOID = "win", "draw", "loss", "void"
#: Wins in a row after which a player is on fire.
FIRE_AFTER = 2


@dataclass(frozen=True)
class HandScore:
    """``points`` scored, whether the player was ``fire`` (on a streak), and
    the ``streak`` (wins in a row) after the hand."""

    points: int
    fire: bool
    streak: int


def on_fire(streak: int) -> bool:
    """Whether a player with ``streak`` wins in a row scores double."""
    return streak >= FIRE_AFTER


def hand_score(result: str, base: int, streak: int, berserk: bool = False, counted: bool = True) -> HandScore:
    """The points of one hand for a player whose streak before it was
    ``streak``.  ``result`` one of :data:`WIN`, :data:`DRAW`, :data:`LOSS`,
    :data:`VOID`; ``base`` the ruling's points; ``counted`` False for a hand
    completed after the clock.  Raises ValueError for an unknown result."""
    if result not in (WIN, DRAW, LOSS, VOID):
        raise ValueError(result)
    if not counted or result == VOID:
        return HandScore(0, False, streak)
    fire = on_fire(streak)
    points = base * (2 if fire else 1) + (1 if berserk and result == WIN else 0)
    return HandScore(points, fire, streak + 1 if result == WIN else 0)


def counts(completed_at: datetime | None, ends_at: datetime | None) -> bool:
    """Whether a hand completed at ``completed_at`` counts: the arena's clock
    (``ends_at``) had not run out (a hand in play at the end does not count)."""
    if completed_at is None:
        return False
    return ends_at is None or completed_at <= ends_at


def berserk_seconds(turn_seconds: int) -> int:
    """A berserk player's turn time: half the table's, at least 5 s."""
    return max(5, int(turn_seconds) // 2)


@dataclass(frozen=True)
class TeamTotal:
    """A team's ``total`` (its best players' points) and those players' ids."""

    team: int
    total: int
    counted: tuple


def team_totals(players: Iterable[tuple[int, int | None, int]], n: int) -> list[TeamTotal]:
    """``players``: ``(player id, team id or None, points)``; each team's
    best ``n`` players' points summed, best team first (ties: team id).
    Players without a team count for none."""
    by_team: dict[int, list[tuple[int, int]]] = {}
    for pid, team, points in players:
        if team is not None:
            by_team.setdefault(team, []).append((points, pid))
    out = []
    for team, rows in by_team.items():
        best = sorted(rows, key=lambda r: (-r[0], r[1]))[:n]
        out.append(TeamTotal(team, sum(p for p, _ in best), tuple(pid for _, pid in best)))
    return sorted(out, key=lambda t: (-t.total, t.team))


def ranked(rows: Sequence[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """``rows``: ``(player id, points, wins)``; ``(rank, player id)`` by
    points, then wins; equal players share a rank (1, 2, 2, 4)."""
    order = sorted(rows, key=lambda r: (-r[1], -r[2], r[0]))
    out, prev, rank = [], None, 0
    for i, (pid, points, wins) in enumerate(order, start=1):
        if (points, wins) != prev:
            rank, prev = i, (points, wins)
        out.append((rank, pid))
    return out
