"""Scheduled events that run themselves.

An event with an :class:`~clubs.schedule_models.EventSchedule` starts at
``starts_at``: round 1 is paired and started by :func:`sweep_schedules` (Celery
beat every 2 s through ``clubs.tasks.sweep_rounds``, or the embedded
topology's sweep thread), and with ``auto_rounds`` each later round
``gap_seconds`` after the previous round ended.  Nothing but the database
says what is due: round 1 at ``starts_at``, round *k* at round *k-1*'s
``ended`` + gap.  A step (:func:`run_due`) runs in one transaction that first
locks the schedule row and re-reads the rounds, then pairs and starts through
:func:`clubs.running.events.pair_round` / :func:`~clubs.running.events.start_round` (which
refuse a second running round and a round number played already), so a
doubled, retried or lost sweep, or a worker killed in the middle (the
transaction rolls back: no room, no round), neither skips nor doubles a round.

Check-in: at the start, an entry whose players did not all check in is
withdrawn before pairing (``no_checkin = withdraw``) or stays and has the
absent players' seats played by bots in every round they have not checked
in for (``bot``).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games import services as game_services

from ..running import announce
from ..running import notify
from ..models import Club, Entry, EntryPlayer, Event, Round
from ..running import events
from ..schedule_models import (  # noqa: F401 (read-only helpers, re-exported)
    CheckIn,
    EventSchedule,
    EventSession,
    club_zone,
    local_time,
    registration_open,
    schedule_of,
)
from ..services import ClubError, Conflict, Forbidden, require

log = logging.getLogger(__name__)

#: "Starts in 15 minutes" goes out this long before the start.
REMINDER = timedelta(minutes=15)
#: Check-in opens this long before the start.
CHECKIN_OPENS = timedelta(minutes=60)


def in_club_zone(club: Club, when: datetime) -> datetime:
    """A naive wall-clock time read in the club's zone; an aware one unchanged."""
    if timezone.is_aware(when):
        return when
    return when.replace(tzinfo=club_zone(club))


#: A start or close further than this from now is refused: the calendar's
#: ends reach past year 9999, and year 1 read in a zone east of UTC overflowed.
HORIZON = timedelta(days=3653)


def _check_horizon(*times: datetime | None, now: datetime | None = None) -> None:
    """Raise :class:`ClubError` unless every given aware time is within
    :data:`HORIZON` of ``now`` (a time at the calendar's ends is refused, not an
    ``OverflowError``)."""
    now = now or timezone.now()
    for when in times:
        if when is None:
            continue
        try:
            ok = abs(when - now) <= HORIZON
        except OverflowError:
            ok = False
        if not ok:
            raise ClubError(_("时间须在距今十年之内"))


def schedule_event(user, event: Event, *, starts_at: datetime, registration_closes: datetime | None = None,
                   auto_rounds: bool = True, gap_minutes: float = 5,
                   no_checkin: str = EventSchedule.NoCheckIn.WITHDRAW, announce_now: bool = True) -> EventSchedule:
    """An organiser gives ``event`` its start (naive times are wall-clock
    times in the club's zone), registration close (None: at the start), the
    automatic rounds with ``gap_minutes`` between them (fractions allowed),
    and the no-check-in rule.  Members are told registration is open (once).
    Raises :class:`Forbidden`, :class:`Conflict` (the event started) or
    :class:`ClubError` (close after the start, negative gap, a time not
    within :data:`HORIZON` of now)."""
    require(user, "clubs.manage_event", event)
    starts_at = in_club_zone(event.club, starts_at)
    closes = in_club_zone(event.club, registration_closes) if registration_closes else None
    _check_horizon(starts_at, closes)
    if closes and closes > starts_at:
        raise ClubError(_("报名截止时间不能晚于开始时间"))
    if gap_minutes < 0 or gap_minutes > 24 * 60:
        raise ClubError(_("两轮间隔须在 0 到 1440 分钟之间"))
    if no_checkin not in EventSchedule.NoCheckIn.values:
        raise ClubError(_("未签到处理方式无效"))
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()
        if event.round_set.exclude(status=Round.Status.PREVIEW).exists():
            raise Conflict(_("比赛已经开始，不能再改日程"))
        sched, _created = EventSchedule.objects.update_or_create(event=event, defaults={
            "starts_at": starts_at, "registration_closes": closes, "auto_rounds": auto_rounds,
            "gap_seconds": int(round(gap_minutes * 60)), "no_checkin": no_checkin,
        })
        if announce_now:
            event.schedule = sched
            announce.registration_open(event)
    notify.event_changed(event.pk)
    return sched


