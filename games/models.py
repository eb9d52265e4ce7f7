"""Rooms, seats, matches, hands and the action log.

The database stores what the rules engine needs to rebuild any state: a hand's
carry-in (``Hand.start``, the engine's ``match_to_json``), its deal
(``Hand.deal``, ``deal_to_record``) and the ordered action log (``HandAction``,
``Action.to_record()``).  The engine is the single source of truth for
legality; nothing here knows a rule.  Every change goes through
``games.services`` and bumps ``Room.version`` (optimistic concurrency).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from . import registry

#: ``[(code, label)]`` of the games installed when the models loaded (for
#: other apps' forms and commands; a field's choices should be the callable
#: :func:`games.registry.choices`, which also sees games registered later).
GAME_CHOICES = registry.choices()

BOT_POLICIES = [("random", _("随机")), ("heuristic", _("启发式")), ("search", _("高手"))]


class RoomMultiplier(models.Model):
    """A room multiplier (房間倍數, ruling C4) that players may choose.

    Admins manage the list; exactly one row at most is the default (enforced by
    a partial unique constraint).  Seeded with 1 (default), 2, 5, 10.
    """

    value = models.PositiveIntegerField(_("倍数"), unique=True)
    is_default = models.BooleanField(_("默认"), default=False)

    class Meta:
        ordering = ["value"]
        verbose_name = _("房间倍数")
        verbose_name_plural = _("房间倍数")
        constraints = [
            models.UniqueConstraint(
                fields=["is_default"],
                condition=Q(is_default=True),
                name="one_default_multiplier",
            ),
            models.CheckConstraint(condition=Q(value__gte=1), name="multiplier_positive"),
        ]

    def __str__(self) -> str:
        return f"×{self.value}"

    def save(self, *args, **kwargs):
        """Save; a new default clears the flag on the previous one."""

        with transaction.atomic():
            if self.is_default:
                RoomMultiplier.objects.exclude(pk=self.pk).filter(is_default=True).update(
                    is_default=False
                )
            super().save(*args, **kwargs)

    @classmethod
    def default_value(cls) -> int:
        """The default multiplier's value (1 when the table is empty)."""
        row = cls.objects.filter(is_default=True).first()
        return row.value if row else 1


