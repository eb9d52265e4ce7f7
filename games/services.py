"""Every change to a room goes through this module.

Each public function runs in one ``transaction.atomic()`` block whose first
statement is a conditional ``UPDATE room SET version = version + 1 WHERE id = …
[AND version = expected]``.  That statement both takes the row lock (PostgreSQL)
or the write lock (SQLite) and performs the optimistic version check: a second
worker or a doubled click that carries the same version finds zero rows and
returns :class:`Outcome` ``applied=False`` without changing anything.  Any
exception inside the block (an illegal action) rolls the bump back, so a
refused action leaves the room exactly as it was.

After the commit (``transaction.on_commit``) the room's channel group is told
``table.changed`` with the new version, then the next turn is scheduled
(:mod:`games.scheduling`) for ``room.deadline``.

The rules come from :func:`games.engine.get_rules` only, so everything here is
game-generic; a hand state is rebuilt from ``Hand.start`` + ``Hand.deal`` + the
``HandAction`` log and cached in-process by ``(hand id, start, action count)``.
"""

from __future__ import annotations

import json
import logging
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from .engine import get_rules
from .engine.base import Action, IllegalAction, RecordError
from .engine.cards import new_seed
from .models import (
    Hand,
    HandAction,
    Match,
    Room,
    RoomMultiplier,
    Seat,
    TributeRecord,
    TributeSettlement,
)

log = logging.getLogger(__name__)

#: Seconds between the end of a hand and the deal of the next (result panel).
HAND_PAUSE_S = float(getattr(settings, "GAMES_HAND_PAUSE_S", 6.0))
#: Policy used for a human seat on auto-play (托管, C5).
AUTOPLAY_POLICY = "heuristic"
POLICIES = ("random", "heuristic")


# --------------------------------------------------------------------------- errors


class ServiceError(Exception):
    """A refused request.  ``message`` is for the player; ``status`` the HTTP
    status a view should answer with; ``rule`` the ruling id when the engine
    named one."""

    status = 400

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule


class IllegalMove(ServiceError):
    """The engine refused the action (``IllegalAction``); its message is kept."""

    status = 400


class InvalidRequest(ServiceError):
    """A payload that is not an action at all (bad verb, unknown card)."""

    status = 400


class Forbidden(ServiceError):
    """Not this user's seat, turn or room."""

    status = 403


class Conflict(ServiceError):
    """The room is not in a state that allows this (seat taken, room full …)."""

    status = 409


@dataclass(frozen=True)
class Outcome:
    """Result of a versioned call: ``applied`` False means the version was
    stale (someone else acted first) and nothing changed; ``version`` is the
    room's version after the call."""

    applied: bool
    version: int
    reason: str = ""


# --------------------------------------------------------------------------- state cache

_CACHE_SIZE = 512
_cache: OrderedDict[tuple, Any] = OrderedDict()
_cache_lock = threading.Lock()
#: ``_hkey(hand)`` -> the largest action count whose state was cached.
_newest: OrderedDict[tuple, int] = OrderedDict()
#: States rebuilt / extended / served from the cache (tests, profiling).
cache_stats = {"rebuilt": 0, "extended": 0, "applied": 0, "hits": 0}


def _cache_get(key):
    with _cache_lock:
        value = _cache.get(key)
        if value is not None:
            _cache.move_to_end(key)
        return value


def _cache_put(key, value) -> None:
    with _cache_lock:
        _cache[key] = value
        _cache.move_to_end(key)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
        prefix, count = key[:-1], key[-1]
        if count > _newest.get(prefix, -2):
            _newest[prefix] = count
            _newest.move_to_end(prefix)
            while len(_newest) > _CACHE_SIZE:
                _newest.popitem(last=False)