def add_session(user, event: Event, *, starts_at: datetime, first_round: int) -> EventSession:
    """An organiser makes ``first_round`` the first round of a later evening
    that starts at ``starts_at`` (naive: the club's wall clock).  Raises
    :class:`Forbidden`, :class:`Conflict` (no schedule yet, or that round
    started) or :class:`ClubError` (round 1 or beyond the event's rounds, a
    start not after the previous session's or not within :data:`HORIZON` of now)."""
    require(user, "clubs.manage_event", event)
    sched = schedule_of(event)
    if sched is None:
        raise Conflict(_("请先设定比赛的开始时间"))
    starts_at = in_club_zone(event.club, starts_at)
    _check_horizon(starts_at)
    if not 2 <= int(first_round) <= event.rounds:
        raise ClubError(_("场次的首轮须在第 2 轮到最后一轮之间"))
    if event.round_set.filter(number__gte=first_round).exclude(status=Round.Status.PREVIEW).exists():
        raise Conflict(_("这一轮已经开始"))
    earlier = [at for _n, first, at in sessions(sched) if first < first_round]
    if earlier and starts_at <= max(earlier):
        raise ClubError(_("场次须晚于前一场次开始"))
    row, _created = EventSession.objects.update_or_create(
        schedule=sched, first_round=first_round, defaults={"starts_at": starts_at})
    notify.event_changed(event.pk)
    return row


def sessions(sched: EventSchedule) -> list[tuple[int, int, datetime]]:
    """``[(session number, first round, start)]``: session 1 is the schedule's start."""
    rows = [(1, sched.starts_at)] + [(s.first_round, s.starts_at) for s in sched.sessions.order_by("first_round")]
    return [(k, first, at) for k, (first, at) in enumerate(rows, start=1)]


def next_start(sched: EventSchedule, now: datetime | None = None) -> tuple[int, datetime]:
    """``(session number, start)`` of the next session not yet begun (the last one once all have)."""
    now = now or timezone.now()
    parts = sessions(sched)
    return next(((k, at) for k, _f, at in parts if at >= now), (parts[-1][0], parts[-1][2]))


def check_in(user, entry: Entry, now: datetime | None = None) -> CheckIn:
    """A player of ``entry`` checks in (from :data:`CHECKIN_OPENS` before the
    start; again is harmless).  Raises :class:`Forbidden` (not a player of
    the entry) or :class:`Conflict` (not open yet, or the entry withdrawn)."""
    now = now or timezone.now()
    if not entry.players.filter(user=user).exists():
        raise Forbidden(_("这不是你的报名"))
    sched = schedule_of(entry.event)
    if sched is None or now < sched.starts_at - CHECKIN_OPENS:
        raise Conflict(_("签到还没有开始"))
    if entry.status == Entry.Status.WITHDRAWN:
        raise Conflict(_("已经退赛"))
    row, _created = CheckIn.objects.get_or_create(entry=entry, user=user)
    notify.event_changed(entry.event_id)
    return row


def absent_players(event: Event) -> dict[int, list[int]]:
    """``{entry id: [user ids that did not check in]}`` over the active
    entries with a human player missing (bot entries need no check-in)."""
    checked = set(CheckIn.objects.filter(entry__event=event).values_list("entry_id", "user_id"))
    out: dict[int, list[int]] = {}
    rows = EntryPlayer.objects.filter(
        entry__event=event, entry__status=Entry.Status.ACTIVE, entry__is_bot=False, user__isnull=False
    ).order_by("entry_id", "index")
    for p in rows:
        if (p.entry_id, p.user_id) not in checked:
            out.setdefault(p.entry_id, []).append(p.user_id)
    return out


def _organiser(event: Event):
    """Who the automatic steps act as: the event's creator if still an organiser, else the first organiser."""
    if event.created_by is not None and event.created_by.has_perm("clubs.manage_event", event):
        return event.created_by
    return event.club.organisers().first()


def next_round_due(event: Event, sched: EventSchedule) -> tuple[int, datetime] | None:
    """``(round number, when)`` of the next automatic start, or None (a
    round running, all played, or later rounds not automatic)."""
    rounds = list(event.round_set.exclude(status=Round.Status.PREVIEW).order_by("number"))
    if any(r.status == Round.Status.RUNNING for r in rounds) or len(rounds) >= event.rounds:
        return None
    if not rounds:
        return 1, sched.starts_at
    last = rounds[-1]
    session = next((s for s in sched.sessions.all() if s.first_round == last.number + 1), None)
    if session is not None:  # a later evening of a multi-session event starts at its own time
        return last.number + 1, session.starts_at
    if not sched.auto_rounds:
        return None
    return last.number + 1, (last.ended or timezone.now()) + timedelta(seconds=sched.gap_seconds)


