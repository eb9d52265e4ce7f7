"""Personal score cards: per entrant, every round (every board of
a duplicate event) with the table, the opponents, the result, the score it
earned and the running total.  Read-only, from the same rows as the standings
(:mod:`clubs.results.standings`), so a card always adds up to the entrant's score.

* match games (fixed pairs, one opponent): match points per round (win 2,
  draw 1, loss 0 as in the standings), result = the margin;
* table games: points per round, result = the table's points and firsts;
* duplicate: matchpoints per board out of the board's top.
"""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import formats
from ..models import Entry, EntryPlayer, Event, EventTable, Round
from ..teams import results as team_results
from .labels import entry_names
from .standings import board_cells, match_rows_of, table_rows_of


def _points_and_firsts(points, firsts: int) -> str:
    """A table round's result on the scorecard, "12 分，1 次头游": each count
    with its plural form ("1 point, 1 first place"; a fraction takes the plural)."""
    count = int(points) if float(points).is_integer() else 2
    return _("%(points)s，%(firsts)s") % {
        "points": ngettext("%(points)s 分", "%(points)s 分", count) % {"points": f"{points:g}"},
        "firsts": ngettext("%(firsts)s 次头游", "%(firsts)s 次头游", firsts) % {"firsts": firsts},
    }


def entry_of(event: Event, user) -> Entry | None:
    """``user``'s entry in ``event`` (a withdrawn one too), or None."""
    row = EntryPlayer.objects.filter(entry__event=event, user=user).select_related("entry").first()
    return row.entry if row else None


def _tables_by_round(event: Event) -> dict[tuple[int, int], EventTable]:
    out = {}
    for t in EventTable.objects.filter(round__event=event).exclude(round__status=Round.Status.PREVIEW).select_related("round"):
        for i in t.entries:
            if i:
                out[(t.round.number, i)] = t
    return out


def card(entry: Entry) -> dict:
    """``{"entry", "event", "unit", "rows": [{"round", "board", "table",
    "opponents", "result", "score", "total"}], "total", "maximum"}``;
    ``maximum`` (duplicate: the sum of the boards' tops, else None)."""
    event = entry.event
    names = entry_names(event)
    tables = _tables_by_round(event)

    def others(rnd):
        t = tables.get((rnd, entry.pk))
        if t is None:
            return None, []
        return t.number, [names.get(j, "🤖") if j else "🤖" for j in t.entries if j != entry.pk]

    rows: list[dict] = []
    total = 0.0
    maximum = None
    if event.is_teams:  # per board the swing and its IMPs, per match the VPs
        unit = _("胜利分")
        rows = team_results.card(entry, names)
        for r in rows:
            if r["result"] == "bye":
                r["result"] = _("轮空")
            elif r["board"] is None:
                r["result"] = _("IMP %(imps)s") % {"imps": r["result"].split(" ", 1)[1]}
        total = rows[-1]["total"] if rows else 0.0
    elif event.format == Event.Format.DUPLICATE:
        unit = _("比赛分")
        maximum = 0
        by_round = defaultdict(list)
        # only rounds every table finished: a board stays hidden until all tables played it (the embargo)
        for t in (EventTable.objects.filter(round__event=event, round__status=Round.Status.FINISHED)
                  .select_related("round").order_by("round__number", "number")):
            if t.result and t.result.get("boards") is not None:
                by_round[t.round.number].append(t)
        for rnd in sorted(by_round):
            group = by_round[rnd]
            mine = next((t for t in group if entry.pk in t.entries), None)
            if mine is None:
                continue
            idx = mine.entries.index(entry.pk)
            # the standings' own figures: no-show rule, Neuberg on a board played fewer times
            for k, board in enumerate(board_cells(group)):
                cell = board[mine.pk][idx]
                if cell["mp"] is None:
                    continue
                total += float(cell["mp"])
                maximum += cell["top"]
                number, opp = others(rnd)
                if cell["score"] is not None:
                    result = cell["score"]
                else:  # a table that played no board: the no-show rule's forfeit
                    result = _("缺席") if cell["absent"] else _("对手缺席")
                rows.append({"round": rnd, "board": k + 1, "table": number, "opponents": opp,
                             "result": result, "score": float(cell["mp"]), "total": total})
    elif formats.is_match(event.game):
        unit = _("局分")
        for r in sorted((r for r in match_rows_of(event) if r.entry == entry.pk), key=lambda r: r.round):
            total += r.match_points
            number, opp = others(r.round)
            if r.opponent is None:
                result = _("轮空")
            elif r.forfeit:
                result = _("缺席") if r.match_points == 0 else _("对手缺席")
            else:
                result = f"{r.margin:+g}"
            rows.append({"round": r.round, "board": None, "table": number, "opponents": opp,
                         "result": result, "score": r.match_points, "total": total})
    else:
        unit = _("分")
        for r in sorted((r for r in table_rows_of(event) if r.entry == entry.pk), key=lambda r: r.round):
            total += r.points
            number, opp = others(r.round)
            rows.append({"round": r.round, "board": None, "table": number, "opponents": opp,
                         "result": _points_and_firsts(r.points, r.firsts),
                         "score": r.points, "total": total})
    return {"entry": entry, "name": names.get(entry.pk, entry.name), "event": event, "unit": unit,
            "rows": rows, "total": total, "maximum": maximum,
            "boards": maximum is not None or event.is_teams}


def card_text(entry: Entry) -> str:
    """The card as plain text lines (the results e-mail)."""
    c = card(entry)
    lines = [_("成绩卡：%(name)s") % {"name": c["name"]}]
    for r in c["rows"]:
        where = _("第%(round)s轮") % {"round": r["round"]}
        if r["board"]:
            where += " " + _("第%(board)s副") % {"board": r["board"]}
        if r["table"]:
            where += " T%s" % r["table"]
        total = "" if r["total"] is None else f" | {r['total']:g}"
        lines.append(f"{where}: {', '.join(r['opponents'])} | {r['result']} | {r['score']:g}{total}")
    total = f"{c['total']:g}" + (f" / {c['maximum']}" if c["maximum"] else "")
    lines.append(_("合计：%(total)s %(unit)s") % {"total": total, "unit": c["unit"]})
    return "\n".join(lines)
