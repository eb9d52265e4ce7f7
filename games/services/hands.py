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
from . import dealing, rows
from games import signals
from ..signals import hand_completed
from .deadlines import can_start, seats_of, set_deadline, set_pause
from .errors import Conflict, Forbidden, IllegalMove, InvalidRequest, Outcome
from .frame import StaleVersion, insert_on_close, keep_quiet, locked_room, stale_outcome, versioned
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
    scored = dealing.scored(room)  # a deal played again scores nothing
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

    transaction.on_commit(lambda: signals.send_robustly(
        hand_completed, game, f"hand {hand.pk} completed", **kwargs))


@versioned
def next_hand(room: Room | int, expected_version: int) -> Outcome:
    """After the pause: deal the next hand, or go back to waiting when a seat
    is empty, a human is not ready, or every human is on 托管 (nobody is
    watching: the humans are then marked not ready) unless a planner
    (:mod:`games.services.dealing`) decides about this table (an event table deals on
    within its round and waits, its players untouched, when the round is
    paused or over).  Version-checked like an action."""
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


def user_by_id(user_id):
    """The user with primary key ``user_id``, or None."""
    if user_id is None:
        return None
    return get_user_model().objects.filter(pk=user_id).first()


def _user_seat(seats: list[Seat], user, claimed_seat: str | None) -> int:
    """The index of ``user``'s own seat among ``seats``; :class:`Forbidden`
    when the user sits elsewhere or claims another seat (``claimed_seat``, the
    POSTed ``seat`` field, a string, may be empty)."""
    mine = None
    if user is not None and user.is_authenticated:
        mine = next((s.index for s in seats if s.user_id == user.pk), None)
    if mine is None:
        raise Forbidden(_("你没有坐在这张桌上"))
    if claimed_seat not in (None, "") and claimed_seat != str(mine):
        raise Forbidden(_("不能替别的座位出牌"))
    return mine


def _held(room: Room, rules, state, seats: list[Seat]) -> bool:
    """Whether a human's decision now is held until its deadline
    (:mod:`games.services.hidden`): a hidden decision on a mixed table,
    before its window closed."""
    return (
        room.deadline is not None
        and timezone.now() < room.deadline
        and hidden.is_hidden(rules, state)
        and hidden.mixed(seats)
    )


