"""What an event page shows, as plain data for the templates (read-only):
entries, rounds with their tables and progress, standings, corrections."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext

from games.engine import get_rules
from games.models import Hand
from games.services.readmodel import current_hand, hand_state

from .. import formats
from ..models import Correction, Entry, Event, EventLog, EventTable, Round
from ..results.corrections import CorrectionForm, describe
from ..results.labels import TIEBREAK_LABELS, entry_names, result_figures, score_label, sees_running_scores  # noqa: F401 (the pages use them)
from ..results.standings import standings, travelling
from ..teams import results as team_results

def travelling_view(round_: Round, names: dict, hooks) -> list[dict]:
    """The travelling tables of a finished duplicate round as the page shows
    them (:func:`clubs.results.standings.travelling`): per board ``{"board", "heading",
    "lines"}``, a line per table and entry index with the entry's name, its
    role on the board (translated), score, matchpoints, maximum and
    percentage, ``absent`` under the no-show rule; on a board played fewer
    times than the others, ``neuberg`` with the board's own ``raw_mp`` of
    ``raw_top`` beside the Neuberg-adjusted matchpoints that count."""
    heading = gettext(getattr(hooks, "BOARD_SCORE", "成绩"))
    out = []
    for b in travelling(round_):
        lines = []
        for row in b["rows"]:
            for c in row["cells"]:
                lines.append({
                    "table": row["table"],
                    "name": names.get(c["entry"], "🤖") if c["entry"] else "🤖",
                    "role": gettext(c["role"]) if c["role"] else "",
                    "score": c["score"], "mp": None if c["mp"] is None else float(c["mp"]),
                    "top": c["top"], "pct": c["pct"], "absent": c["absent"],
                    "neuberg": c["neuberg"],
                    "raw_mp": None if c["raw_mp"] is None else float(c["raw_mp"]), "raw_top": c["raw_top"],
                })
        out.append({"board": b["board"], "heading": heading, "lines": lines})
    return out


def team_views(round_: Round, names: dict, organiser: bool) -> dict:
    """A team-duplicate round's matches and travellers as the page shows them:
    ``matches`` (per match the two teams, its tables, IMPs and VPs, once both
    tables finished; a running round's embargoed boards count for organisers
    only) and ``team_travelling`` (per board, per match team A's score at each
    table, the swing and its IMPs; once the round has ended)."""
    matches = []
    for m in team_results.round_matches(round_, organiser):
        vps = m.vps()
        matches.append({
            "number": m.number, "a": names.get(m.a, "🤖"), "b": names.get(m.b, "🤖"),
            "tables": [t.number for t in (m.first, m.second) if t is not None],
            "imps": (m.score.imps_a, m.score.imps_b) if m.score else None, "vps": vps,
        })
    trav = [{"board": b["board"], "rows": [{**row, "a": names.get(row["a"], "🤖"), "b": names.get(row["b"], "🤖")}
                                           for row in b["rows"]]}
            for b in team_results.travelling(round_)]
    return {"matches": matches, "team_travelling": trav}


def stalled(table: EventTable, room, now=None) -> bool:
    """True when a table of a running, unpaused round has not finished and its
    room has not changed (no move, no deal, no seat taken) for longer than
    twice the event's turn limit ("stalled" on the organiser's page)."""
    r = table.round
    if room is None or table.finished or r.status != Round.Status.RUNNING or r.paused:
        return False
    limit = 2 * (r.event.turn_seconds or 30)
    return ((now or timezone.now()) - room.changed).total_seconds() > limit


def in_play_points(table: EventTable, room) -> list:
    """Per entry index, the points won so far in the table's hand in play
    (the game's optional ``points_in_play`` hook on the spectator view; [] for
    a game without it).  Public information only: the view of no seat."""
    hook = getattr(formats.hooks(table.round.event.game), "points_in_play", None)
    if hook is None or room is None:
        return []
    hand = current_hand(room)
    if hand is None or hand.complete:
        return []
    return list(hook(get_rules(room.game).view(hand_state(hand), None)))


def table_view(table: EventTable, names: dict, user=None, scores: bool = True) -> dict:
    """One table: its entries' names, the room, progress and result.
    ``result`` (a finished table) and ``so_far`` (a running one): per side, in
    the order of its entries, that side's figures
    (:func:`clubs.results.labels.result_figures`), shown a side a line.
    ``scores`` False: no "score so far" and no result (a running duplicate round seen by
    anyone but its organisers: another table's score on a board is
    information about that board)."""
    room = table.room
    hands = []
    if room is not None:
        hands = list(
            Hand.objects.filter(match__room=room).order_by("match__number", "number")
            .values("number", "complete", "summary")
        )
    mine = False
    if user is not None and user.is_authenticated and room is not None:
        mine = room.seats.filter(user=user).exists()
    stuck = stalled(table, room)
    return {
        "table": table,
        "names": [names.get(i, "🤖") if i else "🤖" for i in table.entries],
        "room": room,
        "hands_done": sum(1 for h in hands if h["complete"]),
        "hands_dealt": len(hands),
        "mine": mine,
        "stuck": stuck,
        "in_play": in_play_points(table, room) if scores and not table.finished and hands
        and not hands[-1]["complete"] else [],
        "so_far": [] if table.finished or not hands or not scores else [
            result_figures(res) for res in formats.hooks(table.round.event.game).round_result(
                [h["summary"] or {} for h in hands if h["complete"]]
            )
        ],
        "result": [
            result_figures(res) for res in (table.result or {}).get("entries") or []
        ] if scores else [],
        "forfeit": [names.get(i, "?") for i in (table.result or {}).get("forfeit") or []],
        "corrected": (table.result or {}).get("corrected", False),
    }


def event_context(event: Event, user=None) -> dict:
    """Everything the event page and its live fragment show."""
    hooks = formats.hooks(event.game)
    names = entry_names(event)
    manage = bool(user is not None and user.is_authenticated and user.has_perm("clubs.manage_event", event))
    rounds = []
    organiser = sees_running_scores(event, user)
    for r in event.round_set.order_by("number"):
        scores = organiser or not event.has_boards or r.status != Round.Status.RUNNING
        tables = [table_view(t, names, user, scores)
                  for t in r.tables.select_related("room", "round__event").order_by("number")]
        preview = [
            {"number": k, "ids": ids, "names": [names.get(i, "🤖") if i else "🤖" for i in ids]}
            for k, ids in enumerate(r.pairing.get("tables", []), start=1)
        ]
        options = [
            (i, f"T{t['number']}: {names.get(i, '?')}") for t in preview for i in t["ids"] if i
        ] + ([(r.pairing["bye"], f"bye: {names.get(r.pairing['bye'], '?')}")] if r.pairing.get("bye") else [])
        rounds.append({
            "round": r,
            "options": options,
            "tables": tables,
            "preview": preview,
            "bye": names.get(r.pairing.get("bye")),
            "bots": r.pairing.get("bots", 0),
            "bot_table": (r.pairing.get("bot_table") or 0) + 1,
            "repeats": r.pairing.get("repeats", 0),
            "travelling": travelling_view(r, names, hooks),
            **(team_views(r, names, organiser) if event.is_teams else {}),
        })
        if manage:
            for t in tables:
                if t["table"].finished:
                    t["correction"] = CorrectionForm(t["table"], names)
    lines = [
        {"standing": s, "name": names.get(s.entry, "?"),
         "tiebreaks": [(TIEBREAK_LABELS.get(k, k), v) for k, v in s.tiebreaks.items()]}
        for s in standings(event, organiser)
    ]
    my_table = next((t for r in rounds for t in r["tables"] if t["mine"] and not t["table"].finished), None)
    return {
        "event": event,
        "match_event": hooks.SHAPE == "match",
        "entry_size": hooks.ENTRY_SIZE,
        "entries": event.entries.prefetch_related("players__user").order_by("id"),
        "rounds": rounds,
        "standings": lines,
        "corrections": [
            {"row": c, "changes": describe(c, names, event.game)}
            for c in Correction.objects.filter(table__round__event=event).select_related("table__round", "by")
            # a running duplicate round's corrected board scores: organisers only
            if organiser or not event.has_boards or c.table.round.status != Round.Status.RUNNING
        ],
        "score_label": score_label(event),
        "score_percent": event.format == Event.Format.DUPLICATE,
        "my_table": my_table,
        "active_count": event.entries.filter(status=Entry.Status.ACTIVE).count(),
        "event_over": event.status in (Event.Status.FINISHED, Event.Status.CANCELLED),
        "event_log": EventLog.objects.filter(event=event).select_related("by"),
    }
