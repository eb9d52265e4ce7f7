"""How a 升級 event scores (clubs): the game's tournament hooks.

Pure functions of the engine's hand summaries (``ShengjiRules.summary``), so
the tournament core never needs to know a rule.  A 升級 entry is a fixed pair;
a table is two entries: entry 0 at seats 0 and 2 (team 0, S1), entry 1 at
seats 1 and 3 (team 1).  See ``docs/tournaments.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base import gettext_noop

from .match import team_of
from .review import smooth_levels

#: Two entries per table, each a fixed pair (a match event).
SHAPE = "match"
ENTRY_SIZE = 2
ENTRIES_PER_TABLE = 2
#: What a duplicate board score is (the travelling table's heading): the
#: entry's levels gained minus the other entry's.
BOARD_SCORE = gettext_noop("级差")


def seat_plan(entries_at_table: int = ENTRIES_PER_TABLE) -> list[tuple[int, int]]:
    """For each seat 0-3: ``(entry index at the table, player index in the
    entry)``: entry 0 holds seats 0 and 2, entry 1 seats 1 and 3 (S1)."""
    return [(team_of(s), s // 2) for s in range(4)]


def _team(values: dict | None, team: int) -> int:
    return int((values or {}).get(str(team), 0) or 0)


def round_result(summaries: Sequence[dict]) -> list[dict]:
    """The round's result per entry (index 0, 1) from its completed hands.

    ``margin``: the entry's levels gained over the round minus the other
    entry's (the pair ahead in levels at the end of the round wins);
    ``points``: the game points (C4) its two seats scored; ``hands``: hands
    counted (a voided deal or an incomplete hand adds nothing)."""
    gained = [0, 0]
    points = [0, 0]
    hands = 0
    for s in summaries:
        if not s or not s.get("complete") or s.get("levels_gained") is None:
            continue
        hands += 1
        for team in (0, 1):
            gained[team] += _team(s.get("levels_gained"), team)
        for seat, value in (s.get("game_points") or {}).items():
            points[team_of(int(seat))] += int(value or 0)
    return [
        {"margin": gained[0] - gained[1], "points": points[0], "hands": hands},
        {"margin": gained[1] - gained[0], "points": points[1], "hands": hands},
    ]


def board_scores(summary: dict) -> list[float] | None:
    """A duplicate board's score per entry index (0, 1): levels gained by the
    entry's team minus the other team's; None if the hand did not complete."""
    if not summary or not summary.get("complete") or summary.get("levels_gained") is None:
        return None
    g = summary["levels_gained"]
    return [_team(g, 0) - _team(g, 1), _team(g, 1) - _team(g, 0)]


#: The sides of a 升級 hand (S15, S16), as msgids the site translates.
ROLE_DEFENDERS = gettext_noop("庄家")
ROLE_ATTACKERS = gettext_noop("闲家")


def board_roles(summary: dict) -> list[str] | None:
    """Each entry's side on a board (the travelling table's headings): the
    dealer's team defends (庄家), the other attacks (闲家) (S15, S16); None
    before a dealer is known."""
    if not summary or summary.get("dealer") is None:
        return None
    dealer_team = team_of(int(summary["dealer"]))
    return [ROLE_DEFENDERS if e == dealer_team else ROLE_ATTACKERS for e in (0, 1)]


def points_in_play(view: dict) -> list[int]:
    """Per entry index (team): the card points its pair has won in the tricks
    of the hand in play so far, from the spectator view's ``points_won`` (per
    seat; public: every trick is seen by all).  For the organiser's live page
, pushed as the tricks are played; the kitty is not counted."""
    won = view.get("points_won") or {}
    return [sum(int(won.get(str(s), 0) or 0) for s in range(4) if team_of(s) == team) for team in range(2)]


#: Arena results per hand (docs/tournaments.md, ruling A1): the team's result
#: and its base points (2 a win, 1 a draw, 0 a loss), per seat.
ARENA_WIN, ARENA_DRAW, ARENA_LOSS = "win", "draw", "loss"


def arena_result(summary: dict) -> list[tuple[str, int]] | None:
    """Ruling A1 (升級): per seat 0-3, ``(result, base points)`` of a
    completed hand for an arena: the team that gained more levels wins (S17);
    with equal levels (S17's 160-239 band: the roles swap, nobody goes up, the
    attackers gain the ±1) the attackers win when they reached 160, otherwise
    it is a draw.  A win is 2, a draw 1, a loss 0.  None for a hand that did
    not complete (nothing to score)."""
    if not summary or not summary.get("complete") or summary.get("levels_gained") is None:
        return None
    g = [_team(summary["levels_gained"], 0), _team(summary["levels_gained"], 1)]
    if g[0] != g[1]:
        winner = 0 if g[0] > g[1] else 1
    else:
        dealer = summary.get("dealer")
        x = summary.get("attackers_points")
        if dealer is not None and x is not None and int(x) >= 160:
            winner = 1 - team_of(int(dealer))
        else:
            winner = None
    out = []
    for seat in range(4):
        if winner is None:
            out.append((ARENA_DRAW, 1))
        elif team_of(seat) == winner:
            out.append((ARENA_WIN, 2))
        else:
            out.append((ARENA_LOSS, 0))
    return out


def team_board_scores(summary: dict) -> list[float] | None:
    """A team-duplicate board's score per entry index (0, 1), in levels: the
    entry's levels minus the other entry's, read from the attackers' points
    (kitty included, S16) on the S17 table as a line
    (:func:`.review.smooth_levels`: the bands' means, a ten-point difference
    always worth something) instead of in whole 80-point steps, so that the
    two tables of a team match compare like bridge scores rather than
    mostly tie.  Rounded to hundredths; None if the hand did not complete.

    >>> team_board_scores({"complete": True, "dealer": 0, "attackers_points": 80})
    [1.0, -1.0]
    """
    if not summary or not summary.get("complete") or summary.get("attackers_points") is None:
        return None
    attackers = 1 - team_of(int(summary["dealer"]))
    value = round(smooth_levels(float(summary["attackers_points"])), 2)
    return [value if team == attackers else -value for team in (0, 1)]
