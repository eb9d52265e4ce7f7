"""Tell a player's queue pages that his queue state changed (after a commit).

The message is only ``{"type": "queue.changed"}`` to the group
``quickplay.user.<id>``; each connection renders its own user's status."""

from __future__ import annotations

from games.live.notify import send


def group(user_id: int) -> str:
    """The channel group of ``user_id``'s queue pages."""
    return f"quickplay.user.{user_id}"


def queue_changed(user_ids) -> None:
    """Send ``queue.changed`` to each user's group (a failure is logged; the
    page also re-reads its state on every ping)."""
    groups = [group(u) for u in user_ids]
    if groups:
        send(groups, {"type": "queue.changed"}, what=f"queue of users {list(user_ids)}")