def _newest_cached(prefix: tuple, n: int) -> tuple[int, Any] | None:
    """``(m, state)``: the newest cached state of the hand ``prefix`` with
    ``m <= n`` actions (only the newest is tracked), or None."""
    with _cache_lock:
        m = _newest.get(prefix)
        if m is None or m > n:
            return None
        state = _cache.get((*prefix, m))
    return None if state is None else (m, state)


def _hkey(hand: Hand) -> tuple:
    """Cache key prefix of ``hand``: its id and its carry-in.  ``Hand.start``
    is rewritten when a tribute lapses before it was paid (B14), so a state
    cached by another process under the old carry-in is never used."""
    return (hand.id, json.dumps(hand.start, sort_keys=True))


def clear_cache() -> None:
    """Forget every cached state (tests; after an admin edits a hand)."""
    with _cache_lock:
        _cache.clear()
        _newest.clear()


def hand_match(hand: Hand):
    """The engine's match object before ``hand`` (its carry-in)."""
    rules = get_rules(hand.match.room.game)
    return rules.new_match(**hand.start)


def action_count(hand: Hand) -> int:
    """How many actions ``hand`` has stored."""
    return hand.actions.count()


def hand_state(
    hand: Hand,
    payloads: list[dict] | None = None,
    upto: int | None = None,
    count: int | None = None,
):
    """The engine state of ``hand`` after its first ``upto`` actions (all by
    default), rebuilt from the stored deal and log.

    ``payloads`` (the ordered ``HandAction.payload`` list) or ``count`` (the
    number of stored actions) may be passed to save a query.  Cached by
    ``(hand.id, hand.start, count)``: a hit costs no query beyond the count;
    on a miss the newest cached state of the hand with ``m < n`` actions is
    extended by applying only actions ``m .. n-1`` (one query for those
    rows), so a process that follows a hand pays O(new actions) per call, not
    O(n); only a process that has nothing cached (or asks for an earlier
    ``upto``) replays from the deal (the key also holds ``Hand.start``, see
    :func:`_hkey`).  Raises ``IllegalAction`` if the stored log is not legal
    (corrupted data).
    """
    if payloads is not None:
        total = len(payloads)
    elif count is not None:
        total = count
    else:
        total = action_count(hand)
    n = total if upto is None else max(0, min(upto, total))
    key = _hkey(hand)
    cached = _cache_get((*key, n))
    if cached is not None:
        cache_stats["hits"] += 1
        return cached
    rules = get_rules(hand.match.room.game)
    newest = _newest_cached(key, n) if n > 0 else None
    if newest is not None:
        m, state = newest
        if payloads is None:
            tail = list(
                hand.actions.filter(seq__gte=m, seq__lt=n).order_by("seq")
                .values_list("payload", flat=True)
            )
        else:
            tail = payloads[m:n]
        for payload in tail:
            state = rules.apply(state, Action.from_record(payload, rules.seats))
        cache_stats["extended"] += 1
        cache_stats["applied"] += len(tail)
    else:
        cache_stats["rebuilt"] += 1
        if payloads is None:
            payloads = list(
                hand.actions.filter(seq__lt=n).order_by("seq").values_list("payload", flat=True)
            )
        start = _cache_get((*key, -1))
        if start is None:
            match = rules.new_match(**hand.start)
            start = rules.start_hand(match, rules.deal_from_record(match, hand.deal))
            _cache_put((*key, -1), start)
        state = start
        for payload in payloads[:n]:
            state = rules.apply(state, Action.from_record(payload, rules.seats))
        cache_stats["applied"] += n
    _cache_put((*key, n), state)
    return state


# --------------------------------------------------------------------------- helpers


def current_hand(room: Room) -> Hand | None:
    """The room's latest hand (in play, or the last completed one), or None."""
    return (
        Hand.objects.filter(match__room_id=_room_id(room))
        .select_related("match", "match__room")
        .order_by("-id")  # hands are created in order
        .first()
    )


