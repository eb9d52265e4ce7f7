"""The server's own turns: bots, 托管, C5 timeouts and the next deal.

:func:`play_turn` is what runs when a room's deadline comes: the turn runner
(:mod:`games.runtime.runner`, in the Celery workers or in the embedded
process) claims the due room and calls it.  It is idempotent: it does
nothing unless the room is still at the version it was claimed at, and
the command it calls repeats that check under the row lock, so two runners
can never apply the same turn twice.  A turn that comes early says so with
the ``turn_due`` signal, and the runner claims it again then.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.utils import timezone

from games import signals
from ..engine import get_rules
from ..engine.base import bot_decision
from ..models import HandAction, Room
from .prepared import Prepared
from .deadlines import AUTOPLAY_POLICY, acts_automatically, bot_rng, search_config, seats_of
from .errors import ServiceError
from .hands import do_move, next_hand, user_by_id
from .readmodel import current_hand_counted, hand_state
from . import turncache
from . import hidden

log = logging.getLogger(__name__)

#: The room a due turn is for (compiled once per thread).
_ROOM = Prepared("room of a turn", lambda room_id: Room.objects.filter(pk=room_id))

#: A task may fire this much before the deadline (clock granularity).
EARLY_TOLERANCE = timedelta(milliseconds=50)


#: The pacing clock and sleep of :func:`paced_decision` (tests replace them).
_clock = time.monotonic
_sleep = time.sleep


def paced_decision(rules, state, seat_index: int, policy: str, rng, config):
    """The bot's move (:func:`games.engine.base.bot_decision`), answered after
    the same time whatever the position.

    A search bot (高手) returns a forced move (one candidate) at once and
    a considered one after its budget (``config.budget_ms``), so the moment its
    move arrived told the other players whether it had a choice: hidden
    information about its hand.  Here a search decision that took less than
    the budget waits out the rest before the move is stored, so every search
    move lands about ``budget_ms`` after the turn's deadline.  (Under load a
    considered move may still overrun the budget by some milliseconds; the
    other policies answer in a few milliseconds whatever the position.)
    Nothing is locked while it waits."""
    started = _clock()
    action = bot_decision(rules, state, seat_index, policy, rng, config)
    if policy == "search":
        rest = config.budget_ms / 1000.0 - (_clock() - started)
        if rest > 0:
            _sleep(rest)
    return action


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

    When this process's own previous move of the room left it at ``version``,
    the room, hand and seats it kept are used instead of three reads
    (:mod:`games.services.turncache`); the version check under the lock
    decides as always.
    """
    kept = turncache.take(room_id, version)
    if kept is not None:  # this process's own last move of the room, at this version
        room, hand, seats = kept
    else:
        # One read for the room and its hand: the hand's query joins the
        # room (select_related), so the room at ``version`` comes with it.
        hand = current_hand_counted(room_id)
        room = hand.match.room if hand is not None else _ROOM.first(room_id)
        if room is None or room.version != version:
            return "stale"
    if room.status != Room.Status.PLAYING or room.deadline is None:
        return "idle"
    now = timezone.now()
    due = room.deadline <= now + EARLY_TOLERANCE
    if hand is None or hand.complete:
        if not due:
            signals.turn_due.send(sender=room.game, room_id=room_id, version=version,
                                  delay_s=(room.deadline - now).total_seconds())
            return "early"
        outcome = next_hand(room_id, version)
        return "dealt" if outcome.applied else "stale"
    rules = get_rules(room.game)
    count = hand.n_actions
    state = hand_state(hand, count=count)
    seat_index = rules.to_act(state)
    if seat_index is None:
        return "idle"
    if kept is None:
        seats = seats_of(room)  # read after the room at ``version``: see do_move(known=…)
    seat = seats[seat_index]
    known = (hand, seats)
    if not due:
        signals.turn_due.send(sender=room.game, room_id=room_id, version=version,
                              delay_s=(room.deadline - now).total_seconds())
        return "early"
    secret = hidden.is_hidden(rules, state)
    if secret:
        # (never from a kept entry: a move leading into a decision that may be
        # held is not kept, see do_move; the room just read holds Room.pending)

        pending = hidden.pending_for(room, hand, count, seat_index)
        if pending is not None:
            # A human's hidden choice, made earlier, takes effect now.
            action = dict(pending["action"])
            action.pop("seat", None)
            outcome = do_move(room_id, seat_index, action, version, actor=HandAction.Actor.USER,
                                user=user_by_id(pending.get("user")), hold_hidden=False,
                                known=known)
            return "held" if outcome.applied else "stale"
    if acts_automatically(seat):
        policy = seat.bot_policy or AUTOPLAY_POLICY
        actor = HandAction.Actor.BOT if seat.bot_policy else HandAction.Actor.AUTO
        action = paced_decision(rules, state, seat_index, policy, bot_rng(hand, count), search_config())
        try:
            outcome = do_move(room_id, seat_index, _without_seat(action), version, actor=actor,
                                known=known)
        except ServiceError as exc:
            # An engine bug must not hang the table: fall back to the C5 move.
            log.error("bot %s move %s refused (%s); using auto_action", policy, action, exc.message)
            outcome = do_move(
                room_id, seat_index, _without_seat(rules.auto_action(state, seat_index)), version,
                actor=HandAction.Actor.AUTO,
            )
        return "bot" if outcome.applied else "stale"
    action = rules.auto_action(state, seat_index)
    outcome = do_move(
        room_id, seat_index, _without_seat(action), version,
        # A timeout switches the seat to 托管 (C5), except in a hidden
        # decision: the 托管 tag would show everyone who held it.
        actor=HandAction.Actor.AUTO, autoplay=None if secret else True, known=known,
    )
    return "timeout" if outcome.applied else "stale"


