""""Play this deal again": a private room with a finished hand's deal.

The room is always private (:mod:`games.private_rooms`): unlisted, opened
only by its players; the player may invite friends to the bots' seats while
it waits, with its invite link.

:func:`start` makes a room of the same game, multiplier and options, seats
the player at the seat they chose, fills the other seats with ``search``
bots and deals the *same* hand: the planner below gives the room the source
hand's seed and start (:class:`games.services.dealing.DealPlan`: levels, dealer,
tribute carried in), as a duplicate board does.  The room deals that one hand
only and scores nothing (the player has seen the cards: no ledger credit, no
rating).  :func:`comparison` puts the two results side by side.

Nothing here names a game.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from games.models import DealReplay, Hand, Room
from . import dealing

from . import rooms as room_services
from .errors import InvalidRequest

#: The bots of the other seats.
BOT_POLICY = "search"


class ReplayPlanner:
    """The :mod:`games.services.dealing` planner of deal-replay rooms."""

    def _replay(self, room):
        try:
            return room.deal_replay
        except DealReplay.DoesNotExist:
            return None

    def may_deal(self, room):
        replay = self._replay(room)
        if replay is None:
            return None
        if Hand.objects.filter(match__room=room).exists():
            return False  # one deal only
        return None

    def plan(self, room):
        replay = self._replay(room)
        if replay is None:
            return None
        src = replay.source
        return dealing.DealPlan(seed=src.seed, start=src.start)

    def scored(self, room):
        return False if self._replay(room) is not None else None


PLANNER = ReplayPlanner()


def start(hand: Hand, user, seat: int) -> Room:
    """A new room where ``user`` plays ``hand``'s deal again at ``seat``
    (bots elsewhere), dealt at once.  Raises :class:`InvalidRequest` for a
    hand not complete or a seat out of range, :class:`Conflict` when the
    user owns too many open rooms."""
    if not hand.complete or (hand.summary or {}).get("voided"):
        raise InvalidRequest(_("只能重打已经结束的牌局"))
    src_room = hand.match.room
    seats = len(hand.players or [])
    if not 0 <= seat < seats:
        raise InvalidRequest(_("没有这个座位"))
    with transaction.atomic():
        room = room_services.create_room(
            user, src_room.game, _("重打：第 %(n)d 局") % {"n": hand.number},
            multiplier=src_room.multiplier, turn_seconds=src_room.turn_seconds,
            bot_delay_ms=src_room.bot_delay_ms, options=src_room.options, take_seat=False,
            max_open_rooms=getattr(settings, "GAMES_MAX_OPEN_ROOMS", None), private=True)
        DealReplay.objects.create(room=room, source=hand, user=user, seat=seat)
        room_services.take_seat(room, user, seat)
        room_services.fill_bots(room, user, BOT_POLICY)
        room_services.set_ready(room, user, True)
    room.refresh_from_db()
    return room


def comparison(hand: Hand) -> dict | None:
    """For a hand of a deal-replay room: ``{"source": source hand id, "seat",
    "then": the seat's game points in the source hand, "now": in this one}``
    (None for other hands, or before this one is complete)."""
    try:
        replay = hand.match.room.deal_replay
    except DealReplay.DoesNotExist:
        return None
    if not hand.complete:
        return None
    seat = str(replay.seat)
    then = (replay.source.summary or {}).get("game_points", {}).get(seat)
    now = (hand.summary or {}).get("game_points", {}).get(seat)
    return {"source": replay.source_id, "seat": replay.seat, "then": then, "now": now}


def replays_of(hand: Hand, user) -> list[dict]:
    """``user``'s replays of ``hand``: ``[{"room", "seat", "hand", "now"}]``
    (``hand``/``now`` None until played), newest first."""
    out = []
    for r in DealReplay.objects.filter(source=hand, user=user).order_by("-created")[:10]:
        h = Hand.objects.filter(match__room_id=r.room_id, complete=True).first()
        now = (h.summary or {}).get("game_points", {}).get(str(r.seat)) if h else None
        out.append({"room": r.room_id, "seat": r.seat, "hand": h.pk if h else None, "now": now})
    return out