def current_hand_counted(room: Room) -> Hand | None:
    """:func:`current_hand` with its stored action count as ``n_actions``,
    in one query (the live table read, :func:`games.tables.table_snapshot`)."""
    from django.db.models import Count, OuterRef, Subquery
    from django.db.models.functions import Coalesce

    counted = (
        HandAction.objects.filter(hand=OuterRef("pk")).order_by()
        .values("hand").annotate(c=Count("pk")).values("c")
    )
    return (
        Hand.objects.filter(match__room_id=_room_id(room))
        .select_related("match", "match__room")
        .annotate(n_actions=Coalesce(Subquery(counted), 0))
        .order_by("-id")
        .first()
    )


def _lock(room_id: int, expected_version: int | None) -> Room | None:
    """Inside an atomic block: bump the version (optionally only if it equals
    ``expected_version``) and return the fresh room, or None when stale.
    Raises ``Room.DoesNotExist`` for an unknown room."""
    now = timezone.now()
    qs = Room.objects.filter(pk=room_id)
    if expected_version is not None:
        qs = qs.filter(version=expected_version)
    if not qs.update(version=F("version") + 1, changed=now):
        if not Room.objects.filter(pk=room_id).exists():
            raise Room.DoesNotExist(room_id)
        return None
    room = Room.objects.get(pk=room_id)
    room._listed_before = _listing(room)
    return room


def _listing(room: Room) -> tuple:
    """What a lobby's room list shows of ``room`` apart from its seats
    (``templates/games/_room_list.html``): name, multiplier, status."""
    return (room.name, room.multiplier, room.status)


def _stale(room_id: int) -> Outcome:
    return Outcome(False, Room.objects.get(pk=room_id).version, "stale")


def _room_id(room: Room | int) -> int:
    return room if isinstance(room, int) else room.pk


def _after_commit(room: Room, lobby: bool | None = None) -> None:
    """Register the post-commit notify + schedule for the room's final state.

    ``lobby``: whether the lobby's room list changed too (its group is then
    told as well, and every lobby socket re-renders the list).  True for the
    services that change seats; None (the default) compares the room's name,
    multiplier and status with what :func:`_lock` read, so a plain play, 托管
    or a ready click that deals nothing leaves the lobby alone."""
    if lobby is None:
        lobby = _listing(room) != getattr(room, "_listed_before", None)
    room_id, version, game, deadline = room.pk, room.version, room.game, room.deadline

    def run():
        from . import notify, scheduling

        notify.table_changed(room_id, version, game, lobby=lobby)
        if deadline is not None:
            delay = max(0.0, (deadline - timezone.now()).total_seconds())
            scheduling.schedule_turn(room_id, version, delay)

    transaction.on_commit(run)


def _seats(room: Room) -> list[Seat]:
    return list(room.seats.select_related("user").order_by("index"))


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


def _acts_automatically(seat: Seat) -> bool:
    return bool(seat.bot_policy) or seat.autoplay


def _set_deadline(room: Room, rules, state, seats: list[Seat]) -> None:
    """Deadline for the seat to act: bot delay for bots and 托管 seats, the
    room's time limit (C5) for a human."""
    now = timezone.now()
    seat_index = rules.to_act(state)
    if seat_index is None:
        room.deadline = None
    elif _acts_automatically(seats[seat_index]):
        room.deadline = now + timedelta(milliseconds=room.bot_delay_ms)
    else:
        room.deadline = now + timedelta(seconds=room.turn_seconds)


def _can_start(room: Room, seats: list[Seat]) -> bool:
    return (
        room.status != Room.Status.CLOSED
        and all(not s.is_empty for s in seats)
        and all(s.ready for s in seats if s.user_id)
        and any(s.user_id for s in seats)
    )


def _by_seat(value: Any, seats: int) -> list[Any]:
    """A per-seat summary member (``{"0": x, …}`` or a list) as a list."""
    if isinstance(value, dict):
        return [value.get(str(i), value.get(i, 0)) for i in range(seats)]
    if isinstance(value, (list, tuple)):
        return list(value) + [0] * (seats - len(value))
    return [0] * seats


