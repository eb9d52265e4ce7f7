"""What the games app adds to a profile page (through
:data:`accounts.signals.profile_context`, connected in ``GamesConfig.ready``)."""

from __future__ import annotations

from games.models import Room, Seat


def current_seats(user) -> list[Seat]:
    """Seats the user holds now in rooms that are not closed and not private
    (a profile is public; a private room is listed nowhere, #26), newest
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
    game, #26: ``[{"game", "label", "hands", "accuracy", "recent"}]``)."""
    from games import registry
    from games.services.reviews import average_accuracy

    rows = average_accuracy(user)
    for row in rows:
        try:
            row["label"] = registry.get(row["game"]).label
        except KeyError:
            row["label"] = row["game"]
    return {"current_seats": current_seats(user), "review_accuracy": rows}
