"""Rooms and seats: create, sit, leave, ready, bots, 托管, close.

Every command but :func:`create_room` runs in
:func:`~games.services.frame.locked_room` and returns an
:class:`~games.services.errors.Outcome` (``applied`` False: stale version).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.validators import text_problem

from . import hidden, room_options
from games import private_rooms, seating, signals
from ..engine import get_rules
from ..engine.base import RecordError
from ..models import Room, RoomMultiplier, Seat
from .deadlines import AUTOPLAY_POLICY, FILL_POLICY, POLICIES, seats_of, set_deadline
from .errors import Conflict, Forbidden, InvalidRequest, Outcome
from .frame import after_commit, locked_room, versioned
from .hands import maybe_start
from .readmodel import current_hand, hand_state, room_id
from .settlement import settle_leaving


def _user_seat(room: Room, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return room.seats.filter(user=user).first()


def _require_user_seat(room: Room, user) -> Seat:
    """``user``'s seat at ``room``; :class:`Conflict` if not seated there."""
    seat = _user_seat(room, user)
    if seat is None:
        raise Conflict(_("你没有坐在这张桌上"))
    return seat


def create_room(
    owner,
    game: str,
    name: str,
    multiplier: int | None = None,
    turn_seconds: int = 30,
    bot_delay_ms: int = 800,
    options: dict | None = None,
    take_seat: bool = True,
    max_open_rooms: int | None = None,
    private: bool = False,
) -> Room:
    """Create a room with its empty seats; the owner sits at seat 0 unless
    ``take_seat`` is false.  ``private`` (:mod:`games.private_rooms`):
    the room is not listed, only its seated players open it, others sit
    down through its invite link.

    ``multiplier`` must be one of the admin-managed :class:`RoomMultiplier`
    values (None: the default, C4); ``options`` are checked against the
    game's schema (:mod:`games.services.room_options`: known keys, flat values) and by
    the engine's ``new_match``.  ``max_open_rooms``: refuse (:class:`Conflict`)
    when the owner already owns that many rooms not closed (the
    create-room page passes ``settings.GAMES_MAX_OPEN_ROOMS``).  ``name`` is
    cut to the column's 60 characters (the default, "<owner> 的房间", too:
    a long username made it longer).  Raises :class:`InvalidRequest`
    (also for a name holding NUL or a lone surrogate).
    """
    try:
        rules = get_rules(game)
    except KeyError:
        raise InvalidRequest(_("未知的游戏")) from None
    try:
        options = room_options.validate(game, options)
    except room_options.OptionsError as exc:
        raise InvalidRequest(str(exc)) from None
    if max_open_rooms is not None:
        owned = Room.objects.filter(owner=owner).exclude(status=Room.Status.CLOSED).count()
        if owned >= max_open_rooms:
            raise Conflict(
                _("你已经开了 %(n)d 个房间；请先关闭不用的房间再开新房间") % {"n": owned}
            )
    allowed = set(RoomMultiplier.objects.values_list("value", flat=True))
    if multiplier is None:
        multiplier = RoomMultiplier.default_value()
    if multiplier not in allowed:
        raise InvalidRequest(_("不允许的房间倍数"))
    if not 5 <= int(turn_seconds) <= 600:
        raise InvalidRequest(_("每步时限须在 5 到 600 秒之间"))
    if not 0 <= int(bot_delay_ms) <= 10000:
        raise InvalidRequest(_("机器人延迟须在 0 到 10000 毫秒之间"))
    options = dict(options or {})
    options.pop("multiplier", None)
    try:
        rules.new_match({**rules.default_options(), **options, "multiplier": multiplier})
    except (RecordError, ValueError, TypeError) as exc:
        raise InvalidRequest(_("选项无效：%(err)s") % {"err": exc}) from None
    problem = text_problem(name or "")
    if problem:  # NUL or a lone surrogate: not storable
        raise InvalidRequest(problem)
    limit = Room._meta.get_field("name").max_length
    name = ((name or "").strip() or _("%(user)s 的房间") % {"user": owner.get_username()})[:limit]
    with transaction.atomic():
        room = Room.objects.create(
            game=game,
            name=name,
            owner=owner,
            multiplier=multiplier,
            turn_seconds=turn_seconds,
            bot_delay_ms=bot_delay_ms,
            options=options,
            version=1,
            private=bool(private),
        )
        Seat.objects.bulk_create(
            [
                Seat(room=room, index=i, user=owner if (take_seat and i == 0) else None)
                for i in range(rules.seats)
            ]
        )
        after_commit(room, lobby=not room.private)  # a private room is in no lobby
    return room