# --------------------------------------------------------------------------- rooms & seats


def create_room(
    owner,
    game: str,
    name: str,
    multiplier: int | None = None,
    turn_seconds: int = 30,
    bot_delay_ms: int = 800,
    options: dict | None = None,
    take_seat: bool = True,
) -> Room:
    """Create a room with its empty seats; the owner sits at seat 0 unless
    ``take_seat`` is false.

    ``multiplier`` must be one of the admin-managed :class:`RoomMultiplier`
    values (None: the default, C4); ``options`` are checked by the engine's
    ``new_match``.  Raises :class:`InvalidRequest`.
    """
    try:
        rules = get_rules(game)
    except KeyError:
        raise InvalidRequest(_("未知的游戏")) from None
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
    name = (name or "").strip()[:60] or _("%(user)s 的房间") % {"user": owner.get_username()}
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
        )
        Seat.objects.bulk_create(
            [
                Seat(room=room, index=i, user=owner if (take_seat and i == 0) else None)
                for i in range(rules.seats)
            ]
        )
        _after_commit(room, lobby=True)
    return room


def take_seat(room: Room | int, user, index: int, expected_version: int | None = None) -> Outcome:
    """Seat ``user`` at seat ``index`` (an empty seat, or a bot's while the
    room is waiting: the human replaces the bot).  Raises :class:`Conflict`
    when the seat is taken, the user already sits at this table, or the room
    is closed; :class:`InvalidRequest` for a seat number out of range."""
    with transaction.atomic():
        rid = _room_id(room)
        room = _lock(rid, expected_version)
        if room is None:
            return _stale(rid)
        if room.status == Room.Status.CLOSED:
            raise Conflict(_("房间已关闭"))
        seats = _seats(room)
        if not isinstance(index, int) or not 0 <= index < len(seats):
            raise InvalidRequest(_("没有这个座位"))
        if any(s.user_id == user.pk for s in seats):
            raise Conflict(_("你已经坐在这张桌上"))
        seat = seats[index]
        replaces_bot = seat.is_bot and room.status == Room.Status.WAITING
        if not seat.is_empty and not replaces_bot:
            if all(not s.is_empty for s in seats):
                raise Conflict(_("房间已满"))
            raise Conflict(_("这个座位已经有人"))
        seat.bot_policy = None
        seat.user = user
        seat.ready = False
        seat.autoplay = False
        seat.save(update_fields=["user", "bot_policy", "ready", "autoplay"])
        room.save(update_fields=["deadline", "status"])
        _after_commit(room, lobby=True)
        return Outcome(True, room.version)


def leave_seat(room: Room | int, user, expected_version: int | None = None) -> Outcome:
    """``user`` leaves the table.  During a hand in play the seat is handed to
    the heuristic bot so the hand can finish (the user still gets the hand's
    game points, credited to the players dealt in); otherwise it is emptied.

    B14: with tribute still owed (next hand not dealt, or dealt and still in
    its crown phase) the leaver's shares are settled in game points and the
    tribute lapses for the table (:func:`_settle_tribute`)."""
    with transaction.atomic():
        rid = _room_id(room)
        room = _lock(rid, expected_version)
        if room is None:
            return _stale(rid)
        seat = _require_user_seat(room, user)
        hand = current_hand(room)
        _settle_tribute(room, hand, _seats(room), seat)
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
            _set_deadline(room, rules, hand_state(hand), _seats(room))
        room.save(update_fields=["deadline"])
        _after_commit(room, lobby=True)
        return Outcome(True, room.version)


