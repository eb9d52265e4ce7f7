"""The hand lifecycle: deal, one decision at a time, completion, next deal.

Every command runs in :func:`~games.services.frame.locked_room`; the rules
come from :func:`games.engine.get_rules` only, so everything here is
game-generic.  When a hand completes its summary, the tribute history
and the ledger credits (C4) are written in the same transaction,
:data:`games.signals.hand_scored` is sent inside it (ratings) and
:data:`games.signals.hand_completed` after the commit (events, statistics).
A planner (:mod:`games.services.dealing`) may fix a deal or stop the dealing.
"""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import ledger

from ..engine import get_rules
from ..engine.base import Action, IllegalAction, RecordError
from ..engine.cards import new_seed
from ..models import Hand, HandAction, Match, Room, Seat
from . import dealing
from games import signals
from ..signals import hand_completed
from .deadlines import can_start, seats_of, set_deadline, set_pause
from .errors import Conflict, Forbidden, IllegalMove, InvalidRequest, Outcome
from .frame import StaleVersion, locked_room, stale_outcome, versioned
from .readmodel import by_seat, cache_put, current_hand, current_hand_counted, hand_key, hand_state, room_id
from .settlement import carry_in_after, related_model
from . import turncache
from . import hidden

log = logging.getLogger(__name__)


def maybe_start(room: Room) -> bool:
    """Deal a hand if the room is waiting and everyone is ready (locked)."""
    if room.status != Room.Status.WAITING:
        return False
    seats = seats_of(room)
    if not can_start(room, seats):
        return False
    deal_hand(room, seats)
    return True


def deal_hand(room: Room, seats: list[Seat]) -> Hand:
    """Deal the next hand (inside the locked transaction): new seed (C3),
    carry-in from the previous completed hand of the current match, store the
    deal, set status and deadline.  The frame saves ``room``."""
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
    fixed = dealing.plan(room)
    if fixed is not None:  # e.g. a duplicate board: this deal and start at every table
        seed = fixed.seed
        match = rules.new_match(**fixed.start)
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
    cache_put((*hand_key(hand), 0), state)
    cache_put((*hand_key(hand), -1), state)
    room.status = Room.Status.PLAYING
    if rules.is_complete(state):  # e.g. an engine that settles a deal at once
        finish_hand(room, hand, rules, state)
    else:
        set_deadline(room, rules, state, seats)
    return hand


@versioned
def start_hand(room: Room | int, expected_version: int | None = None) -> Outcome:
    """Deal the next hand if every seat is taken and every human is ready and
    no hand is in play.  Raises :class:`Conflict` otherwise."""
    rid = room_id(room)
    with locked_room(rid, expected_version) as room:
        seats = seats_of(room)
        hand = current_hand(room)
        if hand is not None and not hand.complete:
            raise Conflict(_("这一局还没有结束"))
        if not can_start(room, seats):
            raise Conflict(_("还有空座位或玩家没有准备"))
        deal_hand(room, seats)
        return Outcome(True, room.version)


def finish_hand(room: Room, hand: Hand, rules, state) -> None:
    """Store the summary, the tribute history (the summary's ``tribute``
    list, if any) and credit the ledger (C4) for the players dealt in (not
    for a deal the summary marks ``voided``); the next hand
    follows after a pause; :data:`~games.signals.hand_completed` goes out
    after the commit."""
    summary = rules.summary(state)
    hand.summary = summary
    hand.complete = True
    hand.save(update_fields=["summary", "complete"])
    players = hand.players or []
    users = {p.get("user") for p in players if p.get("user")}
    by_id = get_user_model().objects.in_bulk(list(users))

    def user_at(seat_index):
        if 0 <= seat_index < len(players):
            return by_id.get(players[seat_index].get("user"))
        return None

    tributes = summary.get("tribute") or []
    if tributes:  # the tribute history: the game's own table, through Hand.tributes
        record = related_model("tributes")
        if record is None:
            raise ImproperlyConfigured("a hand paid tribute but no installed app stores Hand.tributes")
        record.objects.bulk_create(
            [
                record(
                    hand=hand,
                    from_seat=t["from"],
                    to_seat=t["to"],
                    from_user=user_at(t["from"]),
                    to_user=user_at(t["to"]),
                    card=t["card"],
                )
                for t in tributes
            ]
        )
    points = by_seat(summary.get("game_points"), rules.seats)
    scored = dealing.scored(room)  # a deal played again (#26) scores nothing
    if scored and not summary.get("voided"):  # a voided deal scores nothing: no 0-point entries
        for index, value in enumerate(points):
            user = user_at(index)
            if user is not None:
                ledger.credit(user, room.game, int(value), hand=hand, reason="hand")
    next_match = rules.next_match(rules.new_match(**hand.start), state)
    finished = rules.match_winner(next_match) is not None
    if finished:
        Match.objects.filter(pk=hand.match_id).update(finished=timezone.now())
    set_pause(room)
    if scored:
        signals.send_hand_scored(room, hand, rules)  # e.g. ratings, in this transaction
    _announce(room.game, room.pk, hand, summary, finished)


