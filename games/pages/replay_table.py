"""The replay's table: the state after a replay step drawn on the live
table's felt, with the live table's seat block and its felt partial
(``games/_table_blocks.html``'s ``seat``, ``games/_felt.html``: the same
markup and CSS as a live table), seen by a spectator who sees everything
(the hand is over): each seat's cards, the round on the felt by seat, and
whatever the game's replay template adds (the cards set aside, the bidding).

The view (:func:`games.pages.views.hand_replay`) gives it the step's context
(:func:`games.services.records.replay_step`); :func:`replay_table` renders
``games/_replay_table.html`` (Jinja2, as the live fragment).
"""

from __future__ import annotations

from itertools import groupby

from django.template import engines
from django.utils.safestring import mark_safe

REPLAY_TABLE = "games/_replay_table.html"


def seat_rows(spec, step: dict, statuses: str = "playing") -> list[dict]:
    """One row per seat for ``games/_felt.html`` and the seat block, from a
    :func:`~games.services.records.replay_step` context ``step`` (the ring's
    reference is seat 1, at the bottom, as a spectator sees a live table):
    ``{"index", "name", "is_turn", "played" (``spec.seat_plays`` of the
    everything-view; a completed round stays still on the felt: no
    ``won_by``, its winner marked), "cards" (codes), "stacks" ([(code, n)]:
    identical neighbours as one card ×n), "shown" (the seat block's input)}``."""
    full = step["full"]
    plays = spec.seat_plays(full) or {}
    rows = []
    for seat in step["seats"]:
        i = seat["index"]
        played = plays.get(i)
        if played is not None and played.get("won_by") is not None:
            played = {**played, "won_by": None}
        cards = list(seat["cards"])
        rows.append({
            "index": i,
            "name": seat["name"],
            "is_turn": seat["is_turn"],
            "played": played,
            "cards": cards,
            "stacks": [(code, len(list(same))) for code, same in groupby(cards)],
            "shown": {
                "index": i, "name": seat["name"], "empty": False, "bot": False, "policy": "", "level": "",
                "tags": spec.seat_tags(full, i), "autoplay": False, "note": "", "note_short": "", "ready": True,
                "hand": True, "status": statuses, "count": len(cards),
                "place": spec.seat_place(full, i), "total": "", "turn": seat["is_turn"],
                "deadline_ms": 0, "auto_turn": False,
            },
        })
    return rows


def replay_table(spec, step: dict, request=None) -> str:
    """The replay's ``#replay-table`` (HTML, escaped already) for the
    :func:`~games.services.records.replay_step` context ``step`` of a hand
    of ``spec``'s game."""
    rows = seat_rows(spec, step)
    ctx = {
        "game": spec.code,
        "seat_rows": rows,
        "table": {"seats": rows},  # what games/_felt.html reads of the live table's view
        "step": step["step"],
        "total": step["total"],
    }
    return mark_safe(engines["jinja2"].get_template(REPLAY_TABLE).render(ctx, request))