def set_ready(room: Room | int, user, ready: bool = True, expected_version: int | None = None) -> Outcome:
    """Mark ``user``'s seat ready (or not).  When every seat is filled and every
    human is ready, the first hand is dealt in the same transaction."""
    with transaction.atomic():
        rid = _room_id(room)
        room = _lock(rid, expected_version)
        if room is None:
            return _stale(rid)
        seat = _require_user_seat(room, user)
        seat.ready = bool(ready)
        seat.save(update_fields=["ready"])
        _maybe_start(room)
        room.save(update_fields=["deadline", "status"])
        _after_commit(room)
        return Outcome(True, room.version)


def fill_bots(room: Room | int, user, policy: str = "heuristic", expected_version: int | None = None) -> Outcome:
    """The owner fills every empty seat with a bot of ``policy`` ("random" or
    "heuristic"); deals if everyone is then ready."""
    if policy not in POLICIES:
        raise InvalidRequest(_("未知的机器人类型"))
    with transaction.atomic():
        rid = _room_id(room)
        room = _lock(rid, expected_version)
        if room is None:
            return _stale(rid)
        if room.owner_id != user.pk:
            raise Forbidden(_("只有房主可以添加机器人"))
        if room.status == Room.Status.CLOSED:
            raise Conflict(_("房间已关闭"))
        empty = room.seats.filter(user__isnull=True, bot_policy__isnull=True)
        if not empty.exists():
            raise Conflict(_("没有空座位"))
        empty.update(bot_policy=policy, ready=True, autoplay=False)
        _maybe_start(room)
        room.save(update_fields=["deadline", "status"])
        _after_commit(room, lobby=True)
        return Outcome(True, room.version)


def set_autoplay(room: Room | int, user, on: bool, expected_version: int | None = None) -> Outcome:
    """Switch 托管 (C5 auto-play) on or off for ``user``'s seat; the deadline of
    a pending decision is recomputed (bot delay when on, full time when off)."""
    with transaction.atomic():
        rid = _room_id(room)
        room = _lock(rid, expected_version)
        if room is None:
            return _stale(rid)
        seat = _require_user_seat(room, user)
        seat.autoplay = bool(on)
        seat.save(update_fields=["autoplay"])
        hand = current_hand(room)
        if hand is not None and not hand.complete:
            rules = get_rules(room.game)
            state = hand_state(hand)
            if rules.to_act(state) == seat.index:
                _set_deadline(room, rules, state, _seats(room))
        room.save(update_fields=["deadline"])
        _after_commit(room)
        return Outcome(True, room.version)


def close_room(room: Room | int, user) -> Outcome:
    """The owner closes the room: no further hands; nothing is due.  A
    tribute still owed is settled in game points for every share (B14: all
    players leave at once, :func:`_settle_tribute`)."""
    with transaction.atomic():
        room = _lock(_room_id(room), None)
        if room.owner_id != user.pk:
            raise Forbidden(_("只有房主可以关闭房间"))
        if room.status != Room.Status.CLOSED:
            _settle_tribute(room, current_hand(room), _seats(room), None)
        room.status = Room.Status.CLOSED
        room.deadline = None
        room.save(update_fields=["status", "deadline"])
        _after_commit(room, lobby=True)
        return Outcome(True, room.version)


# --------------------------------------------------------------------------- hands


def _maybe_start(room: Room) -> bool:
    """Deal a hand if the room is waiting and everyone is ready (locked)."""
    if room.status != Room.Status.WAITING:
        return False
    seats = _seats(room)
    if not _can_start(room, seats):
        return False
    _deal(room, seats)
    return True