def _announce(game: str, rid: int, hand: Hand, summary: dict, finished: bool) -> None:
    """Send :data:`~games.signals.hand_completed` once the hand is committed."""
    kwargs = {
        "room_id": rid,
        "hand_id": hand.pk,
        "match_id": hand.match_id,
        "summary": summary,
        "players": list(hand.players or []),
        "match_finished": finished,
    }

    def send():
        for receiver, result in hand_completed.send_robust(sender=game, **kwargs):
            if isinstance(result, Exception):
                log.error("hand_completed receiver %r failed: %r", receiver, result)

    transaction.on_commit(send)


@versioned
def next_hand(room: Room | int, expected_version: int) -> Outcome:
    """After the pause: deal the next hand, or go back to waiting when a seat
    is empty, a human is not ready, or every human is on 托管 (nobody is
    watching: the humans are then marked not ready) unless a planner
    (:mod:`games.services.dealing`) decides about this table (an event table deals on
    within its round and waits, its players untouched, when the round is
    paused or over; issue #21).  Version-checked like an action."""
    rid = room_id(room)
    with locked_room(rid, expected_version) as room:
        hand = current_hand(room)
        if room.status != Room.Status.PLAYING or (hand is not None and not hand.complete):
            return Outcome(True, room.version, "nothing to do")
        seats = seats_of(room)
        humans = [s for s in seats if s.user_id]
        if humans and all(s.autoplay for s in humans) and dealing.may_deal(room) is None:
            # everybody is away (托管): do not let bots play on for ever
            Seat.objects.filter(pk__in=[s.pk for s in humans]).update(ready=False, autoplay=False)
            room.status = Room.Status.WAITING
            room.deadline = None
        elif can_start(room, seats):
            deal_hand(room, seats)
        else:
            room.status = Room.Status.WAITING
            room.deadline = None
        return Outcome(True, room.version)


def _record(seat: int, action_record) -> dict:
    if not isinstance(action_record, dict):
        raise InvalidRequest(_("无效的动作"))
    record = dict(action_record)
    if "seat" in record and record["seat"] != seat:
        raise Forbidden(_("不能替别的座位出牌"))
    record["seat"] = seat
    return record


def _apply(room: Room, seat: int, record: dict, actor: str, user, autoplay: bool | None,
           known: tuple | None = None) -> Outcome:
    """Inside the locked room: check and apply ``record`` for ``seat``.
    ``known`` (see :func:`do_action`): the hand (with ``n_actions``) and the
    seats, read at the version the lock was taken at; otherwise read here."""
    rules = get_rules(room.game)
    try:
        action = Action.from_record(record, rules.seats)
    except RecordError as exc:
        raise InvalidRequest(_("无效的动作：%(err)s") % {"err": exc}) from None
    if known is not None:
        hand, seats = known
    else:
        hand, seats = current_hand_counted(room), None  # under the row lock: the count is exact
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
    cache_put((*hand_key(hand), count + 1), new_state)
    if autoplay is not None:
        Seat.objects.filter(room=room, index=seat).update(autoplay=autoplay)
        if seats is not None:
            seats[seat].autoplay = autoplay
    if room.pending is not None:
        room.pending = None
        Room.objects.filter(pk=room.pk).update(pending=None)
    if rules.is_complete(new_state):
        finish_hand(room, hand, rules, new_state)
    else:
        set_deadline(room, rules, new_state, seats if seats is not None else seats_of(room))
        if known is not None:  # the server's turn: its next one may start from here
            turncache.keep_on_commit(room, hand, seats, count + 1)
    return Outcome(True, room.version)


def user_by_id(user_id):
    """The user with primary key ``user_id``, or None."""
    if user_id is None:
        return None
    return get_user_model().objects.filter(pk=user_id).first()


def hidden_decision(rules, state) -> bool:
    """Whether the decision now due is hidden from the others (:mod:`games.services.hidden`)."""

    return hidden.is_hidden(rules, state)