class Room(models.Model):
    """A table of one game.

    ``version`` increases by one with every committed change (seat, ready,
    action, hand start); clients send back the version they saw, so a stale
    or doubled request changes nothing.  ``deadline`` is when the server acts
    next if nobody else did: the human's time limit (C5), a bot's delay, or the
    pause between hands; ``None`` when nothing is due.
    """

    class Status(models.TextChoices):
        WAITING = "waiting", _("等待中")
        PLAYING = "playing", _("进行中")
        CLOSED = "closed", _("已关闭")

    game = models.CharField(_("游戏"), max_length=16, choices=registry.choices)
    name = models.CharField(_("房间名"), max_length=60)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_rooms",
        verbose_name=_("房主"),
    )
    multiplier = models.PositiveIntegerField(_("倍数"), default=1)
    turn_seconds = models.PositiveSmallIntegerField(_("每步时限（秒）"), default=30)
    bot_delay_ms = models.PositiveIntegerField(_("机器人延迟（毫秒）"), default=800)
    options = models.JSONField(_("选项"), default=dict, blank=True)
    status = models.CharField(
        _("状态"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    version = models.PositiveIntegerField(_("版本"), default=0)
    deadline = models.DateTimeField(_("截止时间"), null=True, blank=True)
    #: A hidden decision made before its window closed, applied at the deadline
    #: (games.services.hidden): ``{"hand", "count", "seat", "action", "user"}``.
    pending = models.JSONField(_("待公布的决定"), null=True, blank=True, editable=False)
    #: A private room: never listed (lobby, its push, profiles); only
    #: its seated players open or watch it; a free seat is taken with its
    #: invite link (:mod:`games.private_rooms`).  "Play this deal again"
    #: rooms are always private.
    private = models.BooleanField(
        _("私人房间"), default=False,
        help_text=_("不在大厅列出；只有入座的玩家能打开或观看；凭邀请链接入座"),
    )
    invite_key = models.PositiveIntegerField(
        _("邀请链接编号"), default=0,
        help_text=_("私人房间的邀请链接随它改变：房主换一个链接，旧链接就不能再入座"),
    )
    #: The turn runner's lease on the room's due turn (games.runtime.runner):
    #: a runner that claimed the room runs its turn before this time; any
    #: change of the room (services.frame's version bump) clears it.
    claimed_until = models.DateTimeField(null=True, blank=True, editable=False)
    changed = models.DateTimeField(_("最后变更"), auto_now_add=True)
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("房间")
        verbose_name_plural = _("房间")
        indexes = [
            models.Index(fields=["game", "status"], name="room_game_status"),
            models.Index(fields=["deadline"], name="room_deadline"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(multiplier__gte=1), name="room_multiplier_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_game_display()})"

    def match_options(self) -> dict:
        """Engine options: the room's options plus its multiplier (C4)."""
        return {**(self.options or {}), "multiplier": self.multiplier}


class Seat(models.Model):
    """Seat ``index`` (C2 numbering) of a room: empty, a user, or a bot.

    ``autoplay`` (托管, C5): the server plays the heuristic bot's move for this
    human after the bot delay; switched on by a timeout or by the player.
    """

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(_("座位"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="game_seats",
    )
    bot_policy = models.CharField(
        _("机器人"), max_length=16, choices=BOT_POLICIES, null=True, blank=True
    )
    ready = models.BooleanField(_("准备"), default=False)
    autoplay = models.BooleanField(_("托管"), default=False)

    class Meta:
        ordering = ["room", "index"]
        verbose_name = _("座位")
        verbose_name_plural = _("座位")
        constraints = [
            models.UniqueConstraint(fields=["room", "index"], name="seat_room_index"),
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(bot_policy__isnull=True),
                name="seat_user_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.room_id}#{self.index}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_policy)

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot_policy

    def display_name(self) -> str:
        """The player's name as shown at the table and in records."""
        if self.user_id:
            return self.user.get_username()
        if self.bot_policy:
            return str(bot_name(self.index))
        return ""


def bot_name(index: int):
    """The bot at seat ``index`` (0-based) as the reader calls it ("Bot3",
    "机器人3"): a lazy string, translated when it is shown."""
    return format_lazy("{}{}", _("机器人"), index + 1)


def player_names(players) -> list:
    """The seat names of ``Hand.players`` (``[{"name", "user", "bot"}]``): a
    person's user name as dealt; a bot's name in the reader's language (the
    stored one is in the language of whoever's request dealt the hand), as
    :func:`bot_name`'s lazy string; ``str()`` it for plain data."""
    return [
        bot_name(i) if p.get("bot") and not p.get("user") else p.get("name", "")
        for i, p in enumerate(players or [])
    ]


class Match(models.Model):
    """A run of hands at one table with carry-over (tribute, levels).

    ``start`` is the engine's ``match_to_json`` before the first hand.
    """

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveIntegerField(_("编号"))
    start = models.JSONField(_("开局"))
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)
    finished = models.DateTimeField(_("结束时间"), null=True, blank=True)

    class Meta:
        ordering = ["room", "number"]
        verbose_name = _("比赛")
        verbose_name_plural = _("比赛")
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="match_room_number"),
        ]

    def __str__(self) -> str:
        return f"{self.room_id}/{self.number}"


class Hand(models.Model):
    """One deal.  ``start`` is the carry-in (``match_to_json`` of the match
    before this hand), ``deal`` the engine's ``deal_to_record``, ``seed`` the
    shuffle seed (C3; shown only once the hand is complete), ``players`` the
    seat names when it was dealt, ``summary`` the engine's summary once
    complete.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField(_("编号"))
    seed = models.BigIntegerField(_("种子"))
    deal = models.JSONField(_("发牌"))
    start = models.JSONField(_("开局"))
    players = models.JSONField(_("玩家"), default=list)
    summary = models.JSONField(_("结果"), null=True, blank=True)
    complete = models.BooleanField(_("已完成"), default=False)
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("牌局")
        verbose_name_plural = _("牌局")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="hand_match_number"),
        ]

    def __str__(self) -> str:
        return f"{self.match}/{self.number}"


class HandAction(models.Model):
    """Action ``seq`` (0-based) of a hand: ``payload`` is ``Action.to_record()``."""

    class Actor(models.TextChoices):
        USER = "user", _("玩家")
        BOT = "bot", _("机器人")
        AUTO = "auto", _("托管")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField(_("序号"))
    seat = models.PositiveSmallIntegerField(_("座位"))
    payload = models.JSONField(_("动作"))
    actor = models.CharField(_("执行者"), max_length=8, choices=Actor.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    created = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        ordering = ["hand", "seq"]
        verbose_name = _("动作")
        verbose_name_plural = _("动作")
        constraints = [
            models.UniqueConstraint(fields=["hand", "seq"], name="action_hand_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.hand_id}#{self.seq} {self.payload}"


class ChatMessage(models.Model):
    """One line of a table's chat: players and spectators.

    ``text`` is stored as typed (at most :data:`games.services.chat.MAX_LENGTH`
    characters) and escaped when rendered; ``quick`` names a quick phrase
    (快捷语, :data:`games.services.chat.QUICK_PHRASES`) shown in each reader's own
    language instead of ``text``.  ``hidden`` is set by an admin who removes
    a message from the table (admins may also delete it outright)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(_("内容"), max_length=200, blank=True)
    quick = models.CharField(_("快捷语"), max_length=16, blank=True)
    created = models.DateTimeField(_("时间"), auto_now_add=True, db_index=True)
    hidden = models.BooleanField(_("已隐藏"), default=False)

    class Meta:
        ordering = ["room", "id"]
        verbose_name = _("聊天消息")
        verbose_name_plural = _("聊天消息")
        indexes = [models.Index(fields=["user", "created"], name="chat_user_created")]

    def __str__(self) -> str:
        return f"{self.room_id} {self.user_id}: {self.quick or self.text[:40]}"


class ChatMute(models.Model):
    """``user`` no longer sees chat from ``muted`` (at every table)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("聊天屏蔽")
        verbose_name_plural = _("聊天屏蔽")
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chatmute_unique")]


# Hand reviews live in their own module; imported here so Django finds them.
from .review_models import DealReplay, HandReview, SeatAccuracy  # noqa: E402,F401
from django.db import transaction
