"""A club's recurring events and the site's arena schedule (the tables;
the behaviour is :mod:`clubs.schedule.recurring`, the pure rules
:mod:`clubs.tournament.recurrence`).  Imported at the end of
:mod:`clubs.models` so Django registers them under the ``clubs`` app.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class RecurringSchedule(models.Model):
    """A club's recurring event: an RFC 5545 ``RRULE`` (e.g.
    ``FREQ=WEEKLY;BYDAY=TU``) repeated from the wall clock ``starts_on`` at ``at``
    in ``time_zone`` (the club's by default).  Each occurrence within
    ``horizon_days`` becomes an event of its own (:class:`RecurringInstance`),
    made from ``template`` (the keyword arguments of
    :func:`clubs.running.events.create_event`, plus ``auto_rounds`` and
    ``gap_minutes`` for its schedule).  ``active`` off: no new instance."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="recurring",
                             verbose_name=_("俱乐部"))
    name = models.CharField(_("名称"), max_length=80)
    rule = models.CharField(_("重复规则（RRULE）"), max_length=200,
                            help_text=_("RFC 5545 的 RRULE，例如 FREQ=WEEKLY;BYDAY=TU"))
    starts_on = models.DateField(_("首次日期"))
    at = models.TimeField(_("开始钟点"), help_text=_("按下面的时区理解的钟点时间"))
    time_zone = models.CharField(_("时区"), max_length=40, default="Asia/Shanghai")
    horizon_days = models.PositiveSmallIntegerField(_("提前创建（天）"), default=28)
    template = models.JSONField(_("比赛设置"), default=dict, blank=True)
    active = models.BooleanField(_("启用"), default=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("创建者"))
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        ordering = ["club", "name"]
        verbose_name = _("定期比赛")
        verbose_name_plural = _("定期比赛")

    def __str__(self) -> str:
        return f"{self.club}: {self.name} ({self.rule})"


class RecurringInstance(models.Model):
    """One occurrence of a :class:`RecurringSchedule`: ``occurrence`` (UTC)
    is the rule's start for it, kept as the instance's identity (its calendar
    UID) even when its event is moved or edited; ``cancelled`` when its event
    was cancelled on its own.  One row per occurrence: the sweep creates it
    once."""

    schedule = models.ForeignKey(RecurringSchedule, on_delete=models.CASCADE, related_name="instances")
    occurrence = models.DateTimeField(_("规则时间"))
    event = models.OneToOneField("clubs.Event", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="recurrence")
    cancelled = models.BooleanField(_("已取消"), default=False)

    class Meta:
        ordering = ["schedule", "occurrence"]
        verbose_name = _("定期比赛的一次")
        verbose_name_plural = _("定期比赛的各次")
        constraints = [models.UniqueConstraint(fields=["schedule", "occurrence"], name="recurring_once")]


class ArenaSchedule(models.Model):
    """A line of the site's arena schedule, kept by admins: an arena of
    ``game`` every hour (at ``minute``), day (at ``hour``:``minute``) or
    week (on ``weekday``), lasting ``minutes``, in ``time_zone``.  Where slots
    of the same game overlap the more important frequency keeps its slot
    (weekly over daily over hourly; :func:`clubs.tournament.recurrence.prune`)."""

    class Frequency(models.TextChoices):
        HOURLY = "hourly", _("每小时")
        DAILY = "daily", _("每天")
        WEEKLY = "weekly", _("每周")

    name = models.CharField(_("名称"), max_length=80)
    game = models.CharField(_("游戏"), max_length=16)
    frequency = models.CharField(_("频率"), max_length=8, choices=Frequency.choices)
    minute = models.PositiveSmallIntegerField(_("分"), default=0)
    hour = models.PositiveSmallIntegerField(_("时"), default=20)
    weekday = models.PositiveSmallIntegerField(_("星期（0 为星期一）"), default=5)
    minutes = models.PositiveSmallIntegerField(_("时长（分钟）"), default=57)
    time_zone = models.CharField(_("时区"), max_length=40, default="Asia/Shanghai")
    bot_fill_seconds = models.PositiveIntegerField(
        _("机器人补位等待（秒）"), null=True, blank=True, default=120,
        help_text=_("留空：不用机器人补位"))
    active = models.BooleanField(_("启用"), default=True)

    class Meta:
        ordering = ["game", "frequency", "name"]
        verbose_name = _("站点竞技场日程")
        verbose_name_plural = _("站点竞技场日程")

    def __str__(self) -> str:
        return f"{self.name} ({self.get_frequency_display()})"


class ArenaSlot(models.Model):
    """A slot of the arena schedule that was created (once): its start, the
    schedule line, and what the arena factory returned for it (``ref``)."""

    schedule = models.ForeignKey(ArenaSchedule, on_delete=models.CASCADE, related_name="slots")
    starts_at = models.DateTimeField(_("开始时间"))
    ends_at = models.DateTimeField(_("结束时间"))
    ref = models.CharField(_("竞技场"), max_length=80, blank=True)

    class Meta:
        ordering = ["starts_at"]
        verbose_name = _("竞技场时段")
        verbose_name_plural = _("竞技场时段")
        constraints = [models.UniqueConstraint(fields=["schedule", "starts_at"], name="arena_slot_once")]


def first_start(sched: RecurringSchedule):
    """The rule's first start as a naive wall-clock ``datetime`` in its zone."""
    from datetime import datetime

    return datetime.combine(sched.starts_on, sched.at)
