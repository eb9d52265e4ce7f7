"""Scoring (ruling B12).

Place points by finishing position: 頭科 +4, 二科 +2, third 0, 二落 -2, 大落 -4.
A side's score is the sum of its players' place points (the emperor alone when
solo); positive wins, 0 is a draw.  Doublings, each ×2 and cumulative: emperor
and guard take 頭科 and 二科, or 二落 and 大落; 明獨; 明保 when the emperor's
side wins.  With the doubled side score E: the emperor gets 2·E (4·E when solo),
the guard E, each rebel -E; all times the room multiplier.  The sum is always 0.

>>> r = score((0, 1, 2, 3, 4), emperor=0, guard=1, solo=None, guard_declared="open")
>>> r["emperor_side_score"], r["doublings"], r["game_points"]
(24, ['pair_top', 'open_guard'], {0: 48, 1: 24, 2: -24, 3: -24, 4: -24})
"""

from __future__ import annotations

PLACE_POINTS = (4, 2, 0, -2, -4)


def score(finish_order, emperor: int, guard: int | None, solo: str | None,
          guard_declared: str | None, multiplier: int = 1) -> dict:
    """The hand's result: ``emperor_side_score`` (after doubling), ``raw_score``,
    ``doublings`` (names), ``winner`` (``"emperor"``/``"rebels"``/``"draw"``) and
    ``game_points`` by seat (ints, multiplier included)."""
    place = {s: PLACE_POINTS[i] for i, s in enumerate(finish_order)}
    raw = place[emperor] + (0 if solo else place[guard])
    doublings = []
    if not solo:
        pos = sorted((finish_order.index(emperor), finish_order.index(guard)))
        if pos == [0, 1]:
            doublings.append("pair_top")
        elif pos == [3, 4]:
            doublings.append("pair_bottom")
    if solo == "open":
        doublings.append("open_solo")
    if not solo and guard_declared == "open" and raw > 0:
        doublings.append("open_guard")
    e = raw * (1 << len(doublings))  # a shift: 2 ** len() is a float once compiled (Cython)
    winner = "emperor" if e > 0 else "rebels" if e < 0 else "draw"
    pts = {}
    for s in range(5):
        if s == emperor:
            v = 4 * e if solo else 2 * e
        elif s == guard and not solo:
            v = e
        else:
            v = -e
        pts[s] = v * multiplier
    return {"emperor_side_score": e, "raw_score": raw, "doublings": doublings,
            "winner": winner, "game_points": pts}
