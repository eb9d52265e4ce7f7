"""Telling event pages that an event changed (pairing, seats, results).

The channel layer carries only ``{"type": "event.changed"}`` to the group
``event-<id>``; each connection renders the event's live fragment itself
(:mod:`clubs.live.consumers`).  Sent after the commit, through
:func:`games.live.notify.send` (which works from any thread or loop).
"""

from __future__ import annotations

from django.db import transaction

from games.live import notify as game_notify


def event_group(event_id: int) -> str:
    return f"event-{event_id}"


def event_changed(event_id: int) -> None:
    """After the current transaction commits: ``event.changed`` to the event's group."""

    def send():
        game_notify.send([event_group(event_id)], {"type": "event.changed"}, what=f"event {event_id}")

    transaction.on_commit(send)
