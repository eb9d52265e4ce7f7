"""Reputation for finishing, blocks, reports and moderators' actions.

Every table here belongs to this app: the games app's rows (users, rooms,
matches, hands, chat lines) are only referred to.  Numbers and rules:
:mod:`moderation.reputation` and docs/moderation.md.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: A new player's reputation (Board Game Arena's karma starts at 75 too).
START = 75


class Standing(models.Model):
    """A player's reputation, 0–100 (:data:`START` until the first event);
    only :func:`moderation.reputation.record` changes it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="standing",
                                verbose_name=_("玩家"))
    reputation = models.SmallIntegerField(_("信誉"), default=START)
    updated = models.DateTimeField(_("更新时间"), auto_now=True)

    class Meta:
        verbose_name = _("信誉")
        verbose_name_plural = _("信誉")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.reputation}"


class ReputationEvent(models.Model):
    """One change of a player's reputation: ``reason`` in ``match``.
    ``(user, match, reason)`` is unique, so a doubled request, a retried
    signal or a leave–rejoin–leave in one match counts once."""

    class Reason(models.TextChoices):
        FINISHED = "finished", _("打完一场比赛")
        ABANDONED = "abandoned", _("比赛中途离开")
        AUTOPLAY = "autoplay", _("比赛大部分时间超时托管")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("玩家"))
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+", verbose_name=_("比赛"))
    reason = models.CharField(_("原因"), max_length=12, choices=Reason.choices)
    delta = models.SmallIntegerField(_("变化"))
    created = models.DateTimeField(_("时间"), default=timezone.now)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("信誉变化")
        verbose_name_plural = _("信誉变化")
        constraints = [
            models.UniqueConstraint(fields=["user", "match", "reason"], name="reputation_once_per_match"),
        ]


class RoomRequirement(models.Model):
    """A room option of this app: the reputation a player needs to sit down
    (set by the room's owner; checked on seating)."""

    room = models.OneToOneField("games.Room", on_delete=models.CASCADE, related_name="+", verbose_name=_("房间"))
    min_reputation = models.PositiveSmallIntegerField(_("最低信誉"), default=0)

    class Meta:
        verbose_name = _("入座信誉要求")
        verbose_name_plural = _("入座信誉要求")


class Block(models.Model):
    """``user`` blocked ``blocked``: never at one quick-play table, no seat
    in ``user``'s rooms, ``blocked``'s chat never reaches ``user``.  The
    blocked player is not told."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks",
                             verbose_name=_("玩家"))
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                                verbose_name=_("被拉黑的玩家"))
    created = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("黑名单")
        verbose_name_plural = _("黑名单")
        constraints = [
            models.UniqueConstraint(fields=["user", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~Q(user=models.F("blocked")), name="block_not_self"),
        ]


class Report(models.Model):
    """A player's report of another: ``reason`` and ``note``; the ``hand``
    (one the reporter played) and a copy of its ``chat`` lines are attached
    when the report is filed.  ``status`` open until a moderator acts."""

    class Reason(models.TextChoices):
        ABANDON = "abandon", _("中途离开或故意拖延")
        ABUSE = "abuse", _("辱骂或骚扰")
        CHEAT = "cheat", _("作弊或串通")
        NAME = "name", _("不当的用户名")
        OTHER = "other", _("其他")

    class Source(models.TextChoices):
        TABLE = "table", _("牌桌")
        REPLAY = "replay", _("回放")
        CHAT = "chat", _("聊天")
        PROFILE = "profile", _("个人资料")

    class Status(models.TextChoices):
        OPEN = "open", _("待处理")
        CLOSED = "closed", _("已处理")

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made",
                                 verbose_name=_("举报人"))
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="reports_received", verbose_name=_("被举报人"))
    reason = models.CharField(_("原因"), max_length=8, choices=Reason.choices)
    note = models.TextField(_("说明"), blank=True, max_length=500)
    source = models.CharField(_("来源"), max_length=8, choices=Source.choices)
    hand = models.ForeignKey("games.Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                             verbose_name=_("牌局"))
    room = models.ForeignKey("games.Room", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                             verbose_name=_("房间"))
    chat = models.JSONField(_("聊天记录"), default=list, blank=True)
    status = models.CharField(_("状态"), max_length=8, choices=Status.choices, default=Status.OPEN)
    created = models.DateTimeField(_("时间"), default=timezone.now)
    closed = models.DateTimeField(_("处理时间"), null=True, blank=True)

    class Meta:
        ordering = ["created", "id"]
        verbose_name = _("举报")
        verbose_name_plural = _("举报")
        permissions = [("moderate", _("处理举报和处罚玩家"))]
        indexes = [models.Index(fields=["status", "created"], name="report_status_created"),
                   models.Index(fields=["reporter", "created"], name="report_reporter_created")]

    def __str__(self) -> str:
        return f"#{self.pk} {self.reported_id} ({self.reason})"


class Action(models.Model):
    """A moderator's action on a player (the log: never deleted).  ``kind``
    mute / suspend / ban is a sanction in force from ``created`` until
    ``ends`` (None: a ban, for ever) unless ``lifted``; the check is by
    time, so it ends by itself."""

    class Kind(models.TextChoices):
        DISMISS = "dismiss", _("驳回")
        WARN = "warn", _("警告")
        MUTE = "mute", _("禁言")
        SUSPEND = "suspend", _("禁赛")
        BAN = "ban", _("封禁")

    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                  related_name="+", verbose_name=_("版主"))
    target = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="moderation_actions",
                               verbose_name=_("玩家"))
    report = models.ForeignKey(Report, null=True, blank=True, on_delete=models.SET_NULL, related_name="actions",
                               verbose_name=_("举报"))
    kind = models.CharField(_("处理"), max_length=8, choices=Kind.choices)
    days = models.PositiveSmallIntegerField(_("天数"), null=True, blank=True)
    reason = models.TextField(_("理由"), max_length=500)
    created = models.DateTimeField(_("时间"), default=timezone.now)
    ends = models.DateTimeField(_("结束时间"), null=True, blank=True)
    lifted = models.DateTimeField(_("提前解除"), null=True, blank=True)
    appeal = models.TextField(_("申诉"), blank=True, max_length=1000)
    appealed = models.DateTimeField(_("申诉时间"), null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("管理记录")
        verbose_name_plural = _("管理记录")
        indexes = [models.Index(fields=["target", "kind"], name="action_target_kind")]

    def __str__(self) -> str:
        return f"{self.kind} {self.target_id}"

    def in_force(self, now=None) -> bool:
        """Whether this sanction applies at ``now`` (a warning never does)."""
        now = now or timezone.now()
        if self.kind not in (self.Kind.MUTE, self.Kind.SUSPEND, self.Kind.BAN) or self.lifted:
            return False
        return self.ends is None or self.ends > now
