"""What a 保皇 table adds to the generic table context for one viewer:
the previous round on demand ("上一轮").

Built only from the viewer's own engine view (``table.view``): the round log
holds public actions (sets played, 让, 过), the same for every seat, so the
block reveals nothing a seat could not have watched (B5; the guard, B10, is
not in it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from games.render.view import TableView

VERB_LABELS = {"yield": _("让"), "pass": _("过")}


def last_round(view: dict | None, names: list) -> dict | None:
    """The round before the one on the table, or None (none yet, or not in
    play).  ``{"winner": seat, "winner_name": str, "plays": [{"seat", "name",
    "cards": [codes], "verb": label|None, "top": bool}]}`` in playing order;
    ``top`` marks the set that stood (its seat won the round, B5)."""
    if not view or view.get("phase") != "play":
        return None
    log = view.get("last_round") or []
    sets = [i for i, e in enumerate(log) if e.get("verb") == "play"]
    if not sets:
        return None
    winner = log[sets[-1]]["seat"]

    def name(seat):
        return names[seat] if 0 <= seat < len(names) else str(seat + 1)

    return {
        "winner": winner,
        "winner_name": name(winner),
        "plays": [
            {
                "seat": e["seat"],
                "name": name(e["seat"]),
                "cards": list(e.get("cards") or []) if e.get("verb") == "play" else [],
                "verb": None if e.get("verb") == "play" else VERB_LABELS.get(e.get("verb"), e.get("verb")),
                "top": i == sets[-1],
            }
            for i, e in enumerate(log)
        ],
    }


@dataclass(frozen=True, slots=True)
class BaohuangRegions:
    """What a 保皇 board adds for one viewer (``game`` in its template):
    ``last_round``, the previous round on demand (:func:`last_round`), or
    None.  The rest of the board reads the generic table (``table.view``)."""

    last_round: dict | None


def table_regions(table: TableView) -> BaohuangRegions:
    """The 保皇 regions of ``table`` (the game's ``table_regions`` hook)."""
    return BaohuangRegions(last_round(table.view, table.names))
