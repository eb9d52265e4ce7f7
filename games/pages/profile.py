"""What the games app adds to a profile page (through
:data:`accounts.signals.profile_context`, connected in ``GamesConfig.ready``)."""

from __future__ import annotations

from games.models import Room, Seat
from games import registry
from games.services.reviews import ACCURACY_WEEKS, average_accuracy


def current_seats(user) -> list[Seat]:
    """Seats the user holds now in rooms that are not closed and not private
    (a profile is public; a private room is listed nowhere), newest
    room first (at most 10), rooms joined."""
    return list(
        Seat.objects.filter(user=user, room__private=False)
        .exclude(room__status=Room.Status.CLOSED)
        .select_related("room")
        .order_by("-room__created")[:10]
    )


def seats_for_profile(sender, user, **kwargs) -> dict:
    """Receiver of ``profile_context``: ``{"current_seats": [...],
    "review_accuracy": [...]}`` (the hand reviews' average accuracy per
    game, ``[{"game", "label", "hands", "accuracy", "recent", "weeks",
    "spark"}]``: ``spark`` is :func:`accuracy_spark` of the weekly means)."""

    rows = average_accuracy(user)
    for row in rows:
        try:
            row["label"] = registry.get(row["game"]).label
        except KeyError:
            row["label"] = row["game"]
        row["spark"] = accuracy_spark(row["weeks"])
    return {"current_seats": current_seats(user), "review_accuracy": rows}


#: The weekly accuracy sparkline's size (SVG user units = CSS px) and inner margin.
SPARK_W, SPARK_H, SPARK_PAD = 132, 30, 3


def accuracy_spark(weeks: list[dict]) -> dict | None:
    """Geometry of the profile's weekly accuracy line (over time):
    ``{"width", "height", "points": "x,y …", "dots": [{"x", "y", "week",
    "accuracy", "hands"}]}`` with x by weeks ago (the oldest of
    ``services.reviews.ACCURACY_WEEKS`` weeks at the left, this week
    at the right, so a week without a reviewed hand leaves its gap) and y
    from accuracy 100 (top) to 0 (bottom); None without any week."""

    if not weeks:
        return None
    span = ACCURACY_WEEKS
    inner_w, inner_h = SPARK_W - 2 * SPARK_PAD, SPARK_H - 2 * SPARK_PAD
    dots = []
    for w in weeks:
        x = SPARK_PAD + inner_w * (span - 1 - w["ago"]) / max(span - 1, 1)
        y = SPARK_PAD + inner_h * (100.0 - w["accuracy"]) / 100.0
        dots.append({"x": round(x, 1), "y": round(y, 1), "week": w["week"],
                     "accuracy": w["accuracy"], "hands": w["hands"]})
    return {"width": SPARK_W, "height": SPARK_H,
            "points": " ".join(f"{d['x']},{d['y']}" for d in dots), "dots": dots}
