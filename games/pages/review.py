"""The hand review on the replay page: the graph, the flagged decisions
and each seat's accuracy, as plain data for ``templates/games/_review.html``;
and the views to ask for a review.

The graph is an inline SVG (no script, no CDN): x is the decision's place in
the hand (the replay step), y the expected result of the move played for the
seat that made it (the game's unit, from that seat's information); one line
per seat, a marker on every flagged decision linking to its step.  Nothing
here names a game; every card shown is one the replay page shows already,
and :func:`games.embargo.embargo_reason` is asked first.
"""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import embargo, registry
from games.models import Hand, HandReview
from games.render import tables
from games.services import deal_replay, reviews
from games.services.errors import ServiceError

#: The graph's drawing box, in SVG user units; the bottom band holds the
#: x-axis (the tricks' numbers and its title).
WIDTH, HEIGHT, PAD, AXIS = 640, 200, 24, 30
#: The least room between two numbers on the x-axis, in SVG user units.
TICK_GAP = 22
#: One line colour per seat (colour-blind safe palette).
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00")


def verdict_labels() -> dict[str, str]:
    """The translated name of each class of decision."""
    return {"fine": _("好棋"), "inaccuracy": _("不准确"), "mistake": _("失误"),
            "blunder": _("大错"), "forced": _("唯一选择")}


def unit_label(unit: str) -> str:
    """The translated name of a review unit (``games.engine.review.ReviewUnit.name``)."""
    return {"game points": _("分"), "levels": _("级")}.get(unit, unit)