def do_move(
    room: Room | int,
    seat: int | None,
    action,
    expected_version: int | None,
    actor: str = HandAction.Actor.USER,
    user=None,
    autoplay: bool | None = None,
    hold_hidden: bool = True,
    known: tuple | None = None,
    claimed_seat: str | None = None,
) -> Outcome:
    """One decision in the hand in play: the one path of every move (a
    player's POST, a bot's turn, a deadline's C5 move, a held hidden choice
    taking effect), checked, applied, stored and announced once.

    One transaction, one lock: :func:`~games.services.frame.locked_room`'s
    conditional ``UPDATE … RETURNING`` (the version check), then the seats
    and the hand (with its action count) read once under the lock (or taken
    from ``known``), the engine's check and apply, the ``HandAction`` insert,
    the next deadline from the seats already read, and the frame's closing
    UPDATE; after the commit ``room_committed`` announces the new version.
    A player's move costs five statements on SQLite, four on PostgreSQL
    (plus ``BEGIN``/``COMMIT``): there the action's INSERT goes with the
    closing UPDATE in one statement (:func:`~games.services.frame.insert_on_close`,
    :mod:`games.services.rows`; a move that completes the hand inserts at once,
    before the completion's own writes).

    - ``seat``: the seat deciding; None for a player's move, whose seat is
      ``user``'s own, found among the seats read under the lock
      (``claimed_seat``, the POSTed ``seat`` field, must name it).
    - ``action``: the hand-record form without the seat (``{"play": ["AS"]}``,
      ``{"pass": true}``, ``{"<verb>": "<choice>"}``; a ``seat`` member must
      equal the seat), or a callable ``f(game code) -> record`` (a POST's verb,
      parsed with the game's spec once the locked row says which game; its
      ``ValueError`` becomes :class:`InvalidRequest`).
    - ``expected_version``: the version the caller saw; a room that moved on
      changes nothing and the outcome is ``applied=False`` (``"stale"``).
    - ``actor``: ``HandAction.Actor`` (user, bot, auto); ``autoplay``
      True/False also switches the seat's 托管 in the same transaction (C5).
    - ``hold_hidden``: a player's hidden decision on a mixed table, made
      before its window closed, is checked and kept in ``Room.pending`` (the
      same transaction, :func:`~games.services.frame.keep_quiet`: no visible
      version, nothing announced; ``reason="held"``); the server's turn
      applies it at the deadline (the same pace whoever decides,
      :mod:`games.services.hidden`).
    - ``known`` = ``(hand, seats)`` read by the server's turn after it read
      the room at ``expected_version``: still exact when the lock is taken at
      that version (every change to a hand or a seat bumps it), so not read
      again.

    Raises :class:`InvalidRequest` (not an action), :class:`Forbidden` (not
    seated here, not this seat's turn), :class:`Conflict` (no hand in play)
    or :class:`IllegalMove` (the engine's refusal, with its rule); nothing
    changes then.  ``Room.DoesNotExist`` for an unknown room.
    """
    if not callable(action) and not isinstance(action, dict):
        raise InvalidRequest(_("无效的动作"))
    if expected_version is None:
        known = None
    rid = room_id(room)
    try:
        with locked_room(rid, expected_version) as room:
            if known is not None:
                hand, seats = known
            else:
                seats = seats_of(room)
                hand = current_hand_counted(room)  # under the row lock: the count is exact
            if seat is None:
                seat = _user_seat(seats, user, claimed_seat)
            record = action
            if callable(action):
                try:
                    record = action(room.game)
                except ValueError as exc:
                    raise InvalidRequest(str(exc)) from None
            record = _record(seat, record)
            rules = get_rules(room.game)
            try:
                move = Action.from_record(record, rules.seats)
            except RecordError as exc:
                raise InvalidRequest(_("无效的动作：%(err)s") % {"err": exc}) from None
            if hand is None or hand.complete or room.status != Room.Status.PLAYING:
                raise Conflict(_("现在没有进行中的牌局"))
            count = hand.n_actions
            state = hand_state(hand, count=count)
            if rules.to_act(state) != seat:
                raise Forbidden(_("还没轮到你"))
            try:
                new_state = rules.apply(state, move)
            except IllegalAction as exc:
                raise IllegalMove(exc.message, exc.rule) from None
            if actor == HandAction.Actor.USER and hold_hidden and _held(room, rules, state, seats):
                room.pending = {
                    "hand": hand.pk, "count": count, "seat": seat,
                    "action": move.to_record(), "user": getattr(user, "pk", None),
                }
                keep_quiet(room)
                return Outcome(True, room.version - 1, "held")
            complete = rules.is_complete(new_state)
            row = {
                "hand_id": hand.pk, "seq": count, "seat": seat, "payload": move.to_record(),
                "actor": actor, "user_id": getattr(user, "pk", None) if actor == HandAction.Actor.USER else None,
            }
            if complete:  # the hand's completion writes more: the action goes in first
                rows.insert(HandAction, row)
            else:  # with the closing UPDATE (one statement on PostgreSQL)
                insert_on_close(room, HandAction, row)
            cache_put((*hand_key(hand), count + 1), new_state)
            if autoplay is not None:
                Seat.objects.filter(room=room, index=seat).update(autoplay=autoplay)
                seats[seat].autoplay = autoplay
            room.pending = None  # a held choice is spent or overtaken (the closing UPDATE writes it)
            if complete:
                finish_hand(room, hand, rules, new_state)
            else:
                set_deadline(room, rules, new_state, seats)
                if known is not None and not hidden.uniform(rules, new_state, seats):
                    # The server's turn: its next one may start from here.  Not
                    # before a decision that may be held (it lands in
                    # Room.pending with no visible version, from another
                    # process): that turn reads the room, so no kept entry is
                    # ever an exception to "exact at its version".
                    turncache.keep_on_commit(room, hand, seats, count + 1)
            return Outcome(True, room.version)
    except StaleVersion:
        if seat is None:  # not seated here: that refusal comes first
            _user_seat(seats_of(Room(pk=rid)), user, claimed_seat)
        return stale_outcome(rid)
