"""``my_event_tables``: the signed-in user's seats at running event tables, for
the "go to your table" banner every page shows (templates/clubs/_my_tables.html)."""

from __future__ import annotations

from .models import EventTable, Round


def my_event_tables(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    tables = list(
        EventTable.objects.filter(
            round__status=Round.Status.RUNNING, finished__isnull=True, room__seats__user=user
        ).select_related("round__event", "room")[:3]
    )
    return {"my_event_tables": tables}
