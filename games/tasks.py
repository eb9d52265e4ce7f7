"""Celery tasks: the server's own turns (bots, 托管, timeouts) and the sweep.

Both are idempotent.  ``run_turn(room_id, version)`` does nothing unless the
room is still at ``version`` (it carries the version it was scheduled for);
the service it calls repeats that check under the row lock, so two workers
can never apply the same turn twice.  ``sweep_deadlines`` (Celery beat, or the
in-process sweep thread) runs the turn of every room whose deadline passed,
so a lost task or a restart cannot hang a table.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from . import services
from .engine import get_rules
from .models import HandAction, Room

log = logging.getLogger(__name__)

#: A task may fire this much before the deadline (clock granularity).
EARLY_TOLERANCE = timedelta(milliseconds=50)
#: The sweep leaves a deadline this long to its own timer/task first.
SWEEP_GRACE = timedelta(seconds=1)
SWEEP_BATCH = 500


def _without_seat(action) -> dict:
    record = action.to_record()
    record.pop("seat", None)
    return record


def play_turn(room_id: int, version: int) -> str:
    """Do what is due for room ``room_id`` at ``version``; return what was done.

    - version moved on, room gone or not playing: ``"stale"`` / ``"idle"``;
    - hand complete and the pause is over: deal the next hand (``"dealt"``);
    - seat to act is a bot or on 托管: its policy's move (托管 uses the
      heuristic bot), stored with actor ``bot``/``auto`` (``"bot"``);
    - a human whose time ran out: the C5 auto action (``rules.auto_action``),
      and the seat is switched to 托管 in the same transaction (``"timeout"``);
    - not due yet: rescheduled for the remaining time (``"early"``).
    """
    from . import scheduling

    room = Room.objects.filter(pk=room_id).first()
    if room is None or room.version != version:
        return "stale"
    if room.status != Room.Status.PLAYING or room.deadline is None:
        return "idle"
    now = timezone.now()
    due = room.deadline <= now + EARLY_TOLERANCE
    hand = services.current_hand_counted(room)
    if hand is None or hand.complete:
        if not due:
            scheduling.schedule_turn(room_id, version, (room.deadline - now).total_seconds())
            return "early"
        outcome = services.next_hand(room_id, version)
        return "dealt" if outcome.applied else "stale"
    rules = get_rules(room.game)
    count = hand.n_actions
    state = services.hand_state(hand, count=count)
    seat_index = rules.to_act(state)
    if seat_index is None:
        return "idle"
    seat = room.seats.get(index=seat_index)
    automatic = bool(seat.bot_policy) or seat.autoplay
    if not due:
        scheduling.schedule_turn(room_id, version, (room.deadline - now).total_seconds())
        return "early"
    if automatic:
        policy = seat.bot_policy or services.AUTOPLAY_POLICY
        actor = HandAction.Actor.BOT if seat.bot_policy else HandAction.Actor.AUTO
        action = rules.bot_action(state, seat_index, policy, services.bot_rng(hand, count))
        try:
            outcome = services.do_action(room_id, seat_index, _without_seat(action), version, actor=actor)
        except services.ServiceError as exc:
            # An engine bug must not hang the table: fall back to the C5 move.
            log.error("bot %s move %s refused (%s); using auto_action", policy, action, exc.message)
            outcome = services.do_action(
                room_id, seat_index, _without_seat(rules.auto_action(state, seat_index)), version,
                actor=HandAction.Actor.AUTO,
            )
        return "bot" if outcome.applied else "stale"
    action = rules.auto_action(state, seat_index)
    outcome = services.do_action(
        room_id, seat_index, _without_seat(action), version,
        actor=HandAction.Actor.AUTO, autoplay=True,
    )
    return "timeout" if outcome.applied else "stale"


def sweep() -> int:
    """Run the due turn of every playing room whose deadline passed (more than
    a second ago); returns how many rooms were handled.  In the production
    topology each room is sent to a worker as a ``run_turn`` task."""
    from . import scheduling

    limit = timezone.now() - SWEEP_GRACE
    due = list(
        Room.objects.filter(status=Room.Status.PLAYING, deadline__lte=limit)
        .order_by("deadline")
        .values_list("id", "version")[:SWEEP_BATCH]
    )
    for room_id, version in due:
        if settings.GAMES_INPROCESS_TASKS or getattr(settings, "GAMES_SCHEDULING_DISABLED", False):
            with scheduling.room_lock(room_id):
                try:
                    play_turn(room_id, version)
                except Exception:
                    log.exception("sweep: room %s failed", room_id)
        else:
            run_turn.apply_async(args=(room_id, version))
    return len(due)


@shared_task(name="games.tasks.run_turn", ignore_result=True)
def run_turn(room_id: int, version: int) -> str:
    """Celery entry point of :func:`play_turn` (idempotent by version)."""
    return play_turn(room_id, version)


@shared_task(name="games.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Celery beat entry point of :func:`sweep` (every 2 s, see settings)."""
    return sweep()
