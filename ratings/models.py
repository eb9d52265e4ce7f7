"""Ratings per game (openskill Plackett–Luce, :mod:`ratings.compute`).

``PlayerRating`` is a user's current rating in one game; ``RatedHand`` one
rated hand, its ``id`` giving the order in which hands were rated (the order
``rebuild_ratings`` replays them in); ``RatingChange`` one seat's before/after
in that hand (the history behind the profile graph and the "+12" on the
result panel).  Written only by :mod:`ratings.services` and
:mod:`ratings.rebuild`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import GAME_CHOICES

from . import compute


class PlayerRating(models.Model):
    """A user's rating in one game: μ and σ of the model, the displayed
    ``rating`` (:func:`ratings.compute.display` of μ, kept for ordering), and
    counts of rated hands, wins and draws."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings",
        verbose_name=_("用户"),
    )
    game = models.CharField(_("游戏"), max_length=20, choices=GAME_CHOICES)
    mu = models.FloatField("μ", default=compute.INITIAL[0])
    sigma = models.FloatField("σ", default=compute.INITIAL[1])
    rating = models.IntegerField(_("等级分"), default=compute.display(compute.INITIAL[0]))
    hands = models.PositiveIntegerField(_("局数"), default=0)
    wins = models.PositiveIntegerField(_("胜"), default=0)
    draws = models.PositiveIntegerField(_("平"), default=0)
    updated = models.DateTimeField(_("更新时间"), auto_now=True)

    class Meta:
        verbose_name = _("等级分")
        verbose_name_plural = _("等级分")
        ordering = ["game", "-rating"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="playerrating_user_game"),
        ]
        indexes = [models.Index(fields=["game", "-rating"], name="playerrating_game_rating")]

    def __str__(self) -> str:
        return f"{self.user} · {self.game} · {self.rating}"

    @property
    def provisional(self) -> bool:
        """True during the first :data:`ratings.compute.PROVISIONAL_HANDS` hands."""
        return compute.is_provisional(self.hands)

    @property
    def win_rate(self) -> float | None:
        """Wins per rated hand (0..1), None before the first."""
        return self.wins / self.hands if self.hands else None


class RatedHand(models.Model):
    """A hand whose result changed ratings; ``id`` order is rating order."""

    hand = models.OneToOneField(
        "games.Hand", on_delete=models.CASCADE, related_name="rated", verbose_name=_("牌局"),
    )
    game = models.CharField(_("游戏"), max_length=20, choices=GAME_CHOICES)
    created = models.DateTimeField(_("时间"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("计分牌局")
        verbose_name_plural = _("计分牌局")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.game} hand {self.hand_id}"


class RatingChange(models.Model):
    """One seat of a rated hand: who sat there (``user``, or a bot level),
    its team and rank, the outcome, and μ/σ/displayed rating before and after
    (a bot's are its fixed level).  ``provisional``: the player was still
    provisional after this hand."""

    class Outcome(models.TextChoices):
        WIN = "win", _("胜")
        LOSS = "loss", _("负")
        DRAW = "draw", _("平")

    rated_hand = models.ForeignKey(RatedHand, on_delete=models.CASCADE, related_name="changes")
    game = models.CharField(_("游戏"), max_length=20, choices=GAME_CHOICES)
    seat = models.PositiveSmallIntegerField(_("座位"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="rating_changes", verbose_name=_("用户"),
    )
    bot = models.CharField(_("机器人"), max_length=16, blank=True, default="")
    team = models.PositiveSmallIntegerField(_("队"))
    rank = models.PositiveSmallIntegerField(_("名次"))
    outcome = models.CharField(_("结果"), max_length=4, choices=Outcome.choices)
    mu_before = models.FloatField("μ₀")
    sigma_before = models.FloatField("σ₀")
    mu_after = models.FloatField("μ")
    sigma_after = models.FloatField("σ")
    rating_before = models.IntegerField(_("之前"))
    rating_after = models.IntegerField(_("之后"))
    provisional = models.BooleanField(_("暂定"), default=False)
    created = models.DateTimeField(_("时间"), default=timezone.now)

    class Meta:
        verbose_name = _("等级分变化")
        verbose_name_plural = _("等级分变化")
        ordering = ["rated_hand", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["rated_hand", "seat"], name="ratingchange_hand_seat"),
        ]
        indexes = [
            models.Index(fields=["user", "game", "created"], name="ratingchange_user_game"),
            models.Index(fields=["game", "created"], name="ratingchange_game_created"),
        ]

    def __str__(self) -> str:
        return f"{self.rated_hand_id}#{self.seat} {self.delta:+d}"

    @property
    def delta(self) -> int:
        """The displayed change, e.g. 12 for "+12"."""
        return self.rating_after - self.rating_before
