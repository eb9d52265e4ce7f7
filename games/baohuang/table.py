"""The 保皇 board's regions that every viewer sees alike (the game's
``shared_regions``, :class:`games.registry.GameSpec`): the set to beat
(``top-set``) and the previous round on demand (``last-round``, "上一轮"),
rendered once per room version and language for every seat and spectator.

Built only from :class:`~games.render.view.PublicTable` (the engine's view for
no seat): the set on the table, the round's leader and the round log are
public actions (sets played, 让, 过, B5), the same in every seat's view, so
these regions reveal nothing a seat could not have watched (the guard, B10,
is not in them).  The rest of the board reads the viewer's own table
(``table.view``), per seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from games.render.view import PublicTable

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


def top_set(public: PublicTable) -> dict | None:
    """``bh_top``'s inputs (``top-set``): the set to beat (``{"seat",
    "cards"}`` or None, B4), the round's leader, the seats' names; None
    before the first deal."""
    view = public.view
    if view is None:
        return None
    return {"top": view["top"], "leader": view["round"]["leader"], "names": public.names}


def previous_round(public: PublicTable) -> dict | None:
    """``bh_last_round``'s inputs (``last-round``): :func:`last_round` of
    the public view, or None (no region) when there is none."""
    found = last_round(public.view, public.names)
    return None if found is None else {"bh_last_round": found}


#: The 保皇 board's shared regions (``GameSpec.shared_regions``): region id ->
#: its block's inputs from what every viewer sees.
SHARED_REGIONS = {"top-set": top_set, "last-round": previous_round}
