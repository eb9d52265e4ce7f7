"""Recurring club events and the site's arena schedule (docs/tournaments.md,
"Recurring events").

* :func:`create_recurring`: an organiser gives a club a recurring event, an
  RFC 5545 ``RRULE`` from a wall-clock first start in a time zone;
* :func:`materialise` (run by the schedule sweep, :func:`sweep_recurring`):
  every occurrence within the schedule's horizon (28 days by default) becomes
  an event of its own, created, scheduled and announced like any other
  (:func:`clubs.running.events.create_event`,
  :func:`clubs.schedule.scheduling.schedule_event`), once: a
  :class:`~clubs.models.RecurringInstance` row per occurrence (a unique
  constraint, the schedule row locked);
* each instance is edited or cancelled on its own through its event
  (:func:`move_instance`, :func:`cancel_instance`); the rule is untouched and
  never re-creates an instance that exists, cancelled or moved;
* :func:`create_site_arenas`: the admin's arena schedule (hourly, daily,
  weekly lines) made into slots, the conflicting ones pruned by importance
  (:func:`clubs.tournament.recurrence.prune`), each kept slot handed once to
  the arena factory registered with :func:`register_arena_factory` (the
  arena format plugs in there; none registered: nothing is created).
"""

from __future__ import annotations

import logging
import threading
import time as _time
from collections.abc import Callable
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import ArenaSchedule, ArenaSlot, Club, Event, RecurringInstance, RecurringSchedule
from ..recurring_models import first_start
from ..running import events as event_commands
from ..services import ClubError, Conflict, require
from ..tournament.recurrence import ArenaPlan, RuleError, arena_slots, check_rule, occurrences, prune
from . import scheduling

log = logging.getLogger(__name__)

#: Keys of a recurring schedule's template passed to ``create_event``.
EVENT_KEYS = ("game", "format", "movement", "rounds", "hands_per_round", "minutes_per_round",
              "turn_seconds", "multiplier", "bot_delay_ms", "no_show", "grace_minutes")


def create_recurring(user, club: Club, *, name: str, rule: str, first_start: datetime,
                     time_zone: str | None = None, horizon_days: int = 28, **template) -> RecurringSchedule:
    """An organiser of ``club`` creates a recurring event: ``rule`` an RRULE
    (``FREQ=WEEKLY;BYDAY=TU``), ``first_start`` a naive wall-clock time in
    ``time_zone`` (default the club's), ``template`` the event's settings
    (keys of :data:`EVENT_KEYS`, plus ``auto_rounds`` and ``gap_minutes``).
    The instances are created by the sweep (or :func:`materialise` at once).
    Raises :class:`Forbidden` or :class:`ClubError` (a rule dateutil cannot
    read or that repeats more than hourly, an unknown setting)."""
    require(user, "clubs.manage_club", club)
    zone = time_zone or club.time_zone
    local = first_start.replace(tzinfo=None)
    try:
        check_rule(rule, local)
        occurrences(rule, local, zone, timezone.now(), timezone.now() + timedelta(days=1))
    except RuleError:
        raise ClubError(_("重复规则无效：请用 RFC 5545 的 RRULE，例如 FREQ=WEEKLY;BYDAY=TU")) from None
    unknown = set(template) - set(EVENT_KEYS) - {"auto_rounds", "gap_minutes"}
    if unknown:
        raise ClubError(_("未知的比赛设置：%(keys)s") % {"keys": ", ".join(sorted(unknown))})
    if not 1 <= int(horizon_days) <= 92:
        raise ClubError(_("提前创建的天数须在 1 到 92 之间"))
    return RecurringSchedule.objects.create(
        club=club, name=name[:80], rule=rule.strip(), starts_on=local.date(), at=local.time(),
        time_zone=zone, horizon_days=horizon_days, template=template, created_by=user,
    )


def _organiser(sched: RecurringSchedule):
    if sched.created_by_id and sched.created_by.has_perm("clubs.manage_club", sched.club):
        return sched.created_by
    return sched.club.organisers().first()


def materialise(sched: RecurringSchedule, now: datetime | None = None) -> list[RecurringInstance]:
    """Create the events of ``sched``'s occurrences from ``now`` to ``now`` +
    its horizon that have no instance yet; returns the instances created.
    Idempotent: the schedule row is locked and an occurrence has one
    instance (unique), so a doubled sweep creates nothing twice.  Each event
    is named "<name> <local date>", scheduled at its occurrence and
    announced (registration open) like any scheduled event."""
    now = now or timezone.now()
    made = []
    with transaction.atomic():
        sched = RecurringSchedule.objects.select_for_update(of=("self",)).select_related("club", "created_by").get(pk=sched.pk)
        if not sched.active:
            return []
        user = _organiser(sched)
        if user is None:
            return []
        starts = occurrences(sched.rule, first_start(sched), sched.time_zone,
                             now, now + timedelta(days=sched.horizon_days), limit=200)
        have = set(sched.instances.filter(occurrence__in=starts).values_list("occurrence", flat=True))
        tpl = dict(sched.template or {})
        for at in starts:
            if at in have:
                continue
            local = at.astimezone(scheduling.club_zone(sched.club)).replace(tzinfo=None)
            kwargs = {k: tpl[k] for k in EVENT_KEYS if k in tpl}
            kwargs.setdefault("game", "shengji")
            event = event_commands.create_event(user, sched.club, name=f"{sched.name} {local:%Y-%m-%d}", **kwargs)
            scheduling.schedule_event(user, event, starts_at=at, auto_rounds=tpl.get("auto_rounds", True),
                                      gap_minutes=float(tpl.get("gap_minutes", 5)))
            made.append(RecurringInstance.objects.create(schedule=sched, occurrence=at, event=event))
    return made


