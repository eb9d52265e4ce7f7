"""Every change to a room goes through this package (one module per concern).

=================  ==========================================================
``errors``         refusals (:class:`ServiceError` …) and :class:`Outcome`
``readmodel``      the hand state rebuilt from the log, cached in-process
``frame``          :func:`locked_room`: lock + version check + save + after
                   commit (the ``room_committed`` signal), used by every command
``rows``           the frame's and a move's writes as plain SQL (Django's field
                   preparation and converters; the ORM when receivers listen)
``deadlines``      turn policy: who acts by itself, when the server acts next
``rooms``          create, sit, leave, ready, bots, 托管, close
``hands``          deal, one decision (:func:`do_move`, the one path of every move), completion (the
                   :data:`games.signals.hand_completed` signal), next deal
``settlement``     what a leaver owes, through the rules' hooks
``turns``          the server's own turns (bots, 托管, C5 timeouts), the overdue rooms
=================  ==========================================================

Callers use the names re-exported here (``services.do_move(…)``).  The
rules come from :func:`games.engine.get_rules` only: nothing here knows a game.
"""

from __future__ import annotations

from ..engine import get_rules
from .deadlines import AUTOPLAY_POLICY, HAND_PAUSE_S, POLICIES, acts_automatically, bot_rng
from .errors import Conflict, Forbidden, IllegalMove, InvalidRequest, Outcome, ServiceError
from .frame import StaleVersion, locked_room
from .roomcache import reset as reset_caches
from .hands import do_move, next_hand, start_hand, user_by_id
from .readmodel import (
    action_count,
    by_seat,
    cache_stats,
    clear_cache,
    completed_hands,
    current_hand,
    current_hand_counted,
    extend_state,
    hand_match,
    hand_state,
)
from .rooms import (
    close_room,
    create_room,
    fill_bots,
    leave_seat,
    rejoin_seat,
    renew_invite,
    room_edited,
    set_autoplay,
    set_ready,
    take_seat,
)
from .settlement import carry_in_after, settle_leaving
from .turns import play_turn

__all__ = [
    "AUTOPLAY_POLICY", "HAND_PAUSE_S", "POLICIES", "acts_automatically", "bot_rng",
    "Conflict", "Forbidden", "IllegalMove", "InvalidRequest", "Outcome", "ServiceError",
    "StaleVersion", "locked_room",
    "do_move", "reset_caches", "next_hand", "start_hand", "user_by_id",
    "action_count", "by_seat", "cache_stats", "clear_cache", "completed_hands", "current_hand",
    "current_hand_counted", "extend_state", "hand_match", "hand_state",
    "close_room", "create_room", "fill_bots", "leave_seat", "rejoin_seat", "renew_invite", "room_edited", "set_autoplay",
    "set_ready",
    "take_seat",
    "carry_in_after", "settle_leaving", "play_turn", "get_rules",
]
