"""The arena's tables: a timed event players join and leave at will.

An :class:`Arena` belongs to an :class:`~clubs.models.Event` of format
``arena`` (one row per event, its clock and options).  Players wait in its
pool (:class:`ArenaPlayer`, ``state`` WAITING); as soon as enough wait,
:mod:`clubs.arena.pool` seats them at an :class:`ArenaTable` (one room); when
the table's hands are played they go back to the pool.  Every completed hand
is scored once per player (:class:`ArenaScore`, unique per hand and player),
however often ``hand_completed`` is delivered.  Rules: docs/tournaments.md,
"Arena".
"""

from __future__ import annotations

import re

from django.conf import settings
from django.db import models
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _


class Arena(models.Model):
    """An arena: ``seconds`` long from ``starts_at`` (``ends_at`` once
    opened), ``hands_per_table`` hands per table (the "short set"),
    ``berserk`` allowed or not, bots fill a table after ``bot_fill_seconds``
    of waiting (None: never, the default), and as a **team battle** the
    clubs of ``teams`` compete, each club's best ``team_size`` players
    counting.  ``open_to_all``: any signed-in player may join, not only the
    club's members (the site's scheduled arenas, :mod:`clubs.arena.site`).
    A scheduled arena is created with ``starts_at`` and ``ends_at`` set and
    its event still registering; the sweep starts it at ``starts_at``."""

    event = models.OneToOneField("clubs.Event", primary_key=True, on_delete=models.CASCADE, related_name="arena")
    seconds = models.PositiveIntegerField(_("时长（秒）"), default=3600)
    hands_per_table = models.PositiveSmallIntegerField(_("每桌局数"), default=1)
    berserk = models.BooleanField(_("允许狂暴"), default=True)
    bot_fill_seconds = models.PositiveIntegerField(_("机器人补位等待（秒）"), null=True, blank=True)
    team_battle = models.BooleanField(_("俱乐部团体赛"), default=False)
    team_size = models.PositiveSmallIntegerField(_("每队计分人数"), default=5)
    open_to_all = models.BooleanField(_("所有玩家可加入"), default=False)
    teams = models.ManyToManyField("clubs.Club", blank=True, related_name="arena_battles", verbose_name=_("参赛俱乐部"))
    starts_at = models.DateTimeField(_("开始时间"), null=True, blank=True)
    ends_at = models.DateTimeField(_("结束时间"), null=True, blank=True)
    tables_made = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("竞技场")
        verbose_name_plural = _("竞技场")

    def __str__(self) -> str:
        return str(self.event)


class ArenaPlayer(models.Model):
    """A player of an arena (``user`` None: a bot entrant, which scores like
    a player; the bots that fill a table are no ArenaPlayer and never score).
    ``rating``: the rating when joining (rank for grouping); ``last_mates``:
    the ArenaPlayer ids of the previous table; ``streak``: wins in a row
    (two or more: on fire, the next hand's points double)."""

    class State(models.TextChoices):
        WAITING = "waiting", _("等待中")
        PLAYING = "playing", _("对局中")
        AWAY = "away", _("已离开")

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="arena_players")
    name = models.CharField(_("名称"), max_length=80)
    team = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                             verbose_name=_("队伍"))
    rating = models.FloatField(_("等级分"), default=1500)
    state = models.CharField(_("状态"), max_length=8, choices=State.choices, default=State.WAITING)
    waiting_since = models.DateTimeField(null=True, blank=True)
    last_mates = models.JSONField(default=list, blank=True)
    last_partner = models.IntegerField(null=True, blank=True)
    streak = models.PositiveSmallIntegerField(default=0)
    berserk = models.BooleanField(_("狂暴"), default=False)
    table = models.ForeignKey("clubs.ArenaTable", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["arena", "id"]
        verbose_name = _("竞技场选手")
        verbose_name_plural = _("竞技场选手")
        constraints = [
            models.UniqueConstraint(fields=["arena", "user"], condition=models.Q(user__isnull=False),
                                    name="arena_player_user"),
        ]
        indexes = [models.Index(fields=["arena", "state"], name="arena_player_state")]

    def __str__(self) -> str:
        return self.name

    @property
    def shown_name(self):
        """The name as the reader sees it: a person's as stored; a bot
        entrant's ("机器人3", stored in the language of whoever added it) as
        the reader calls bot 3 (a lazy string, "Bot3" on an English page)."""
        if self.user_id is None:
            digits = re.search(r"(\d+)$", self.name or "")
            if digits:
                return format_lazy("{}{}", _("机器人"), int(digits.group(1)))
        return self.name


class ArenaTable(models.Model):
    """Table ``number`` of an arena: its room and, per seat, the ArenaPlayer
    id (None: a bot filling the seat, never scoring); ``berserk``: the ids
    who went berserk at this table (half the turn time, +1 on a win)."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("桌号"))
    room = models.OneToOneField("games.Room", null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="arena_table")
    players = models.JSONField(default=list)
    berserk = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["arena", "number"]
        verbose_name = _("竞技场牌桌")
        verbose_name_plural = _("竞技场牌桌")
        constraints = [models.UniqueConstraint(fields=["arena", "number"], name="arena_table_number")]
        indexes = [models.Index(fields=["arena", "finished"], name="arena_table_open")]


class ArenaScore(models.Model):
    """One player's score for one hand: exactly one row per (hand, player),
    kept by a unique constraint, so a ``hand_completed`` delivered twice (a
    worker killed after the commit, the sweep catching up) scores once.
    ``counted`` is False for a hand completed after the arena's clock (its
    points are 0 and it changes no streak)."""

    class Result(models.TextChoices):
        WIN = "win", _("胜")
        DRAW = "draw", _("平")
        LOSS = "loss", _("负")
        VOID = "void", _("作废")

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="scores")
    table = models.ForeignKey(ArenaTable, on_delete=models.CASCADE, related_name="scores")
    hand = models.ForeignKey("games.Hand", on_delete=models.CASCADE, related_name="arena_scores")
    player = models.ForeignKey(ArenaPlayer, on_delete=models.CASCADE, related_name="scores")
    result = models.CharField(_("结果"), max_length=4, choices=Result.choices)
    base = models.SmallIntegerField(default=0)
    points = models.SmallIntegerField(_("积分"), default=0)
    fire = models.BooleanField(default=False)
    berserk = models.BooleanField(default=False)
    counted = models.BooleanField(default=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["arena", "id"]
        verbose_name = _("竞技场得分")
        verbose_name_plural = _("竞技场得分")
        constraints = [models.UniqueConstraint(fields=["hand", "player"], name="arena_score_hand_player")]
