"""Stored hand reviews: computed once per hand, never recomputed; and
"play this deal again" rooms (:class:`DealReplay`).

:class:`HandReview` holds the engine's review (:meth:`games.engine.review.HandReview.to_json`)
of one completed hand; :class:`SeatAccuracy` one row per human seat of it,
so that a profile averages a player's accuracy per game without reading the
reviews.  Written only by :mod:`games.services.reviews`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class HandReview(models.Model):
    """The review of ``hand``: ``status`` ``pending`` (asked for, not yet
    computed), ``done`` (``data`` set) or ``failed`` (``error`` says why);
    ``budget_ms``/``cpu_ms``: CPU milliseconds allowed and spent."""

    class Status(models.TextChoices):
        PENDING = "pending", _("等待复盘")
        DONE = "done", _("复盘完成")
        FAILED = "failed", _("复盘失败")

    hand = models.OneToOneField("games.Hand", on_delete=models.CASCADE, related_name="review")
    status = models.CharField(_("状态"), max_length=8, choices=Status.choices,
                              default=Status.PENDING)
    data = models.JSONField(_("复盘"), null=True, blank=True)
    error = models.CharField(_("错误"), max_length=200, blank=True)
    budget_ms = models.FloatField(_("预算（毫秒）"), default=0)
    cpu_ms = models.FloatField(_("用时（毫秒）"), default=0)
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)
    finished = models.DateTimeField(_("完成时间"), null=True, blank=True)

    class Meta:
        verbose_name = _("复盘")
        verbose_name_plural = _("复盘")

    def __str__(self) -> str:
        return f"review of hand {self.hand_id} ({self.status})"


class SeatAccuracy(models.Model):
    """A human seat's accuracy (0–100) in a reviewed hand of ``game``."""

    review = models.ForeignKey(HandReview, on_delete=models.CASCADE, related_name="accuracies")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    game = models.CharField(_("游戏"), max_length=16)
    seat = models.PositiveSmallIntegerField(_("座位"))
    accuracy = models.FloatField(_("准确度"))
    decisions = models.PositiveIntegerField(_("决定数"))
    created = models.DateTimeField(_("时间"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("准确度")
        verbose_name_plural = _("准确度")
        constraints = [models.UniqueConstraint(fields=["review", "seat"],
                                               name="seataccuracy_review_seat")]
        indexes = [models.Index(fields=["user", "game"], name="seataccuracy_user_game")]


class DealReplay(models.Model):
    """A private room where ``user`` plays the deal of ``source`` again
    ("play this deal again"): same seed and start (levels, dealer,
    tribute), ``user`` at ``seat``, bots at the others; one deal, unscored
    (the player knows the cards: no ledger credit, no rating)."""

    room = models.OneToOneField("games.Room", on_delete=models.CASCADE,
                                related_name="deal_replay")
    source = models.ForeignKey("games.Hand", on_delete=models.CASCADE, related_name="replays")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    seat = models.PositiveSmallIntegerField(_("座位"))
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("重打")
        verbose_name_plural = _("重打")
