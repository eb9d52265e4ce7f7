"""Scheduled events: when an event starts, when registration
closes, whether rounds start by themselves, and who checked in.

Kept apart from :mod:`clubs.models` (which imports this module at its end so
Django registers the models under the ``clubs`` app).  The behaviour is in
:mod:`clubs.schedule.scheduling`.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class EventSchedule(models.Model):
    """The schedule of one event.

    ``starts_at`` (aware, stored in UTC; entered and shown in the club's time
    zone) is when round 1 is paired and started; ``registration_closes`` (None:
    at the start) ends registration.  With ``auto_rounds`` every later round is
    paired and started ``gap_seconds`` after the previous round ended (the
    round's ``ended`` is the deadline in the database; the sweep
    :func:`clubs.schedule.scheduling.sweep_schedules` acts on it).  ``no_checkin`` says
    what happens at the start to an entry none of whose players checked in:
    withdrawn before pairing, or its seats played by bots.
    """

    class NoCheckIn(models.TextChoices):
        WITHDRAW = "withdraw", _("开赛前退赛")
        BOT = "bot", _("机器人代打")

    event = models.OneToOneField(
        "clubs.Event", on_delete=models.CASCADE, primary_key=True, related_name="schedule"
    )
    starts_at = models.DateTimeField(_("开始时间"))
    registration_closes = models.DateTimeField(_("报名截止"), null=True, blank=True)
    auto_rounds = models.BooleanField(_("自动开始各轮"), default=True)
    gap_seconds = models.PositiveIntegerField(_("两轮间隔（秒）"), default=300)
    no_checkin = models.CharField(
        _("未签到处理"), max_length=10, choices=NoCheckIn.choices, default=NoCheckIn.WITHDRAW
    )
    checkin_applied = models.BooleanField(_("已处理签到"), default=False)
    bot_entries = models.JSONField(_("机器人代打的参赛者"), default=list, blank=True)
    results_announced = models.BooleanField(_("已公布成绩"), default=False)

    class Meta:
        verbose_name = _("比赛日程")
        verbose_name_plural = _("比赛日程")
        indexes = [models.Index(fields=["starts_at"], name="schedule_starts_at")]

    def __str__(self) -> str:
        return f"{self.event_id} @ {self.starts_at:%Y-%m-%d %H:%M}"


class CheckIn(models.Model):
    """Player ``user`` of ``entry`` checked in for the scheduled start."""

    entry = models.ForeignKey("clubs.Entry", on_delete=models.CASCADE, related_name="checkins")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(_("签到时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("签到")
        verbose_name_plural = _("签到")
        constraints = [models.UniqueConstraint(fields=["entry", "user"], name="checkin_entry_user")]


class EventSession(models.Model):
    """A later evening of a multi-session event: round ``first_round`` (and
    the rounds after it, up to the next session's first) starts at
    ``starts_at`` (aware; the club's zone on the page) instead of a gap after
    the previous round.  Session 1 is the schedule's own start; standings
    carry over (they are the event's)."""

    schedule = models.ForeignKey(EventSchedule, on_delete=models.CASCADE, related_name="sessions")
    first_round = models.PositiveSmallIntegerField(_("首轮"))
    starts_at = models.DateTimeField(_("开始时间"))

    class Meta:
        ordering = ["schedule", "first_round"]
        verbose_name = _("场次")
        verbose_name_plural = _("场次")
        constraints = [models.UniqueConstraint(fields=["schedule", "first_round"], name="session_first_round")]


# ------------------------------------------------------------------ read-only helpers
# (here rather than in clubs.schedule.scheduling so that announce/events can read them without
# importing the module that drives them)


def club_zone(club) -> zoneinfo.ZoneInfo:
    """The club's time zone (the site's if the name is unknown)."""
    try:
        return zoneinfo.ZoneInfo(club.time_zone or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


def local_time(event, when: datetime) -> datetime:
    """``when`` (aware) in the event's club's time zone."""
    return when.astimezone(club_zone(event.club))


def schedule_of(event) -> EventSchedule | None:
    """The event's schedule, or None for an event started by hand."""
    try:
        return event.schedule
    except EventSchedule.DoesNotExist:
        return None


def registration_open(event, now: datetime | None = None) -> bool:
    """False once a scheduled event's registration closed (its close time, or
    its start); True for an unscheduled event that has not finished."""
    if event.status == type(event).Status.FINISHED:
        return False
    sched = schedule_of(event)
    if sched is None:
        return True
    now = now or timezone.now()
    return now < (sched.registration_closes or sched.starts_at)