def renew_invite(room_id: int, user) -> Room:
    """A new invite link for the private room ``room_id``: bumps
    ``Room.invite_key`` under the room's row lock, so the old link's token
    no longer seats anyone (:func:`games.private_rooms.valid_invite`).
    Returns the room as saved.  Raises :class:`Forbidden` for anyone but the
    room's owner, :class:`InvalidRequest` for a room that is not private or
    is closed.  No version bump: the table does not change."""
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room_id)
        if user.pk != room.owner_id:
            raise Forbidden(_("只有房主可以更换邀请链接"))
        if not room.private or room.status == Room.Status.CLOSED:
            raise InvalidRequest(_("这个房间没有邀请链接"))
        room.invite_key += 1
        room.save(update_fields=["invite_key"])
    return room


@versioned
def take_seat(
    room: Room | int, user, index: int, expected_version: int | None = None, invite: str | None = None
) -> Outcome:
    """Seat ``user`` at seat ``index`` (an empty seat, or a bot's while the
    room is waiting: the human replaces the bot; or, during the match, the
    bot's seat the user was dealt into before leaving: the user takes it
    back).  Raises :class:`Conflict`
    when the seat is taken, the user already sits at this table, or the room
    is closed; :class:`InvalidRequest` for a seat number out of range;
    :class:`Forbidden` when a seat rule refuses (:mod:`games.seating`) or the
    room is private and ``invite`` is not its invite token (its owner needs
    none; :func:`games.private_rooms.seat_refusal`)."""
    rid = room_id(room)
    with locked_room(rid, expected_version, lobby=True) as room:
        if room.status == Room.Status.CLOSED:
            raise Conflict(_("房间已关闭"))
        seats = seats_of(room)
        if not isinstance(index, int) or not 0 <= index < len(seats):
            raise InvalidRequest(_("没有这个座位"))
        if any(s.user_id == user.pk for s in seats):
            raise Conflict(_("你已经坐在这张桌上"))
        refusal = private_rooms.seat_refusal(room, user, invite) or seating.seat_refusal(room, user, index)
        if refusal:
            raise Forbidden(refusal)
        seat = seats[index]
        replaces_bot = seat.is_bot and (
            room.status == Room.Status.WAITING or _was_dealt(room, seat, user)
        )
        if not seat.is_empty and not replaces_bot:
            if all(not s.is_empty for s in seats):
                raise Conflict(_("房间已满"))
            raise Conflict(_("这个座位已经有人"))
        seat.bot_policy = None
        seat.user = user
        seat.ready = room.status == Room.Status.PLAYING  # taken back mid-match: plays on
        seat.autoplay = False
        seat.save(update_fields=["user", "bot_policy", "ready", "autoplay"])
        hand = current_hand(room) if room.status == Room.Status.PLAYING else None
        if hand is not None and not hand.complete:
            rules = get_rules(room.game)
            state = hand_state(hand)
            if rules.to_act(state) == seat.index:
                # the bot's pace no longer applies to this seat: the player's own time limit
                set_deadline(room, rules, state, seats_of(room))
        return Outcome(True, room.version)


def _was_dealt(room: Room, seat: Seat, user) -> bool:
    """True when ``user`` was dealt into ``seat`` in the room's latest hand
    (the seat a player who left may take back from the bot while the room
    plays)."""
    if room.status != Room.Status.PLAYING:
        return False
    hand = current_hand(room)
    players = (hand.players or []) if hand is not None else []
    return seat.index < len(players) and players[seat.index].get("user") == user.pk


def rejoin_seat(room: Room, seats, hand, user) -> int | None:
    """The seat index ``user`` may take back from a bot (they were dealt into
    it in ``hand``, the room's latest, and left), else None.  No query."""
    if user is None or not user.is_authenticated or room.status != Room.Status.PLAYING or hand is None:
        return None
    if any(s.user_id == user.pk for s in seats):
        return None
    players = hand.players or []
    for seat in seats:
        if seat.is_bot and seat.index < len(players) and players[seat.index].get("user") == user.pk:
            return seat.index
    return None


@versioned
def leave_seat(room: Room | int, user, expected_version: int | None = None) -> Outcome:
    """``user`` leaves the table.  During a hand in play the seat is handed to
    the heuristic bot so the hand can finish (the user still gets the hand's
    game points, credited to the players dealt in); otherwise it is emptied.

    With a debt still owed at the table (next hand not dealt, or dealt
    and its carry-in still unpaid) the leaver's shares are settled in game
    points and the debt lapses for the table
    (:func:`~games.services.settlement.settle_leaving`).  Then
    :data:`games.signals.seat_left` goes out in the same transaction."""
    rid = room_id(room)
    with locked_room(rid, expected_version, lobby=True) as room:
        seat = _require_user_seat(room, user)
        hand = current_hand(room)
        settle_leaving(room, hand, seats_of(room), seat)
        if room.status == Room.Status.PLAYING and hand is not None and not hand.complete:
            seat.user = None
            seat.bot_policy = AUTOPLAY_POLICY
            seat.ready = True
        else:
            seat.user = None
            seat.ready = False
        seat.autoplay = False
        seat.save(update_fields=["user", "bot_policy", "ready", "autoplay"])
        if hand is not None and not hand.complete:
            rules = get_rules(room.game)
            set_deadline(room, rules, hand_state(hand), seats_of(room))
        signals.send_seat_left(room, user, hand)  # e.g. reputation, in this transaction
        return Outcome(True, room.version)


