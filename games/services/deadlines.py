"""Turn policy shared by the commands and the server's turns: who acts by
itself (bots, 托管) and when the server acts next (``Room.deadline``, C5)."""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from . import dealing
from ..models import Hand, Room, Seat
from .prepared import Prepared
from . import hidden
from ..engine.search import SearchConfig

#: Seconds between the end of a hand and the deal of the next (result panel).
HAND_PAUSE_S = float(getattr(settings, "GAMES_HAND_PAUSE_S", 6.0))
#: Policy used for a human seat on auto-play (托管, C5).
AUTOPLAY_POLICY = "heuristic"
#: Bot policies an owner may seat (every engine's ``bot_action`` knows them).
POLICIES = ("random", "heuristic", "search")
#: The bot that fills empty seats unless the owner picks another: the strong
#: search level (高手), since it beats the heuristic by a clear margin in both games (docs/bots.md).
FILL_POLICY = "search"


def search_config():
    """The :class:`~games.engine.search.SearchConfig` of the site's search bots:
    ``settings.GAMES_SEARCH_BUDGET_MS`` (default 300) per decision."""

    return SearchConfig(budget_ms=float(getattr(settings, "GAMES_SEARCH_BUDGET_MS", 300.0)))


#: A room's seats in index order with their users (compiled once per thread).
_SEATS = Prepared(
    "seats of a room",
    lambda room_id: Seat.objects.filter(room_id=room_id).select_related("user").order_by("index"),
)


def seats_of(room: Room) -> list[Seat]:
    """The room's seats in index order, users joined, each seat's ``room``
    being ``room`` itself (one query)."""
    seats = _SEATS.objects(room.pk)
    for seat in seats:
        seat.room = room
    return seats


def acts_automatically(seat: Seat) -> bool:
    """A bot's seat, or a human's on 托管 (C5): the server decides for it."""
    return bool(seat.bot_policy) or seat.autoplay


def set_deadline(room: Room, rules, state, seats: list[Seat]) -> None:
    """Deadline for the seat to act: bot delay for bots and 托管 seats, the
    room's time limit (C5) for a human, None when nobody is to act.  The
    caller saves ``room``."""

    now = timezone.now()
    seat_index = rules.to_act(state)
    if seat_index is None:
        room.deadline = None
    elif hidden.uniform(rules, state, seats):
        # Whoever holds a hidden decision: the same window (games.services.hidden).
        room.deadline = now + timedelta(seconds=hidden.window_s(room))
    elif acts_automatically(seats[seat_index]):
        room.deadline = now + timedelta(milliseconds=room.bot_delay_ms)
    else:
        room.deadline = now + timedelta(seconds=dealing.turn_seconds(room, seat_index))


def set_pause(room: Room) -> None:
    """Deadline after a completed hand: the next deal after the result pause."""
    room.deadline = timezone.now() + timedelta(seconds=HAND_PAUSE_S)


def can_start(room: Room, seats: list[Seat]) -> bool:
    """Every seat filled, every human ready, at least one human, room open (a
    planner, :mod:`games.services.dealing`, may allow a table of bots or stop the
    dealing; where it says deal, a human on 托管 counts as ready: an event
    table deals through its round)."""
    if room.status == Room.Status.CLOSED or any(s.is_empty for s in seats):
        return False
    unready = [s for s in seats if s.user_id and not s.ready]
    if unready and not all(s.autoplay for s in unready):
        return False
    verdict = dealing.may_deal(room)
    if verdict is False:
        return False
    if unready and verdict is not True:
        return False  # a 托管 seat counts as ready only where a planner keeps dealing
    return verdict is True or any(s.user_id for s in seats)


def bot_rng(hand: Hand, count: int) -> random.Random:
    """The random source of a bot's decision: a pure function of the hand's
    seed and the action count, so a hand can be reproduced exactly."""
    return random.Random(hand.seed * 1009 + count)
