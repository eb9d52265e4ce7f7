"""保皇's own tables (moved from :mod:`games.models`): the tribute
history (B13) and the leaving settlements (B14).

The generic services reach them through :class:`games.models.Hand`'s reverse
relations ``tributes`` and ``settlements`` (:func:`games.services.settlement.related_model`),
so no generic module names this app.  Migrations ``baohuang.0001``/``games.0008``
move the models' state (the tables stay), ``baohuang.0002`` renames
``games_tributerecord``/``games_tributesettlement`` to this app's names, rows kept.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Hand


class TributeRecord(models.Model):
    """One card of tribute (進貢, B13) paid in ``hand``: the tribute history."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="tributes")
    from_seat = models.PositiveSmallIntegerField(_("进贡座位"))
    to_seat = models.PositiveSmallIntegerField(_("受贡座位"))
    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="tributes_paid",
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="tributes_received",
    )
    card = models.CharField(_("牌"), max_length=4)
    created = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        ordering = ["hand", "id"]
        verbose_name = _("进贡记录")
        verbose_name_plural = _("进贡记录")

    def __str__(self) -> str:
        return f"{self.hand_id}: {self.from_seat}→{self.to_seat} {self.card}"


class TributeSettlement(models.Model):
    """Tribute owed when a player left (or the room closed), settled in game
    points instead of cards (離桌結算, ruling B14).

    ``hand`` is the room's latest hand at that moment: either a completed (or
    voided) hand whose result the next hand would have paid tribute for, or a
    hand dealt but still in its crown phase (tribute unpaid).  ``points`` are
    per seat, room multiplier included (the engine's ``leave_settlement``);
    humans among them were credited through ``accounts.ledger`` with reason
    ``"tribute-settlement"``.  ``carry`` is the carry-in (``match_to_json``)
    for the hand after ``hand`` once the tribute lapsed; it is None when the
    lapse was applied to ``hand`` itself (its ``start`` was rewritten before
    its tribute was paid).  ``seat``/``user`` name the leaver (None: the room
    was closed).
    """

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="settlements")
    seat = models.PositiveSmallIntegerField(_("离座座位"), null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    points = models.JSONField(_("积分"), default=list)
    carry = models.JSONField(_("下一局开局"), null=True, blank=True)
    created = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        ordering = ["hand", "id"]
        verbose_name = _("进贡结算")
        verbose_name_plural = _("进贡结算")

    def __str__(self) -> str:
        return f"{self.hand_id}: B14 {self.points}"