def move_instance(user, instance: RecurringInstance, starts_at: datetime) -> Event:
    """Move one instance's event to ``starts_at`` (naive: the club's wall
    clock) without touching the rule or the other instances; the instance
    keeps its occurrence (its identity and calendar UID).  Its other settings
    are edited as any event's (:func:`clubs.running.events.edit_event`)."""
    event = instance.event
    if event is None or instance.cancelled:
        raise Conflict(_("这次比赛已经取消"))
    sched = event.schedule
    scheduling.schedule_event(user, event, starts_at=starts_at, auto_rounds=sched.auto_rounds,
                              gap_minutes=sched.gap_seconds / 60, no_checkin=sched.no_checkin,
                              announce_now=False)
    return Event.objects.select_related("schedule").get(pk=event.pk)


def cancel_instance(user, instance: RecurringInstance) -> RecurringInstance:
    """Cancel one instance: its event is cancelled
    (:func:`clubs.running.events.cancel_event`), the instance marked, the rule
    and the other instances untouched (the sweep never re-creates it)."""
    if instance.event is not None and instance.event.status not in (Event.Status.FINISHED, Event.Status.CANCELLED):
        event_commands.cancel_event(user, instance.event)
    elif instance.event is None:
        require(user, "clubs.manage_club", instance.schedule.club)
    RecurringInstance.objects.filter(pk=instance.pk).update(cancelled=True)
    instance.cancelled = True
    return instance


# ------------------------------------------------------------------ the site's arenas

#: ``factory(schedule line, slot) -> str``: creates the arena of a kept slot
#: and returns a reference to it (stored in :class:`ArenaSlot`).  Set by the
#: arena format (:func:`register_arena_factory`); None: no arena is created.
_arena_factory: Callable | None = None

#: How far ahead the site's arenas are created.
ARENA_AHEAD = timedelta(hours=24)


def register_arena_factory(factory: Callable | None) -> None:
    """Plug the arena format in: ``factory(line, slot)`` is called once per
    kept slot (an :class:`~clubs.models.ArenaSchedule` line and a
    :class:`~clubs.tournament.recurrence.Slot`) and returns the arena's
    reference (e.g. ``"event:12"``).  None unplugs it."""
    global _arena_factory
    _arena_factory = factory


def planned_arenas(now: datetime | None = None, ahead: timedelta = ARENA_AHEAD):
    """The kept slots of the active arena schedule from ``now`` to ``now`` +
    ``ahead``: ``[(line, slot)]``, conflicts pruned by importance."""
    now = now or timezone.now()
    lines = {str(s.pk): s for s in ArenaSchedule.objects.filter(active=True)}
    plans = [ArenaPlan(key=k, track=s.game, frequency=s.frequency, minutes=s.minutes, minute=s.minute,
                       hour=s.hour, weekday=s.weekday, zone=s.time_zone) for k, s in lines.items()]
    return [(lines[s.key], s) for s in prune(arena_slots(plans, now, now + ahead))]


def create_site_arenas(now: datetime | None = None) -> list[ArenaSlot]:
    """Hand every kept slot not created yet to the arena factory, once (an
    :class:`ArenaSlot` row per line and start, unique); returns the slots
    created.  Without a factory nothing is created."""
    if _arena_factory is None:
        return []
    made = []
    for line, slot in planned_arenas(now):
        if ArenaSlot.objects.filter(schedule=line, starts_at=slot.start).exists():
            continue
        try:
            with transaction.atomic():
                row = ArenaSlot.objects.create(schedule=line, starts_at=slot.start, ends_at=slot.end)
                row.ref = str(_arena_factory(line, slot) or "")[:80]
                row.save(update_fields=["ref"])
        except IntegrityError:  # another sweep made it
            continue
        made.append(row)
    return made


# ------------------------------------------------------------------ the sweep

#: The sweep looks at recurring schedules at most this often (it runs every 2 s).
SWEEP_EVERY_S = 60.0
_last = 0.0
_lock = threading.Lock()


def sweep_recurring(now: datetime | None = None, force: bool = False) -> int:
    """Materialise every active recurring schedule and create the site's
    arenas (at most every :data:`SWEEP_EVERY_S` seconds unless ``force``);
    returns how many instances were created.  Failures are logged."""
    global _last
    with _lock:
        if not force and _time.monotonic() - _last < SWEEP_EVERY_S:
            return 0
        _last = _time.monotonic()
    count = 0
    for sched in RecurringSchedule.objects.filter(active=True):
        try:
            count += len(materialise(sched, now))
        except Exception:
            log.exception("recurring schedule %s failed", sched.pk)
    try:
        create_site_arenas(now)
    except Exception:
        log.exception("site arenas failed")
    return count
