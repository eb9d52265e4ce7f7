"""What the results are called and who may see a running round's: the
standings' score label, the tie-break labels, the entries' names as shown,
and whether a viewer sees running scores.  Shared by the pages, the CSV
export and the score cards."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .. import formats
from ..models import Event

#: Result and tie-break keys → labels, translated when shown (lazy).
TIEBREAK_LABELS = {
    "margin": _("级差"), "points": _("游戏积分"), "buchholz": _("对手分"), "direct": _("直接对局"),
    "firsts": _("头科"), "tablemates": _("同桌总分"), "matchpoints": _("比赛分"), "maximum": _("满分"),
    "imp_quotient": _("IMP 商"), "imp_margin": _("IMP 差"),
}

#: Short labels of a table's result figures, for the event page's narrow result
#: and progress cells (a phone's round table): "Margin 4 · Points 16", not
#: "Level margin 4 · Game points 16"; a key missing here takes its
#: :data:`TIEBREAK_LABELS` label.
FIGURE_LABELS = {
    "margin": pgettext_lazy("result figure", "级差"), "points": pgettext_lazy("result figure", "游戏积分"),
    "firsts": pgettext_lazy("result figure", "头科"),
}


def result_figures(result: dict) -> list[str]:
    """One side's result at a table as its figures, each ``"label value"``
    with the short :data:`FIGURE_LABELS` (the hands count left out):
    ``{"margin": 4, "points": 16, "hands": 1}`` → ``["级差 4", "游戏积分 16"]``."""
    return [f"{FIGURE_LABELS.get(k) or TIEBREAK_LABELS.get(k, k)} {v}" for k, v in result.items() if k != "hands"]


def score_label(event: Event) -> str:
    """What the standings' score is, named for what it is: the
    matchpoint percentage of a duplicate event, the match points (2 / 1 / 0)
    of a match event, the total game points of a table event."""
    if event.format == Event.Format.DUPLICATE:
        return str(_("比赛分百分比"))
    if event.is_teams:
        return str(_("胜利分"))
    if formats.is_match(event.game):
        return str(_("胜负分"))
    return str(_("游戏积分"))


def entry_names(event: Event) -> dict:
    """``{entry id: name as shown}`` of ``event``'s entries, bots' in the
    active language (:meth:`clubs.models.Entry.display_name`)."""
    return {e.pk: e.display_name() for e in event.entries.all()}


def sees_running_scores(event: Event, user) -> bool:
    """True for the event's organisers and admins: they see a running
    duplicate round's tables' scores, results and every board a table
    finished in the standings and exports; everyone else sees a board once
    its embargo is lifted (docs/tournaments.md "Nothing leaks")."""
    return bool(user is not None and user.is_authenticated and (
        user.is_staff or user.has_perm("clubs.manage_event", event)))
