"""Conversions the results rest on: Neuberg's matchpoint adjustment and the
WBF's continuous victory-point scale.  Pure Python, no Django.

* :func:`neuberg`: a duplicate board played fewer times than the others is
  matchpointed on a smaller top; Neuberg's formula scales it to the full field
  (the formula the WBF and the ACBL adopted; the EBU's "Neuberg" in its
  scoring guidance, with its worked example of 10 results where 11 were
  expected: a top of 18 becomes 19.9, a bottom of 0 becomes 0.1).
* :func:`wbf_vp`: a team match's IMP margin as victory points on the WBF 2013
  continuous 20-point scale ("The New WBF IMP to VP Scales", technical report
  of the WBF Scoring Panel: Bavin, Bethe, Bramley, Buchen; used since the 2013
  Bali world championships).

Rules and where they apply: docs/tournaments.md ("Duplicate: Neuberg").
"""

from __future__ import annotations

import math
from functools import lru_cache

#: r = τ³ with τ = (√5 − 1)/2, the WBF scale's base.
R = ((math.sqrt(5) - 1) / 2) ** 3


def neuberg(mp: float, expected: int, obtained: int) -> float:
    """Neuberg's adjusted matchpoints: ``M′ = (M + 1)·E/A − 1``.

    ``mp`` (M) is a result's matchpoints on a board played ``obtained`` (A)
    times, on the two-per-beat scale of that formula (2 for each result beaten,
    1 for each tie, top ``2·(A − 1)``); the answer is on the scale of
    ``expected`` (E) results (top ``2·(E − 1)``).  For a one-per-beat score
    (½ for a tie, top ``A − 1``) double it first and halve the answer.

    Sources: H. Neuberg's formula as adopted by the WBF (Code of Practice for
    duplicate scoring) and the ACBL; the EBU's worked example: 10 results
    where 11 were expected, a top of 18 becomes 19.9 and a bottom of 0
    becomes 0.1.  Raises ``ValueError`` unless ``1 ≤ obtained`` and
    ``expected ≥ 1``.  With ``obtained == expected`` it returns ``mp``."""
    if obtained < 1 or expected < 1:
        raise ValueError("neuberg needs at least one result obtained and expected")
    return (mp + 1) * expected / obtained - 1


@lru_cache(maxsize=64)
def _wbf_table(boards: int) -> tuple[int, ...]:
    """The winner's VPs in hundredths for every whole IMP margin from 0 to the
    blitz (``ceil(15·√boards)``), as the WBF's tables are made: the formula
    rounded to two decimals, then each value raised by 0.01 wherever an extra
    IMP would be worth more than the one before it (the technical report's
    correction that keeps the scale concave), repeated until none is."""
    blitz = 15 * math.sqrt(boards)
    values = [min(2000, round(1000 + 1000 * (1 - R ** (i / blitz)) / (1 - R)))
              for i in range(math.ceil(blitz) + 1)]
    changed = True
    while changed:
        changed = False
        for i in range(1, len(values) - 1):
            if values[i + 1] - values[i] > values[i] - values[i - 1]:
                values[i] += 1
                changed = True
    return tuple(values)


def wbf_vp(imps: float, boards: int) -> tuple[float, float]:
    """Both teams' victory points ``(team A, team B)`` for a match of
    ``boards`` boards that team A won by ``imps`` IMPs (negative: lost), on the
    WBF 2013 continuous scale: ``VP = 10 + 10·(1 − r^(I/B))/(1 − r)`` for the
    winner's margin I, with ``r = ((√5 − 1)/2)³`` and ``B = 15·√boards``
    (the blitz margin), capped at 20; the loser gets ``20 − VP``.

    Rounded to two decimals as the WBF's published tables are: a whole IMP
    margin is read from the table (:func:`_wbf_table`, with its concavity
    correction of a hundredth here and there); a fractional margin (IMPs
    averaged over several comparisons) from the formula, rounded.  A draw is
    10.00–10.00.  Raises ``ValueError`` for fewer than one board.

    Source: "The New WBF IMP to VP Scales", technical report of the WBF
    Scoring Panel (2012), adopted for the 2013 world championships."""
    if boards < 1:
        raise ValueError("a match has at least one board")
    margin = abs(imps)
    blitz = 15 * math.sqrt(boards)
    if float(margin).is_integer():
        table = _wbf_table(boards)
        win = table[min(int(margin), len(table) - 1)] / 100
    else:
        win = round(min(20.0, 10 + 10 * (1 - R ** (min(margin, blitz) / blitz)) / (1 - R)), 2)
    lose = round(20 - win, 2)
    return (win, lose) if imps >= 0 else (lose, win)
