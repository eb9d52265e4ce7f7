"""The quick-play queue, in the database (state survives restarts and is
shared by every web and worker process).

A ``QueueEntry`` is one party waiting for a table of one game: a player, or
two friends queueing as partners (升級).  A pair is *formed* first (the
inviter's entry with a code; status ``forming``) and waits once the friend
accepted.  The matchmaker pass (:mod:`quickplay.services`) moves waiting
entries to ``matched`` with the room it opened; a player who leaves (or whose
page stays closed past the grace time) ends ``left``.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import GAME_CHOICES


def new_code() -> str:
    """A pair invitation code (~60 bits)."""
    return secrets.token_urlsafe(8)[:10]


class QueueEntry(models.Model):
    """One party in (or through) the queue of ``game``.

    ``bot_wait_s``: seconds after ``joined`` from which bots may fill the
    party's table (None: never).  ``rating``: the displayed rating the
    matchmaker uses (a pair: the mean), read when the entry starts waiting.
    ``seen``: the last sign of life from the player's queue page (websocket
    connect or ping); a waiting entry not seen for the grace time is dropped.
    """

    class Status(models.TextChoices):
        FORMING = "forming", _("等待好友")
        WAITING = "waiting", _("排队中")
        MATCHED = "matched", _("已入座")
        LEFT = "left", _("已退出")

    game = models.CharField(_("游戏"), max_length=16, choices=GAME_CHOICES)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entries",
        verbose_name=_("玩家"),
    )
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="queue_partner_entries", verbose_name=_("搭档"),
    )
    code = models.CharField(_("邀请码"), max_length=16, unique=True, default=new_code)
    status = models.CharField(_("状态"), max_length=8, choices=Status.choices,
                              default=Status.WAITING)
    rating = models.FloatField(_("等级分"), default=0)
    bot_wait_s = models.PositiveSmallIntegerField(_("机器人补位等待（秒）"), null=True, blank=True)
    joined = models.DateTimeField(_("加入时间"), default=timezone.now)
    seen = models.DateTimeField(_("最后在线"), default=timezone.now)
    room = models.ForeignKey(
        "games.Room", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("房间"),
    )
    matched = models.DateTimeField(_("入座时间"), null=True, blank=True)

    class Meta:
        verbose_name = _("快速开始排队")
        verbose_name_plural = _("快速开始排队")
        ordering = ["joined", "id"]
        indexes = [models.Index(fields=["game", "status"], name="queue_game_status")]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=Q(status__in=["forming", "waiting"]),
                name="queue_one_active_entry",
            ),
        ]

    def __str__(self) -> str:
        who = self.user.get_username() + (f" + {self.partner.get_username()}" if self.partner_id else "")
        return f"{self.game}: {who} ({self.status})"

    @property
    def joined_ms(self) -> int:
        """``joined`` in epoch milliseconds (the page counts the wait)."""
        return int(self.joined.timestamp() * 1000)

    @property
    def size(self) -> int:
        return 2 if self.partner_id else 1

    def members(self) -> list[int]:
        """The user ids of the party."""
        return [self.user_id] + ([self.partner_id] if self.partner_id else [])