def _hold_hidden(rid: int, seat: int, record: dict, expected_version, user) -> Outcome | None:
    """A human's hidden decision made before its window closed (issue #8):
    checked as legal, kept in ``Room.pending`` and applied at the deadline by
    the server's turn.  No version bump, no notification: nobody can see when
    it was made.  Returns the :class:`Outcome` (``reason="held"``), or None
    when the decision is not held (applied at once as usual)."""

    with transaction.atomic():
        room = Room.objects.select_for_update().filter(pk=rid).first()
        if room is None or room.status != Room.Status.PLAYING or room.deadline is None:
            return None
        if expected_version is not None and room.version != expected_version:
            return None
        if timezone.now() >= room.deadline:
            return None
        hand = current_hand_counted(room)
        if hand is None or hand.complete:
            return None
        rules = get_rules(room.game)
        state = hand_state(hand, count=hand.n_actions)
        if rules.to_act(state) != seat or not hidden.is_hidden(rules, state):
            return None  # (no query for the seats unless the decision is hidden)
        if not hidden.mixed(seats_of(room)):
            return None
        try:
            action = Action.from_record(record, rules.seats)
        except RecordError as exc:
            raise InvalidRequest(_("无效的动作：%(err)s") % {"err": exc}) from None
        try:
            rules.apply(state, action)
        except IllegalAction as exc:
            raise IllegalMove(exc.message, exc.rule) from None
        room.pending = {
            "hand": hand.pk, "count": hand.n_actions, "seat": seat,
            "action": action.to_record(), "user": getattr(user, "pk", None),
        }
        room.save(update_fields=["pending"])
        return Outcome(True, room.version, "held")


@versioned
def do_action(
    room: Room | int,
    seat: int,
    action_record: dict,
    expected_version: int,
    actor: str = HandAction.Actor.USER,
    user=None,
    autoplay: bool | None = None,
    hold_hidden: bool = True,
    known: tuple | None = None,
) -> Outcome:
    """Apply one decision of ``seat`` to the hand in play.

    ``action_record`` is the hand-record form without the seat
    (``{"play": ["AS", "AH"]}``, ``{"pass": true}``, ``{"<verb>": "<choice>"}``);
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

    ``known`` = ``(hand, seats)``: the room's latest hand (with ``n_actions``,
    :func:`current_hand_counted`) and its seats (:func:`seats_of`), read by
    the caller *after* it read the room at ``expected_version`` (the server's
    turn, :func:`~games.services.turns.play_turn`).  Every change to a hand
    or a seat bumps the version, so when the lock is taken at
    ``expected_version`` those reads are still exact and are not repeated
    under the lock (two queries fewer while the row is locked).  Ignored
    without ``expected_version``.
    """
    record = _record(seat, action_record)
    if expected_version is None:
        known = None
    rid = room_id(room)
    if actor == HandAction.Actor.USER and hold_hidden:
        # A hidden decision on a mixed table is held until its deadline
        # (games.services.hidden, issue #8); the server's turn applies it then.
        held = _hold_hidden(rid, seat, record, expected_version, user)
        if held is not None:
            return held
    with locked_room(rid, expected_version) as room:
        return _apply(room, seat, record, actor, user, autoplay, known)


def user_action(
    room: Room | int, user, action_record: dict, expected_version: int, claimed_seat: str | None = None
) -> Outcome:
    """A signed-in user's decision (the table's POST): like :func:`do_action`
    for the user's own seat, which is looked up inside the room's lock.

    ``claimed_seat`` (the POSTed ``seat`` field, a string, may be empty) must
    name that seat.  Raises :class:`Forbidden` when the user is not seated
    here or claims another seat (also when the version is stale), and
    whatever :func:`do_action` raises."""
    if not isinstance(action_record, dict):
        raise InvalidRequest(_("无效的动作"))
    rid = room_id(room)

    def own_seat(r) -> Seat:
        seat = Seat.objects.filter(room_id=r, user=user).first() if user.is_authenticated else None
        if seat is None:
            raise Forbidden(_("你没有坐在这张桌上"))
        if claimed_seat not in (None, "") and claimed_seat != str(seat.index):
            raise Forbidden(_("不能替别的座位出牌"))
        return seat

    seat = Seat.objects.filter(room_id=rid, user=user).first() if user.is_authenticated else None
    if seat is not None and (claimed_seat in (None, "") or claimed_seat == str(seat.index)):
        held = _hold_hidden(rid, seat.index, _record(seat.index, action_record), expected_version, user)
        if held is not None:
            return held
    try:
        with locked_room(rid, expected_version) as room:
            seat = own_seat(rid)
            record = _record(seat.index, action_record)
            return _apply(room, seat.index, record, HandAction.Actor.USER, user, None)
    except StaleVersion:
        own_seat(rid)  # not seated here: that refusal comes first
        return stale_outcome(rid)
