"""The organiser's live page follows the tables: every completed hand of
an event table pushes the event page (``event.changed``), so each table's
"hands done" and "score so far" change as the round runs, without a reload.

:func:`on_hand_completed` is a receiver of :data:`games.signals.hand_completed`
(after the commit), connected by :class:`clubs.apps.ClubsConfig`.
"""

from __future__ import annotations

from ..running import notify
from ..models import EventTable


def on_hand_completed(sender, room_id: int, **kwargs) -> None:
    """Push the event page of the table whose room ``room_id`` completed a
    hand (nothing for other rooms)."""
    event_id = (
        EventTable.objects.filter(room_id=room_id).values_list("round__event_id", flat=True).first()
    )
    if event_id is not None:
        notify.event_changed(event_id)