def _bots_for_absent(round_: Round, absent_users: set[int]) -> int:
    """Absent players leave their seats in the round's rooms; bots fill them
    (and the room deals if everyone left is ready).  How many seats."""
    if not absent_users:
        return 0
    n = 0
    user_model = None
    for table in round_.tables.select_related("room__owner"):
        room = table.room
        if room is None:
            continue
        user_model = user_model or room.owner.__class__
        for uid in room.seats.filter(user_id__in=absent_users).values_list("user_id", flat=True):
            game_services.leave_seat(room, user_model.objects.get(pk=uid))
            n += 1
        if n:
            try:
                game_services.fill_bots(room, room.owner, "heuristic")
            except game_services.ServiceError:
                pass
    return n


def run_due(event_id: int, now: datetime | None = None) -> str:
    """One step of a scheduled event, if one is due; returns what it did:
    ``"reminded"``, ``"started <n>"``, ``"announced"``, or ``"idle"``."""
    now = now or timezone.now()
    did = "idle"
    started: Round | None = None
    with transaction.atomic():
        sched = EventSchedule.objects.select_for_update().select_related("event__club").filter(pk=event_id).first()
        if sched is None:
            return did
        event = Event.objects.get(pk=event_id)
        event.schedule = sched
        if event.status == Event.Status.FINISHED:
            if not sched.results_announced:
                announce.results(event)
                EventSchedule.objects.filter(pk=event_id).update(results_announced=True)
                did = "announced"
            return did
        for number, _first, at in sessions(sched):
            if at - REMINDER <= now < at + REMINDER and announce.starts_soon(event, number, at):
                did = "reminded"
        due = next_round_due(event, sched)
        if due is None or now < due[1]:
            return did
        number, _when = due
        organiser = _organiser(event)
        if organiser is None:
            log.warning("scheduled event %s: no organiser to act as", event_id)
            return did
        if number == 1 and not sched.checkin_applied:
            absent = absent_players(event)
            if sched.no_checkin == EventSchedule.NoCheckIn.WITHDRAW:
                for entry in Entry.objects.filter(pk__in=list(absent)):
                    events.withdraw(organiser, entry)
            EventSchedule.objects.filter(pk=event_id).update(checkin_applied=True, bot_entries=sorted(absent))
        try:
            preview = events.pair_round(organiser, event)
            if preview.number != number:
                raise Conflict(f"paired round {preview.number}, due {number}")
            started = events.start_round(organiser, preview)
        except ClubError as exc:
            log.warning("scheduled event %s: round %s not started: %s", event_id, number, exc)
            return did
        if sched.no_checkin == EventSchedule.NoCheckIn.BOT:
            absent_users = {u for users in absent_players(event).values() for u in users}
            _bots_for_absent(started, absent_users)
        announce.tables_ready(started)
        did = f"started {number}"
    return did


def sweep_schedules(now: datetime | None = None) -> int:
    """Run every due step of scheduled events (:func:`run_due`); how many events were looked at."""
    now = now or timezone.now()
    ids = list(
        EventSchedule.objects.filter(
            Q(event__status__in=[Event.Status.REGISTERING, Event.Status.RUNNING], starts_at__lte=now + REMINDER)
            | Q(event__status=Event.Status.FINISHED, results_announced=False)
        ).values_list("pk", flat=True)
    )
    for eid in ids:
        try:
            run_due(eid, now)
        except Exception:
            log.exception("schedule sweep: event %s failed", eid)
    return len(ids)


def upcoming(clubs=None, user=None, limit: int = 10, now: datetime | None = None) -> list[Event]:
    """Scheduled events not finished, soonest first: of ``clubs`` (a queryset
    or list of clubs), or of the clubs ``user`` belongs to, or all."""
    now = now or timezone.now()
    rows = Event.objects.filter(schedule__isnull=False).exclude(status=Event.Status.FINISHED)
    if clubs is not None:
        rows = rows.filter(club__in=clubs)
    elif user is not None:
        rows = rows.filter(club__memberships__user=user)
    return list(rows.select_related("club", "schedule").order_by("schedule__starts_at")[:limit])