def _deal(room: Room, seats: list[Seat]) -> Hand:
    """Deal the next hand (inside the locked transaction): new seed (C3),
    carry-in from the previous completed hand of the current match, store the
    deal, set status and deadline.  The caller saves ``room``."""
    rules = get_rules(room.game)
    match_row = room.matches.filter(finished__isnull=True).order_by("-number").first()
    prev = None
    if match_row is None:
        number = (room.matches.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        match = rules.new_match({**rules.default_options(), **room.match_options()})
        match_row = Match.objects.create(room=room, number=number, start=rules.match_to_json(match))
    else:
        prev = match_row.hands.order_by("-number").first()
        if prev is None:
            match = rules.new_match(**match_row.start)
        else:
            if not prev.complete:
                raise Conflict(_("上一局还没有结束"))
            prev.match = match_row
            match = carry_in_after(rules, prev)
    seed = new_seed()
    deal = rules.deal(match, seed)
    hand = Hand.objects.create(
        match=match_row,
        number=(prev.number + 1) if prev else 1,
        seed=seed,
        deal=rules.deal_to_record(deal),
        start=rules.match_to_json(match),
        players=[
            {"name": s.display_name(), "user": s.user_id, "bot": s.bot_policy} for s in seats
        ],
    )
    state = rules.start_hand(match, deal)
    _cache_put((*_hkey(hand), 0), state)
    _cache_put((*_hkey(hand), -1), state)
    room.status = Room.Status.PLAYING
    if rules.is_complete(state):  # e.g. an engine that settles a deal at once
        _finish(room, hand, rules, state)
    else:
        _set_deadline(room, rules, state, seats)
    return hand


def start_hand(room: Room | int, expected_version: int | None = None) -> Outcome:
    """Deal the next hand if every seat is taken and every human is ready and
    no hand is in play.  Raises :class:`Conflict` otherwise."""
    with transaction.atomic():
        rid = _room_id(room)
        room = _lock(rid, expected_version)
        if room is None:
            return _stale(rid)
        seats = _seats(room)
        hand = current_hand(room)
        if hand is not None and not hand.complete:
            raise Conflict(_("这一局还没有结束"))
        if not _can_start(room, seats):
            raise Conflict(_("还有空座位或玩家没有准备"))
        _deal(room, seats)
        room.save(update_fields=["deadline", "status"])
        _after_commit(room)
        return Outcome(True, room.version)


def _finish(room: Room, hand: Hand, rules, state) -> None:
    """Store the summary, the tribute history (B13) and credit the ledger (C4)
    for the players dealt in (not for a voided deal, B8); the next hand
    follows after a pause."""
    from accounts import ledger

    summary = rules.summary(state)
    hand.summary = summary
    hand.complete = True
    hand.save(update_fields=["summary", "complete"])
    players = hand.players or []
    users = {p.get("user") for p in players if p.get("user")}
    from django.contrib.auth import get_user_model

    by_id = get_user_model().objects.in_bulk(list(users))

    def user_at(seat_index):
        if 0 <= seat_index < len(players):
            return by_id.get(players[seat_index].get("user"))
        return None

    TributeRecord.objects.bulk_create(
        [
            TributeRecord(
                hand=hand,
                from_seat=t["from"],
                to_seat=t["to"],
                from_user=user_at(t["from"]),
                to_user=user_at(t["to"]),
                card=t["card"],
            )
            for t in summary.get("tribute") or []
        ]
    )
    points = _by_seat(summary.get("game_points"), rules.seats)
    if not summary.get("voided"):  # a voided deal (B8) scores nothing: no 0-point entries
        for index, value in enumerate(points):
            user = user_at(index)
            if user is not None:
                ledger.credit(user, room.game, int(value), hand=hand, reason="hand")
    next_match = rules.next_match(rules.new_match(**hand.start), state)
    if rules.match_winner(next_match) is not None:
        Match.objects.filter(pk=hand.match_id).update(finished=timezone.now())
    room.deadline = timezone.now() + timedelta(seconds=HAND_PAUSE_S)


def next_hand(room: Room | int, expected_version: int) -> Outcome:
    """After the pause: deal the next hand, or go back to waiting when a seat
    is empty, a human is not ready, or every human is on 托管 (nobody is
    watching: the humans are then marked not ready).  Version-checked like
    an action."""
    with transaction.atomic():
        rid = _room_id(room)
        room = _lock(rid, expected_version)
        if room is None:
            return _stale(rid)
        hand = current_hand(room)
        if room.status != Room.Status.PLAYING or (hand is not None and not hand.complete):
            room.save(update_fields=["deadline"])
            _after_commit(room)
            return Outcome(True, room.version, "nothing to do")
        seats = _seats(room)
        humans = [s for s in seats if s.user_id]
        if humans and all(s.autoplay for s in humans):
            # everybody is away (托管): do not let bots play on for ever
            Seat.objects.filter(pk__in=[s.pk for s in humans]).update(ready=False, autoplay=False)
            room.status = Room.Status.WAITING
            room.deadline = None
        elif _can_start(room, seats):
            _deal(room, seats)
        else:
            room.status = Room.Status.WAITING
            room.deadline = None
        room.save(update_fields=["deadline", "status"])
        _after_commit(room)
        return Outcome(True, room.version)


def do_action(
    room: Room | int,
    seat: int,
    action_record: dict,
    expected_version: int,
    actor: str = HandAction.Actor.USER,
    user=None,
    autoplay: bool | None = None,
) -> Outcome:
    """Apply one decision of ``seat`` to the hand in play.

    ``action_record`` is the hand-record form without the seat
    (``{"play": ["AS", "AH"]}``, ``{"pass": true}``, ``{"crown": "accept"}``);
    a ``seat`` member, if present, must equal ``seat``.  ``expected_version``
    is the room version the caller saw: if the room moved on (a duplicate
    click, a stale bot task) nothing changes and ``applied`` is False.

    On success: the action is stored with the next ``seq``, the version
    bumped, the next deadline set (C5 time limit or bot delay); when the hand
    completes, its summary, tribute rows and ledger credits are written and
    the next hand is due after a pause.  ``autoplay`` (True/False) also
    switches the seat's 托管 in the same transaction (a timeout, C5).

    Raises :class:`InvalidRequest` (not an action), :class:`Forbidden` (not
    this seat's turn), :class:`Conflict` (no hand in play), or
    :class:`IllegalMove` carrying the engine's message (rule refused); in all
    these cases nothing changes.
    """
    if not isinstance(action_record, dict):
        raise InvalidRequest(_("无效的动作"))
    record = dict(action_record)
    if "seat" in record and record["seat"] != seat:
        raise Forbidden(_("不能替别的座位出牌"))
    record["seat"] = seat
    with transaction.atomic():
        rid = _room_id(room)
        room = _lock(rid, expected_version)
        if room is None:
            return _stale(rid)
        rules = get_rules(room.game)
        try:
            action = Action.from_record(record, rules.seats)
        except RecordError as exc:
            raise InvalidRequest(_("无效的动作：%(err)s") % {"err": exc}) from None
        hand = current_hand_counted(room)  # under the room's row lock: the count is exact
        if hand is None or hand.complete or room.status != Room.Status.PLAYING:
            raise Conflict(_("现在没有进行中的牌局"))
        count = hand.n_actions
        state = hand_state(hand, count=count)
        if rules.to_act(state) != seat:
            raise Forbidden(_("还没轮到你"))
        try:
            new_state = rules.apply(state, action)
        except IllegalAction as exc:
            raise IllegalMove(exc.message, exc.rule) from None
        HandAction.objects.create(
            hand=hand,
            seq=count,
            seat=seat,
            payload=action.to_record(),
            actor=actor,
            user=user if actor == HandAction.Actor.USER else None,
        )
        _cache_put((*_hkey(hand), count + 1), new_state)
        if autoplay is not None:
            Seat.objects.filter(room=room, index=seat).update(autoplay=autoplay)
        complete = rules.is_complete(new_state)
        if complete:
            _finish(room, hand, rules, new_state)
        else:
            _set_deadline(room, rules, new_state, _seats(room))
        room.save(update_fields=["deadline", "status"])
        _after_commit(room)
        return Outcome(True, room.version)


# --------------------------------------------------------------------------- leaving (B14)


def carry_in_after(rules, prev: Hand):
    """The engine match (carry-in) for the hand after the completed ``prev``:
    the carry stored by a tribute settlement after ``prev`` (B14, the tribute
    lapsed), else ``rules.next_match`` of ``prev``'s start and final state."""
    settled = (
        TributeSettlement.objects.filter(hand=prev, carry__isnull=False).order_by("-id").first()
    )
    if settled is not None:
        return rules.new_match(**settled.carry)
    return rules.next_match(rules.new_match(**prev.start), hand_state(prev))


def _owed_carry(rules, hand: Hand | None):
    """``(match, in_hand)`` when a tribute may still be owed at the table:
    after a completed or voided hand whose match goes on (``in_hand`` False:
    the next hand is not dealt yet), or in a hand dealt but still in its crown
    phase (``in_hand`` True: the engine pays tribute when the crown is
    accepted, B13 / docs/rules-baohuang.md); else None."""
    if hand is None:
        return None
    if not hand.complete:
        if rules.phase(hand_state(hand)) != "crown":
            return None  # already paid (or none was owed) before the declaration
        return rules.new_match(**hand.start), True
    if hand.match.finished is not None:
        return None  # a new match follows: nothing carries over
    return carry_in_after(rules, hand), False


def _settle_tribute(
    room: Room, hand: Hand | None, seats: list[Seat], leaver: Seat | None
) -> TributeSettlement | None:
    """B14, inside the locked transaction: if tribute is owed at the table,
    settle it in game points and let it lapse.

    ``hand`` is the room's latest hand (:func:`current_hand`; its ``start``
    may be rewritten), ``seats`` the seats before anyone leaves.  ``leaver`` is
    the seat leaving (its shares are settled:
    ``rules.leave_settlement(match, seat)``); None when the owner closes the
    room: everybody leaves at once and every share is settled once (the sum
    over all seats counts each share twice, payer and receiver, so it is
    halved).  Points include the room multiplier (the engine's match carries
    it, C4).  Each human seated now is credited through the ledger with
    reason ``"tribute-settlement"``; bots have no ledger.  The new carry-in
    (``rules.match_after_leave``) is stored for the next hand, or replaces the
    start of a hand still in its crown phase.  Returns the settlement row, or
    None when nothing was owed (then nothing changes) or the game has no B14.
    """
    from accounts import ledger

    rules = get_rules(room.game)
    settle = getattr(rules, "leave_settlement", None)
    if settle is None:
        return None
    owed = _owed_carry(rules, hand)
    if owed is None:
        return None
    match, in_hand = owed
    after = rules.match_after_leave(match)
    carry = rules.match_to_json(after)
    if carry == rules.match_to_json(match):
        return None  # nothing owed: leaving changes nothing
    n = rules.seats
    if leaver is not None:
        points = _by_seat({str(k): v for k, v in settle(match, leaver.index).items()}, n)
    else:
        total = [0] * n
        for s in range(n):
            for k, v in settle(match, s).items():
                total[int(k)] += v
        points = [v // 2 for v in total]
    if in_hand:
        hand.start = carry
        hand.save(update_fields=["start"])
    row = TributeSettlement.objects.create(
        hand=hand,
        seat=leaver.index if leaver is not None else None,
        user=leaver.user if leaver is not None else None,
        points=[int(p) for p in points],
        carry=None if in_hand else carry,
    )
    for seat in seats:
        if seat.user_id is not None and points[seat.index]:
            ledger.credit(seat.user, room.game, int(points[seat.index]), hand=hand, reason="tribute-settlement")
    return row


def bot_rng(hand: Hand, count: int) -> random.Random:
    """The random source of a bot's decision: a pure function of the hand's
    seed and the action count, so a hand can be reproduced exactly."""
    return random.Random(hand.seed * 1009 + count)
