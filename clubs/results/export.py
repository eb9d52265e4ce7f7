"""CSV export of an event: the standings, and every round's tables and byes.

Rules (docs/tournaments.md, "Export"):

* UTF-8 with a byte-order mark, so Excel on a Chinese Windows opens it right;
* one figure per column (level difference, game points, 头科, hands counted,
  match points of the round or matchpoints and their maximum), headings in the
  viewer's language;
* byes are a line with their match points; withdrawn entries are flagged;
* a running duplicate round (docs/tournaments.md "Nothing
  leaks"): for anyone but the event's organisers and admins, its boards still
  embargoed count in no figure and its tables' round figures are left blank,
  as on the event page;
* every text cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a
  carriage return is neutralised with a leading ``'`` (OWASP, "CSV
  Injection"); numbers stay numbers.

:data:`EXPORTS` names the exports; any other name is not found (404).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict

from django.utils.translation import gettext as _

from .. import formats
from ..models import Entry, Event
from ..models import Round
from .labels import TIEBREAK_LABELS, entry_names, score_label, sees_running_scores
from .corrections import figure_label, result_keys
from ..teams import results as team_results
from ..tournament.teams import BYE_VP
from .standings import duplicate_scores, match_rows_of, standings

#: The byte-order mark written first (UTF-8).
BOM = "\ufeff"
#: First characters that make a spreadsheet read a cell as a formula (OWASP).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value):
    """A cell as written: text beginning with a formula character gets a
    leading ``'`` (so ``-2+3`` stays text); numbers and other text unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _write(header: list, rows: list[list]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([neutralise(str(h)) for h in header])
    for row in rows:
        writer.writerow([neutralise(v) for v in row])
    return BOM + out.getvalue()


def _number(value):
    """Whole floats as ints (2.0 → 2), others rounded to 2 places."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 2)
    return value


def _withdrawn(event: Event) -> set[int]:
    return set(event.entries.filter(status=Entry.Status.WITHDRAWN).values_list("pk", flat=True))


def standings_csv(event: Event, user=None) -> str:
    """Rank, entry, the score (named for what it is), every tiebreak in
    order, rounds played, withdrawn (1 or empty); best first.  ``user``: the
    viewer (:func:`clubs.results.standings.standings` with the embargo unless an
    organiser)."""
    names = entry_names(event)
    rows = standings(event, sees_running_scores(event, user))
    gone = _withdrawn(event)
    keys = list(rows[0].tiebreaks) if rows else []
    header = [_("名次"), _("参赛者"), score_label(event), *[str(TIEBREAK_LABELS.get(k, k)) for k in keys],
              _("轮数"), _("已退赛")]
    data = [
        [s.rank, names.get(s.entry, str(s.entry)), _number(s.score), *[_number(s.tiebreaks[k]) for k in keys],
         s.played, 1 if s.entry in gone else ""]
        for s in rows
    ]
    return _write(header, data)


def rounds_csv(event: Event, user=None) -> str:
    """A line per entry of every table of every round, and per bye: round,
    table (empty for a bye), seat (entry index at the table), entry, each
    figure of the round result in its own column, the round's match points
    (match events; a bye's included) or matchpoints and maximum (duplicate),
    absent (the no-show rule), corrected, withdrawn.  For a ``user`` who is
    not an organiser, a running duplicate round's embargoed boards count in no
    matchpoints and its tables' figures are blank (module docstring)."""
    organiser = sees_running_scores(event, user)
    names = entry_names(event)
    gone = _withdrawn(event)
    keys = result_keys(event.game)
    duplicate = event.format == Event.Format.DUPLICATE
    match = formats.is_match(event.game)
    scored: dict = defaultdict(float)
    tops: dict = defaultdict(int)
    if duplicate:
        for number, entry, mp, top in duplicate_scores(event, organiser):
            scored[(number, entry)] += mp
            tops[(number, entry)] += top
    elif event.is_teams:  # the match's VPs, on the lines of both its tables
        for r in event.round_set.exclude(status="preview").order_by("number"):
            r.event = event
            if r.pairing.get("bye"):
                scored[(r.number, r.pairing["bye"])] = BYE_VP
            for m in team_results.round_matches(r, organiser):
                if m.vps() is not None:
                    scored[(r.number, m.a)], scored[(r.number, m.b)] = m.vps()
    elif match:
        for row in match_rows_of(event):
            scored[(row.round, row.entry)] += row.match_points
    header = [_("轮次"), _("桌号"), _("座次"), _("参赛者"), *[figure_label(k) for k in keys], _("局数")]
    if duplicate:
        header += [_("比赛分"), _("满分")]
    elif match:
        header += [_("胜利分") if event.is_teams else _("胜负分")]
    header += [_("缺席"), _("已更正"), _("已退赛")]
    data = []
    for r in event.round_set.exclude(status="preview").order_by("number"):
        bye = r.pairing.get("bye")
        if bye:
            line = [r.number, "", "", names.get(bye, str(bye)), *["" for _k in keys], 0]
            if duplicate:
                line += ["", ""]
            elif match:
                line += [_number(scored.get((r.number, bye), 0))]
            data.append(line + [_("轮空"), "", 1 if bye in gone else ""])
        for t in r.tables.order_by("number"):
            result = t.result or {}
            if event.has_boards and not organiser and r.status == Round.Status.RUNNING:
                result = {k: v for k, v in result.items() if k in ("forfeit", "hands")}
            results = result.get("entries") or [{} for _i in t.entries]
            absent = set(result.get("forfeit") or [])
            for seat, (i, res) in enumerate(zip(t.entries, results)):
                line = [r.number, t.number, seat + 1, names.get(i, str(i)) if i else _("机器人"),
                        *[res.get(k, "") for k in keys], res.get("hands", "")]
                if duplicate:
                    line += [_number(scored[(r.number, i)]) if i and (r.number, i) in scored else "",
                             tops[(r.number, i)] if i and (r.number, i) in tops else ""]
                elif match:
                    line += [_number(scored[(r.number, i)]) if i and (r.number, i) in scored else ""]
                line += [1 if i in absent else "", 1 if result.get("corrected") else "", 1 if i in gone else ""]
                data.append(line)
    return _write(header, data)


#: The exports by name: ``{name: function(event, user) -> str}`` (``user``: the viewer).
EXPORTS = {"standings": standings_csv, "rounds": rounds_csv}
