"""Accounts data: the title ladder, per-game standings and the points ledger (C4).

Ruling C4: each account has game points (游戏积分) per game; a ladder of titles
maps points to a title (the highest row whose threshold is ≤ the points;
negative points keep the first title); admins edit the ladder per game; every
change is already multiplied by the room multiplier when it reaches the ledger.

All writes go through :mod:`accounts.ledger`; these models hold no logic that
changes state.
"""

from collections.abc import Sequence

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from . import catalog


class _GameCodes(Sequence):
    """The codes of the games that keep points, in the catalog's order (read
    on every use: the games app provides them, :mod:`accounts.catalog`)."""

    def __getitem__(self, index):
        return catalog.codes()[index]

    def __len__(self) -> int:
        return len(catalog.codes())

    def __repr__(self) -> str:
        return repr(catalog.codes())


#: The games that keep points (a live view of :func:`accounts.catalog.codes`).
GAME_CODES = _GameCodes()

#: Display labels for the seeded ladder names.  The ladder is stored exactly as the
#: rule text writes it (traditional characters, ruling C4); the UI shows
#: the names in the reader's language through these translatable labels.  A name an
#: admin changed to something else is shown as stored.
TITLE_LABELS = {
    "幼兒班": _("幼儿班"),
    "學前班": _("学前班"),
    "小學生": _("小学生"),
    "國中生": _("初中生"),
    "高中生": _("高中生"),
    "大學生": _("大学生"),
    "學士": _("学士"),
    "研究生": _("研究生"),
    "碩士": _("硕士"),
    "博士生": _("博士生"),
    "助教": _("助教"),
    "講師": _("讲师"),
    "副教授": _("副教授"),
    "教授": _("教授"),
    "博導": _("博导"),
    "院士": _("院士"),
    "院長": _("院长"),
    "校長": _("校长"),
}


class LevelTitle(models.Model):
    """One row of a game's title ladder (C4): ``name`` from ``threshold`` points up.

    ``level_no`` is the row number of the rule text (1 = 幼兒班 … 18 = 校長).
    """

    game = models.CharField(_("游戏"), max_length=20, choices=catalog.choices)
    level_no = models.PositiveSmallIntegerField(_("等级数"))
    name = models.CharField(_("等级名"), max_length=40)
    threshold = models.IntegerField(_("积分门槛"))

    class Meta:
        verbose_name = _("等级称号")
        verbose_name_plural = _("等级称号")
        ordering = ["game", "threshold"]
        constraints = [
            models.UniqueConstraint(fields=["game", "level_no"], name="leveltitle_game_level_unique"),
            models.UniqueConstraint(fields=["game", "threshold"], name="leveltitle_game_threshold_unique"),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        """The title in the active language (seeded names are translated, others as stored)."""
        label = TITLE_LABELS.get(self.name)
        return str(label) if label is not None else self.name


class PlayerStanding(models.Model):
    """A user's current game points in one game (C4).  Changed only by ``ledger.credit``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="standings",
        verbose_name=_("用户"),
    )
    game = models.CharField(_("游戏"), max_length=20, choices=catalog.choices)
    points = models.BigIntegerField(_("游戏积分"), default=0)
    updated = models.DateTimeField(_("更新时间"), auto_now=True)

    class Meta:
        verbose_name = _("玩家积分")
        verbose_name_plural = _("玩家积分")
        ordering = ["game", "-points"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="playerstanding_user_game_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_game_display()} · {self.points}"


class PointsEntry(models.Model):
    """One game-point change (C4), already multiplied by the room multiplier.

    ``hand`` is the ``games.Hand`` that caused the change (``None`` for an admin
    adjustment, and kept as ``None`` if the hand is ever deleted).  The standing is
    the sum of a user's entries.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="points_entries",
        verbose_name=_("用户"),
    )
    game = models.CharField(_("游戏"), max_length=20, choices=catalog.choices)
    delta = models.IntegerField(_("积分变化"))
    hand = models.ForeignKey(
        "games.Hand", null=True, blank=True, on_delete=models.SET_NULL,
        related_name="points_entries", verbose_name=_("牌局"),
    )
    reason = models.CharField(_("原因"), max_length=40, default="hand")
    created = models.DateTimeField(_("时间"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("积分记录")
        verbose_name_plural = _("积分记录")
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["user", "game", "-created"], name="pointsentry_user_game_idx")]

    def __str__(self) -> str:
        return f"{self.user} · {self.game} · {self.delta:+d}"

    @property
    def reason_display(self) -> str:
        """The reason in the active language when it is one of the known codes."""
        label = catalog.reason_label(self.reason)
        return str(label) if label is not None else self.reason


#: Reason codes every game may write; a game's own codes (and their words)
#: come from :func:`accounts.catalog.reason_label`.
REASON_LABELS = catalog.COMMON_REASONS


class Preference(models.Model):
    """A user's settings that outlive a browser (one row per user, made on
    first need).  ``language``: one of ``settings.LANGUAGES``' codes, the
    language notices and their e-mails are written in for this user; blank =
    the site's default (``settings.LANGUAGE_CODE``).  Written only by
    :mod:`accounts.preferences` (on ``set_language`` and on log-in)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
        related_name="preference", verbose_name=_("用户"),
    )
    language = models.CharField(_("语言"), max_length=16, blank=True, choices=settings.LANGUAGES)
    updated = models.DateTimeField(_("更新时间"), auto_now=True)

    class Meta:
        verbose_name = _("偏好设置")
        verbose_name_plural = _("偏好设置")

    def __str__(self) -> str:
        return f"{self.user} · {self.language or '-'}"