@versioned
def set_ready(room: Room | int, user, ready: bool = True, expected_version: int | None = None) -> Outcome:
    """Mark ``user``'s seat ready (or not).  When every seat is filled and every
    human is ready, the first hand is dealt in the same transaction."""
    rid = room_id(room)
    with locked_room(rid, expected_version) as room:
        seat = _require_user_seat(room, user)
        seat.ready = bool(ready)
        seat.save(update_fields=["ready"])
        maybe_start(room)
        return Outcome(True, room.version)


@versioned
def fill_bots(room: Room | int, user, policy: str = FILL_POLICY,
              expected_version: int | None = None, seat_policies: dict[int, str] | None = None) -> Outcome:
    """The owner fills every empty seat with a bot of ``policy`` ("random",
    "heuristic" or "search", the Monte Carlo 高手, at
    ``settings.GAMES_SEARCH_BUDGET_MS`` per decision; default
    :data:`~.deadlines.FILL_POLICY`, the strong level), or of
    ``seat_policies[index]`` for the seats it names (an event's bot entries of
    different strengths); deals if everyone is then ready.  Raises
    :class:`InvalidRequest` for an unknown policy, :class:`Forbidden` for
    anyone but the owner, :class:`Conflict` when no seat is empty."""
    seat_policies = seat_policies or {}
    if policy not in POLICIES or any(p not in POLICIES for p in seat_policies.values()):
        raise InvalidRequest(_("未知的机器人类型"))
    rid = room_id(room)
    with locked_room(rid, expected_version, lobby=True) as room:
        if room.owner_id != user.pk:
            raise Forbidden(_("只有房主可以添加机器人"))
        if room.status == Room.Status.CLOSED:
            raise Conflict(_("房间已关闭"))
        empty = room.seats.filter(user__isnull=True, bot_policy__isnull=True)
        if not empty.exists():
            raise Conflict(_("没有空座位"))
        for index, own in seat_policies.items():
            empty.filter(index=index).update(bot_policy=own, ready=True, autoplay=False)
        empty.update(bot_policy=policy, ready=True, autoplay=False)
        maybe_start(room)
        return Outcome(True, room.version)


@versioned
def set_autoplay(room: Room | int, user, on: bool, expected_version: int | None = None) -> Outcome:
    """Switch 托管 (C5 auto-play) on or off for ``user``'s seat; the deadline of
    a pending decision is recomputed (bot delay when on, full time when off)."""
    rid = room_id(room)
    with locked_room(rid, expected_version) as room:
        seat = _require_user_seat(room, user)
        seat.autoplay = bool(on)
        seat.save(update_fields=["autoplay"])
        hand = current_hand(room)
        if hand is not None and not hand.complete:
            rules = get_rules(room.game)
            state = hand_state(hand)
            # A hidden decision keeps its deadline: moving it only when this
            # seat holds it would tell everyone who does (games.services.hidden).
            if rules.to_act(state) == seat.index and not hidden.is_hidden(rules, state):
                set_deadline(room, rules, state, seats_of(room))
        return Outcome(True, room.version)


def room_edited(room: Room | int) -> Outcome:
    """After an admin edited a room or its seats in Django admin (which writes
    the rows itself): bump the version, as every other change does, so that
    what processes keep per version (the next server turn's reads,
    :mod:`~games.services.turncache`; the live snapshots, :mod:`games.live.snapshots`)
    is stale and every socket is pushed the edited table; the deadline of the
    decision due is recomputed (a seat may have become a bot, or a human).
    Returns the :class:`Outcome` with the new version."""
    with locked_room(room_id(room), None, lobby=True) as room:
        hand = current_hand(room)
        if room.status == Room.Status.PLAYING and hand is not None and not hand.complete:
            rules = get_rules(room.game)
            state = hand_state(hand)
            if rules.to_act(state) is not None and not hidden.is_hidden(rules, state):
                set_deadline(room, rules, state, seats_of(room))
        return Outcome(True, room.version)


def close_room(room: Room | int, user) -> Outcome:
    """The owner closes the room: no further hands; nothing is due.  A debt
    still owed at the table is settled in game points for every share (all
    players leave at once,
    :func:`~games.services.settlement.settle_leaving`)."""
    with locked_room(room_id(room), None, lobby=True) as room:
        if room.owner_id != user.pk:
            raise Forbidden(_("只有房主可以关闭房间"))
        if room.status != Room.Status.CLOSED:
            settle_leaving(room, current_hand(room), seats_of(room), None)
        room.status = Room.Status.CLOSED
        room.deadline = None
        return Outcome(True, room.version)
