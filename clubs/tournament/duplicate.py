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

Source and worked examples: ``docs/tournaments.md`` ("Duplicate").
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction


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


def percentage(earned: Sequence[tuple[Fraction, int]]) -> float:
    """Matchpoint percentage (0-100) of a list of ``(matchpoints, maximum)``
    pairs; 0.0 when the maximum is 0 (nothing was compared)."""
    top = sum(m for _, m in earned)
    if not top:
        return 0.0
    return float(100 * sum(mp for mp, _ in earned) / top)