def _graph(decisions: list[dict], total: int, seats: int, ticks=()) -> dict:
    """The SVG's data: x the decision's step in the hand's log (0 .. ``total``
    actions), y its expected result; ``ticks`` (``[{"step", "label"}]``, the
    replay's trick marks) become the x-axis' numbers, thinned so that two
    stay at least :data:`TICK_GAP` apart."""
    points = [d for d in decisions if d["verdict"] != "forced"]
    if not points:
        return {}
    ys = [d["expected"] for d in points]
    lo, hi = min(ys + [0.0]), max(ys + [0.0])
    if hi - lo < 1e-9:
        hi = lo + 1.0
    span_x = max(total, max(d["index"] for d in decisions) + 1, 1)
    bottom = HEIGHT - AXIS  # the plot's lowest y; the axis band below it

    def x(i):
        return round(PAD + (WIDTH - 2 * PAD) * i / span_x, 1)

    def y(v):
        return round(bottom - (bottom - PAD) * (v - lo) / (hi - lo), 1)

    axis, last = [], None
    for t in ticks:
        tx = x(t["step"])
        if last is None or tx - last >= TICK_GAP:
            axis.append({"x": tx, "label": t["label"]})
            last = tx

    lines = []
    for s in range(seats):
        mine = [d for d in points if d["seat"] == s]
        if mine:
            lines.append({"seat": s, "colour": COLOURS[s % len(COLOURS)], "points": " ".join(f"{x(d['index'])},{y(d['expected'])}"
                                                           for d in mine)})
    marks = [{"x": x(d["index"]), "y": y(d["expected"]), "step": d["index"], "seat": d["seat"],
              "verdict": d["verdict"]} for d in points if d["verdict"] not in ("fine", "forced")]
    return {"width": WIDTH, "height": HEIGHT, "lines": lines, "marks": marks,
            "zero": y(0.0), "lo": round(lo, 2), "hi": round(hi, 2), "left": PAD,
            "right": WIDTH - PAD, "bottom": bottom, "ticks": axis, "tick_y": bottom + 13,
            "title_y": HEIGHT - 3, "middle": WIDTH // 2}


def group_repeats(flagged: list[dict]) -> list[dict]:
    """The flagged decisions as the page lists them: a decision whose seat,
    verdict and better move are those of an earlier one is the same mistake
    again (a seat passing on the king it should play, trick after trick), so
    it is not listed on its own but under the first, in its ``"repeats"``
    (``[{"index", "loss"}]``, in order).  Every decision keeps its link (the
    page's and the graph's), so none is lost; only the list is shorter.

    >>> first = {"index": 3, "seat": 0, "verdict": "blunder", "best": {"seat": 0, "play": ["KC"]}, "loss": 2.0}
    >>> again = {**first, "index": 7, "loss": 2.5}
    >>> other = {**first, "index": 9, "seat": 1}
    >>> [(d["index"], [r["index"] for r in d["repeats"]]) for d in group_repeats([first, again, other])]
    [(3, [7]), (9, [])]
    """
    out: list[dict] = []
    first: dict[tuple, dict] = {}
    for d in flagged:
        key = (d["seat"], d["verdict"], json.dumps(d["best"], sort_keys=True))
        if key in first:
            first[key]["repeats"].append({"index": d["index"], "loss": d["loss"]})
            continue
        first[key] = {**d, "repeats": []}
        out.append(first[key])
    return out


def review_context(hand: Hand, user, step: int, names: list[str], ticks=(), total_steps: int = 0) -> dict:
    """``{"review": {...}}`` for the replay page of ``hand`` at ``step``:
    ``state`` (``"embargoed"``, ``"none"``, ``"pending"``, ``"failed"``,
    ``"done"``), and when done the graph, the seats' figures, the flagged
    decisions and the decision taken at this step (with the better move)."""
    review, reason = reviews.review_for(hand, user)
    if reason:
        return {"review": {"state": "embargoed", "reason": reason}}
    again = {"compare": deal_replay.comparison(hand),
             "replays": deal_replay.replays_of(hand, user),
             "seat_choices": [{"index": i, "name": names[i] if i < len(names) else str(i + 1)}
                              for i in range(len(hand.players or []))],
             "voided": bool((hand.summary or {}).get("voided"))}
    if review is None and not reviews.reviewable(hand.match.room.game):
        return {"review": {"state": "unavailable"}, "again": again}
    if review is None:
        return {"review": {"state": "none"}, "again": again}
    if review.status != HandReview.Status.DONE:
        return {"review": {"state": review.status}, "again": again}
    spec = registry.get(hand.match.room.game)
    data = review.data
    labels = verdict_labels()
    decisions = data["decisions"]
    total = len(decisions)

    def name(seat):
        return names[seat] if seat < len(names) else str(seat + 1)

    def entry(d):
        return {**d, "name": name(d["seat"]), "label": labels[d["verdict"]],
                "played_move": tables.describe_action(d["played"], spec),
                "best_move": tables.describe_action(d["best"], spec),
                "differs": d["best"] != d["played"]}

    flagged = group_repeats([entry(d) for d in decisions if d["verdict"] not in ("fine", "forced")])
    current = next((entry(d) for d in decisions if d["index"] == step), None)
    seats = [{**s, "name": name(s["seat"]), "colour": COLOURS[s["seat"] % len(COLOURS)]}
             for s in data["seats"]]
    return {"review": {
        "state": "done", "unit": unit_label(data["unit"]), "thresholds": data["thresholds"],
        "graph": _graph(decisions, max(total, total_steps), spec.seats, ticks), "seats": seats, "flagged": flagged,
        "current": current, "cpu_ms": data.get("cpu_ms"), "labels": labels,
    }, "again": again}


@login_required
@require_POST
def request_review(request, hand_id: int):
    """Ask for a completed hand's review (on demand, from the replay page);
    refused (403) while an embargo hides the hand."""
    hand = get_object_or_404(Hand.objects.select_related("match__room"), pk=hand_id)
    if not hand.complete:
        raise Http404("hand in play")
    reason = embargo.embargo_reason(hand, request.user)
    if reason:
        raise PermissionDenied(reason)  # templates/403.html prints it escaped
    if not reviews.reviewable(hand.match.room.game):
        raise Http404("no reviewer for this game")
    reviews.request_review(hand)
    return redirect(reverse("hand_replay", args=[hand.pk]))


@login_required
@require_POST
def play_again(request, hand_id: int):
    """"Play this deal again" at the seat posted (``seat``): a new room with
    the same deal and start, bots at the other seats; refused (403) while an
    embargo hides the hand."""
    hand = get_object_or_404(Hand.objects.select_related("match__room"), pk=hand_id)
    if not hand.complete:
        raise Http404("hand in play")
    reason = embargo.embargo_reason(hand, request.user)
    if reason:
        raise PermissionDenied(reason)  # templates/403.html prints it escaped
    try:
        seat = int(request.POST.get("seat", ""))
    except ValueError:
        seat = -1
    try:
        room = deal_replay.start(hand, request.user, seat)
    except ServiceError as exc:
        return render(request, "400.html", {"reason": str(exc)}, status=400)
    return redirect(reverse("room", args=[room.pk]))
