"""Duplicate matchpoints: a result is compared with the same seat's results at
the other tables that played the same board.

For one board and one seat (or side), each table's score earns **1 matchpoint
for every other table it outscored and ½ for every tie** (the matchpoint
scoring of duplicate bridge, WBF/ACBL "matchpoints"; Trickster Cards' duplicate
games score it the same way).  A table's maximum on a board is the number of
other tables that played it; the percentage is matchpoints over maximum, summed
over boards.  A board played at one table only gives no matchpoints and no
maximum.  Scores are numbers where more is better, oriented by the caller (a
game's hook says what a seat's score on a board is).

A board played fewer times than the others of its round (a table that ran
out of time, an odd table) is scaled to the full field by Neuberg's formula
(:func:`neuberg_matchpoints`).

Source and worked examples: ``docs/tournaments.md`` ("Duplicate", "Duplicate:
Neuberg").
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction

from .scoring import neuberg


def matchpoints(scores: Mapping[Hashable, float]) -> dict[Hashable, Fraction]:
    """``{table: matchpoints}`` for one board and one seat: ``scores`` is
    ``{table: that seat's score}``.  Exact (``Fraction``; ½ for a tie)."""
    out = {}
    for t, s in scores.items():
        mp = Fraction(0)
        for u, v in scores.items():
            if u == t:
                continue
            if s > v:
                mp += 1
            elif s == v:
                mp += Fraction(1, 2)
        out[t] = mp
    return out


def board_matchpoints(
    results: Mapping[Hashable, Sequence[float]],
) -> dict[tuple[Hashable, int], tuple[Fraction, int]]:
    """Matchpoints of every seat at every table for one board.

    ``results``: ``{table: (score of seat 0, score of seat 1, ...)}``, every
    table with the same number of seats (or sides).  Returns ``{(table, seat):
    (matchpoints, maximum)}`` with ``maximum = tables - 1``.  Raises
    ``ValueError`` if the tables' seat counts differ."""
    widths = {len(v) for v in results.values()}
    if len(widths) > 1:
        raise ValueError("every table of a board must report the same seats")
    out: dict[tuple[Hashable, int], tuple[Fraction, int]] = {}
    top = len(results) - 1
    for seat in range(widths.pop() if widths else 0):
        mps = matchpoints({t: r[seat] for t, r in results.items()})
        for t, mp in mps.items():
            out[(t, seat)] = (mp, top)
    return out


def neuberg_matchpoints(mp: Fraction, obtained: int, expected: int) -> tuple[Fraction, int]:
    """``(matchpoints, maximum)`` of a result on a board played ``obtained``
    times, scaled to the ``expected`` results the other boards got, by
    Neuberg's formula (:func:`clubs.tournament.scoring.neuberg`).

    ``mp`` is on this module's one-per-beat scale (top ``obtained - 1``); it is
    doubled for the formula's two-per-beat scale and the answer halved, so the
    maximum becomes ``expected - 1``.  Exact (``Fraction``).  Example: 10
    results where 11 were expected, a top of 9 becomes 9.95 of 10 (the EBU's 18
    → 19.9 on its two-per-beat scale).  Raises ``ValueError`` unless
    ``1 ≤ obtained ≤ expected``."""
    if not 1 <= obtained <= expected:
        raise ValueError("a board cannot be played more often than expected")
    return Fraction(neuberg(2 * Fraction(mp), expected, obtained)) / 2, expected - 1


def percentage(earned: Sequence[tuple[Fraction, int]]) -> float:
    """Matchpoint percentage (0-100) of a list of ``(matchpoints, maximum)``
    pairs; 0.0 when the maximum is 0 (nothing was compared)."""
    top = sum(m for _, m in earned)
    if not top:
        return 0.0
    return float(100 * sum(mp for mp, _ in earned) / top)
