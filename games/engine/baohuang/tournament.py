"""How a 保皇 event scores (clubs): the game's tournament hooks.

Pure functions of the engine's hand summaries (``BaohuangRules.summary``).  A
保皇 entry is one player; a table is five entries, entry i at seat i.  A
player's round result is the sum of their game points over the round's hands;
头科 (first out, ``finish_order[0]``) counts for the first tiebreak.  See
``docs/tournaments.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base import gettext_noop

#: Five individuals per table (a table event).
SHAPE = "table"
ENTRY_SIZE = 1
ENTRIES_PER_TABLE = 5
#: What a duplicate board score is (the travelling table's heading): the
#: seat's game points, the zero-sum site points of the hand (B-rules, C4).
BOARD_SCORE = gettext_noop("游戏积分")


def seat_plan(entries_at_table: int = ENTRIES_PER_TABLE) -> list[tuple[int, int]]:
    """For each seat 0-4: ``(entry index at the table, player index)``: entry i at seat i."""
    return [(s, 0) for s in range(5)]


def round_result(summaries: Sequence[dict]) -> list[dict]:
    """Per seat: ``points`` (game points summed over the round's completed
    hands, room multiplier included), ``firsts`` (hands finished first, 头科),
    ``hands`` counted (a voided deal, B8, scores nothing and is not counted)."""
    points = [0] * 5
    firsts = [0] * 5
    hands = 0
    for s in summaries:
        if not s or not s.get("complete") or s.get("voided") or s.get("game_points") is None:
            continue
        hands += 1
        for seat, value in s["game_points"].items():
            points[int(seat)] += int(value or 0)
        order = s.get("finish_order") or []
        if order:
            firsts[order[0]] += 1
    return [{"points": points[i], "firsts": firsts[i], "hands": hands} for i in range(5)]


def board_scores(summary: dict) -> list[float] | None:
    """A duplicate board's score per seat: the seat's game points; None for
    a voided or incomplete hand."""
    if not summary or not summary.get("complete") or summary.get("voided") or summary.get("game_points") is None:
        return None
    return [int(summary["game_points"].get(str(i), 0)) for i in range(5)]


#: The roles of a 保皇 hand (B8-B10), as msgids the site translates.
ROLE_EMPEROR = gettext_noop("皇帝")
ROLE_GUARD = gettext_noop("保子")
ROLE_SOLO = gettext_noop("皇帝（独）")
ROLE_REBEL = gettext_noop("反贼")


def board_roles(summary: dict) -> list[str] | None:
    """Each seat's role on a board (the travelling table's headings): the
    emperor (皇帝, or 皇帝（独） playing alone, B9), his guard (保子, who holds the 4H* card, B10) and
    the three rebels (反贼); None if the hand has no emperor (voided, B8)."""
    if not summary or summary.get("emperor") is None:
        return None
    emperor, guard = summary["emperor"], summary.get("guard")
    solo = bool(summary.get("solo"))
    roles = []
    for seat in range(5):
        if seat == emperor:
            roles.append(ROLE_SOLO if solo else ROLE_EMPEROR)
        elif seat == guard and not solo:
            roles.append(ROLE_GUARD)
        else:
            roles.append(ROLE_REBEL)
    return roles


#: Arena results per hand (docs/tournaments.md, ruling A1).
ARENA_WIN, ARENA_DRAW, ARENA_LOSS = "win", "draw", "loss"


def arena_result(summary: dict) -> list[tuple[str, int]] | None:
    """Ruling A1 (保皇): per seat 0-4, ``(result, base points)`` of a
    completed hand for an arena, by role and place:

    * the side's result (B12: the emperor's side score positive wins, 0 is a
      draw): the emperor with his guard (B10), or the emperor alone (B9),
      against the rebels; a win 2, a draw 1, a loss 0;
    * role: a solo emperor (独, B9) who wins scores 3 instead of 2;
    * place (B11): 头科 (first out) adds 1, whatever the side's result.

    ``result`` is the side's (a rebel's 头科 in a lost hand is still a loss:
    it breaks a streak).  None for a voided deal (B8: it scores nothing) or an
    incomplete hand."""
    if not summary or not summary.get("complete") or summary.get("voided"):
        return None
    winner = summary.get("winner")
    emperor = summary.get("emperor")
    if winner not in ("emperor", "rebels", "draw") or emperor is None:
        return None
    solo = bool(summary.get("solo"))
    side = {emperor} if solo else {emperor, summary.get("guard")}
    order = summary.get("finish_order") or []
    first = order[0] if order else None
    out = []
    for seat in range(5):
        ours = seat in side
        if winner == "draw":
            result, base = ARENA_DRAW, 1
        elif (winner == "emperor") == ours:
            result, base = ARENA_WIN, 3 if (solo and seat == emperor) else 2
        else:
            result, base = ARENA_LOSS, 0
        out.append((result, base + (1 if seat == first else 0)))
    return out
