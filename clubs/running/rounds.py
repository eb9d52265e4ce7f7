"""Running rounds: the round clock, the no-show rule, results as tables finish.

Deadlines live in the database (``Round.deadline``: the round clock;
``Round.seat_deadline``: the no-show grace), and :func:`sweep_rounds` acts on
every running round whose tables are done or whose deadlines passed: Celery
beat runs it every two seconds in the production topology
(``clubs.tasks.sweep_rounds``), a thread of the web process in the embedded
one (:func:`ensure_round_sweeper`).  Every step is idempotent: a table is
finished inside a transaction that first re-reads it under a row lock and
does nothing if it was finished already, so a doubled or lost sweep changes
nothing twice and never hangs a round.

:class:`EventTablePlanner` tells the games services (:mod:`games.services.dealing`)
to deal to a table of bots, to stop dealing when the round's hands are played
or its clock ran out (the hand in progress is finished first), and which
seed and start each duplicate board has.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone
from django.dispatch import Signal

from games.services import dealing
from games import services as game_services
from games.models import Hand, Room
from games.signals import send_robustly

from .. import formats
from . import notify
from ..models import EntryPlayer, Event, EventTable, Round
from . import announce

log = logging.getLogger(__name__)

SWEEP_INTERVAL_S = 2.0


# --------------------------------------------------------------------------- deal planner


def _table_of(room) -> EventTable | None:
    return EventTable.objects.select_related("round__event").filter(room_id=room.pk).first()


class EventTablePlanner:
    """The :mod:`games.services.dealing` planner of event tables (None for other rooms)."""

    def may_deal(self, room) -> bool | None:
        table = _table_of(room)
        if table is None:
            return None
        r = table.round
        if table.finished or r.status != Round.Status.RUNNING or r.paused:
            return False
        event = r.event
        dealt = Hand.objects.filter(match__room_id=room.pk).count()
        if event.hands_per_round and dealt >= event.hands_per_round:
            return False
        if r.deadline and timezone.now() >= r.deadline:
            return False
        return True

    def plan(self, room) -> dealing.DealPlan | None:
        table = _table_of(room)
        if table is None or not table.round.boards:
            return None
        k = Hand.objects.filter(match__room_id=room.pk).count()
        boards = table.round.boards
        if k >= len(boards):
            return None
        return dealing.DealPlan(seed=int(boards[k]["seed"]), start=boards[k]["start"])


PLANNER = EventTablePlanner()


# --------------------------------------------------------------------------- tables


def counted_hands(table: EventTable) -> tuple[list[Hand], bool]:
    """``(complete hands that count, a counted hand still in play)``: the
    first ``hands_per_round`` hands, and none dealt after the round clock."""
    r = table.round
    event = r.event
    hands = list(
        Hand.objects.filter(match__room_id=table.room_id).order_by("match__number", "number")
    )
    if event.hands_per_round:
        hands = hands[: event.hands_per_round]
    if r.deadline:
        hands = [h for h in hands if h.created <= r.deadline]
    return [h for h in hands if h.complete], any(not h.complete for h in hands)


def finish_table(table_id: int, early: bool = False) -> bool:
    """Record a table's result from its counted hands and close its room;
    True if this call finished it (False: it was finished already)."""
    with transaction.atomic():
        table = EventTable.objects.select_for_update().select_related("round__event").get(pk=table_id)
        if table.finished:
            return False
        event = table.round.event
        hooks = formats.hooks(event.game)
        complete, _in_play = counted_hands(table)
        summaries = [h.summary or {} for h in complete]
        result = dict(table.result or {})
        result["entries"] = hooks.round_result(summaries)
        result["hands"] = len(complete)
        if early:
            result["ended_early"] = True
        if event.has_boards:
            score_of = hooks.board_scores
            if event.is_teams:  # the finer team score when the game has one
                score_of = getattr(hooks, "team_board_scores", None) or hooks.board_scores
            boards = [score_of(s) for s in summaries]
            boards += [None] * max(0, (event.hands_per_round or 0) - len(boards))
            result["boards"] = boards
            roles_of = getattr(hooks, "board_roles", None)
            result["roles"] = [roles_of(s) if roles_of else None for s in summaries]
        table.result = result
        table.finished = timezone.now()
        table.save(update_fields=["result", "finished"])
        room = Room.objects.filter(pk=table.room_id).select_related("owner").first()
        if room is not None and room.status != Room.Status.CLOSED:
            game_services.close_room(room, room.owner)
    notify.event_changed(event.pk)
    return True


def _table_done(table: EventTable, now) -> bool:
    r = table.round
    event = r.event
    room = table.room
    if room is None or room.status == Room.Status.CLOSED:
        return True
    complete, in_play = counted_hands(table)
    if event.hands_per_round and len(complete) >= event.hands_per_round:
        return True
    if r.deadline and now >= r.deadline and not in_play:
        return True
    return False


def _apply_no_show(table: EventTable) -> None:
    """At the end of the grace: humans seated but not ready in a room that has
    not dealt yet are absent; the event's rule applies (forfeit, or a bot
    plays the seat and the result counts or not)."""
    room = table.room
    if room is None or room.status != Room.Status.WAITING or Hand.objects.filter(match__room=room).exists():
        return
    absent_users = list(room.seats.filter(user__isnull=False, ready=False).values_list("user_id", flat=True))
    if not absent_users:
        return
    event = table.round.event
    absent_entries = sorted(set(
        EntryPlayer.objects.filter(entry_id__in=[i for i in table.entries if i], user_id__in=absent_users)
        .values_list("entry_id", flat=True)
    ))
    with transaction.atomic():
        t = EventTable.objects.select_for_update().get(pk=table.pk)
        if t.finished or (t.result or {}).get("no_show_applied"):
            return
        res = dict(t.result or {})
        res["no_show_applied"] = True
        if event.no_show != Event.NoShow.BOT_COUNTS:
            res["forfeit"] = absent_entries
        t.result = res
        t.save(update_fields=["result"])
    user_model = room.owner.__class__
    for uid in absent_users:
        try:
            game_services.leave_seat(room, user_model.objects.get(pk=uid))
        except game_services.ServiceError:
            log.info("no-show: user %s already left room %s", uid, room.pk)
    if event.no_show == Event.NoShow.FORFEIT and formats.is_match(event.game):
        finish_table(table.pk)
        return
    try:
        game_services.fill_bots(room, room.owner, "heuristic")
    except game_services.ServiceError:
        pass
    # a bot seat needs no ready: deal if everyone left is ready
    try:
        game_services.start_hand(room)
    except game_services.ServiceError:
        pass


def finish_round(round_id: int, early: bool = False) -> bool:
    """Finish every table of a running round and the round itself (idempotent)."""
    r = Round.objects.select_related("event").get(pk=round_id)
    if r.status != Round.Status.RUNNING:
        return False
    for table in r.tables.filter(finished__isnull=True):
        finish_table(table.pk, early=early)
    return _close_round(r.pk)


def _close_round(round_id: int, by_clock: bool = False) -> bool:
    with transaction.atomic():
        r = Round.objects.select_for_update().select_related("event").get(pk=round_id)
        if r.status != Round.Status.RUNNING or r.tables.filter(finished__isnull=True).exists():
            return False
        r.status = Round.Status.FINISHED
        r.ended = timezone.now()
        r.ended_by_clock = by_clock
        r.save(update_fields=["status", "ended", "ended_by_clock"])
        event = r.event
        if r.number >= event.rounds:
            Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
            transaction.on_commit(lambda: _announce_results(event.pk))
    notify.event_changed(r.event_id)
    return True


def _announce_results(event_id: int) -> None:
    """"Results are published" to the entrants and organisers (once each)."""
    try:
        announce.results(Event.objects.select_related("club").get(pk=event_id))
    except Exception:  # a scheduled event's sweep retries; never fail the round's close
        log.exception("results notice of event %s failed", event_id)


def advance_round(round_id: int) -> str:
    """One sweep step for a round: no-shows after the grace, finished tables,
    the round clock; closes the round when every table finished."""
    now = timezone.now()
    r = Round.objects.select_related("event").get(pk=round_id)
    if r.status != Round.Status.RUNNING or r.paused:
        return "idle"
    by_clock = bool(r.deadline and now >= r.deadline)
    for table in r.tables.filter(finished__isnull=True).select_related("room", "round__event"):
        if r.seat_deadline and now >= r.seat_deadline:
            _apply_no_show(table)
            table.refresh_from_db()
            if table.finished:
                continue
        if _table_done(table, now):
            finish_table(table.pk)
    return "closed" if _close_round(r.pk, by_clock=by_clock) else "running"


def sweep_rounds() -> int:
    """Advance every running round (beat, every 2 s); returns how many."""
    ids = list(Round.objects.filter(status=Round.Status.RUNNING, paused=False).values_list("pk", flat=True))
    for rid in ids:
        try:
            advance_round(rid)
        except Exception:
            log.exception("round sweep: round %s failed", rid)
    send_robustly(rounds_swept, None, "round sweep")
    return len(ids)


#: Sent at the end of every :func:`sweep_rounds` (no arguments): the layer above
#: (``clubs.schedule.scheduling``: scheduled starts and automatic rounds) runs its
#: own sweep on it, so this module does not import the scheduler that drives it.
rounds_swept = Signal()


# --------------------------------------------------------------------------- embedded sweeper

_sweeper: threading.Thread | None = None
_sweeper_lock = threading.Lock()


def ensure_round_sweeper() -> None:
    """Start the in-process round sweep once (embedded topology only; in
    production Celery beat runs ``clubs.tasks.sweep_rounds``)."""
    global _sweeper
    if getattr(settings, "GAMES_SCHEDULING_DISABLED", False) or not settings.GAMES_INPROCESS_TASKS:
        return
    with _sweeper_lock:
        if _sweeper is not None and _sweeper.is_alive():
            return
        _sweeper = threading.Thread(target=_sweep_forever, name="clubs-round-sweep", daemon=True)
        _sweeper.start()


def _sweep_forever() -> None:
    while True:
        time.sleep(SWEEP_INTERVAL_S)
        if getattr(settings, "GAMES_SCHEDULING_DISABLED", False):
            continue
        try:
            sweep_rounds()
        except Exception:
            log.exception("round sweep failed")
        finally:
            connections.close_all()
