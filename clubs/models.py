"""Clubs, their members and organisers.

A :class:`Club` has members through :class:`Membership`, each with a role
(organiser or member).  The user who creates a club is its first organiser.
People join with the club's join link or code (``join_code``, a random token
an organiser can replace, which invalidates the old link).  Who may do what is
decided per club in :mod:`clubs.rules` (django-rules predicates); every change
goes through :mod:`clubs.services`.
"""

from __future__ import annotations

import re
import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


def new_join_code() -> str:
    """A random join code: 10 URL-safe characters (~60 bits)."""
    return secrets.token_urlsafe(8)[:10]


class Club(models.Model):
    """A card club: a name, a page, organisers and members."""

    name = models.CharField(_("名称"), max_length=60, unique=True)
    description = models.TextField(_("简介"), blank=True, max_length=2000)
    join_code = models.CharField(_("加入码"), max_length=16, unique=True, default=new_join_code)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("创建者"),
    )
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)
    public_tables = models.BooleanField(
        _("未登录的访客可以观看比赛桌"), default=True,
        help_text=_("观看者只看到公开的出牌，看不到任何人的手牌"),
    )
    #: IANA name; event times are entered and shown in it.
    time_zone = models.CharField(_("时区"), max_length=40, default="Asia/Shanghai")

    class Meta:
        ordering = ["name"]
        verbose_name = _("俱乐部")
        verbose_name_plural = _("俱乐部")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club", args=[self.pk])

    def join_url(self) -> str:
        """The path of the join link (relative; the page prefixes the host)."""
        return reverse("club_join", args=[self.join_code])

    def organisers(self):
        """The organisers' users, by name."""
        from django.contrib.auth import get_user_model

        return get_user_model().objects.filter(
            club_memberships__club=self, club_memberships__role=Membership.Role.ORGANISER
        ).order_by("username")


class Membership(models.Model):
    """``user`` belongs to ``club`` as an organiser or a member."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("组织者")
        MEMBER = "member", _("会员")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(_("身份"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined = models.DateTimeField(_("加入时间"), auto_now_add=True)

    class Meta:
        ordering = ["club", "-role", "joined"]
        verbose_name = _("会员资格")
        verbose_name_plural = _("会员资格")
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="membership_club_user")]

    def __str__(self) -> str:
        return f"{self.club}: {self.user} ({self.get_role_display()})"

    @property
    def is_organiser(self) -> bool:
        return self.role == self.Role.ORGANISER


# --------------------------------------------------------------------------- events


class Event(models.Model):
    """A club event for one game: format, entries, rounds and how a round runs.

    ``hands_per_round`` and/or ``minutes_per_round`` end a round (at the time
    limit the hand in progress is finished, then the round ends).  The table
    settings (``turn_seconds``, ``multiplier``, ``bot_delay_ms``) go to every
    room.  ``no_show`` says what happens to a seat whose player is not ready
    ``grace_minutes`` after the round started.  Rules: docs/tournaments.md.
    """

    class Format(models.TextChoices):
        SWISS = "swiss", _("瑞士制")
        ROUND_ROBIN = "round_robin", _("循环赛")
        DUPLICATE = "duplicate", _("复式赛")
        ARENA = "arena", _("竞技场")
        TEAMS = "teams", _("团体复式赛")

    #: Formats whose rounds deal the same boards at every table (embargoed
    #: until every table played them): pairs duplicate and team duplicate.
    BOARD_FORMATS = ("duplicate", "teams")

    class Movement(models.TextChoices):
        SWISS = "swiss", _("瑞士制")
        ROUND_ROBIN = "round_robin", _("循环赛")

    class NoShow(models.TextChoices):
        FORFEIT = "forfeit", _("判负")
        BOT_COUNTS = "bot_counts", _("机器人代打，成绩有效")
        BOT_VOID = "bot_void", _("机器人代打，缺席者判负")

    class Status(models.TextChoices):
        REGISTERING = "registering", _("报名中")
        RUNNING = "running", _("进行中")
        FINISHED = "finished", _("已结束")
        CANCELLED = "cancelled", _("已取消")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events", verbose_name=_("俱乐部"))
    name = models.CharField(_("名称"), max_length=80)
    game = models.CharField(_("游戏"), max_length=16)
    format = models.CharField(_("赛制"), max_length=12, choices=Format.choices, default=Format.SWISS)
    movement = models.CharField(
        _("复式赛轮转"), max_length=12, choices=Movement.choices, default=Movement.SWISS,
        help_text=_("复式赛的配对方式"),
    )
    rounds = models.PositiveSmallIntegerField(_("轮数"), default=3)
    hands_per_round = models.PositiveSmallIntegerField(_("每轮局数"), null=True, blank=True, default=2)
    minutes_per_round = models.PositiveSmallIntegerField(_("每轮时限（分钟）"), null=True, blank=True)
    turn_seconds = models.PositiveSmallIntegerField(_("每步时限（秒）"), default=30)
    multiplier = models.PositiveIntegerField(_("倍数"), default=1)
    bot_delay_ms = models.PositiveIntegerField(_("机器人延迟（毫秒）"), default=800)
    no_show = models.CharField(_("缺席处理"), max_length=12, choices=NoShow.choices, default=NoShow.BOT_COUNTS)
    grace_minutes = models.PositiveSmallIntegerField(_("缺席宽限（分钟）"), default=5)
    status = models.CharField(_("状态"), max_length=12, choices=Status.choices, default=Status.REGISTERING)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("创建者"),
    )
    created = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("比赛")
        verbose_name_plural = _("比赛")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("event", args=[self.pk])

    @property
    def pairing_movement(self) -> str:
        """How rounds are paired: the format, or for (team) duplicate its movement."""
        return self.movement if self.format in self.BOARD_FORMATS else self.format

    @property
    def has_boards(self) -> bool:
        """True for the formats that deal the same boards at every table."""
        return self.format in self.BOARD_FORMATS

    @property
    def is_teams(self) -> bool:
        """True for team duplicate (teams of four, two-table matches)."""
        return self.format == self.Format.TEAMS


class Entry(models.Model):
    """An entry: a fixed pair (its partner must confirm) or an individual.

    ``is_bot``: every seat of the entry is played by a bot (test and demo
    events), of ``bot_policy`` (one of the games' bot policies: "heuristic",
    "random", "search"; blank: the events' default, "heuristic").  A withdrawn entry is not paired after ``withdrawn_after`` rounds.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("待搭档确认")
        ACTIVE = "active", _("已报名")
        WITHDRAWN = "withdrawn", _("已退赛")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    name = models.CharField(_("名称"), max_length=80)
    status = models.CharField(_("状态"), max_length=10, choices=Status.choices, default=Status.PENDING)
    is_bot = models.BooleanField(_("机器人"), default=False)
    bot_policy = models.CharField(_("机器人类型"), max_length=16, blank=True, default="")
    withdrawn_after = models.PositiveSmallIntegerField(_("退赛于第几轮后"), null=True, blank=True)
    created = models.DateTimeField(_("报名时间"), auto_now_add=True)

    class Meta:
        ordering = ["event", "id"]
        verbose_name = _("参赛者")
        verbose_name_plural = _("参赛者")

    def __str__(self) -> str:
        return self.name

    def display_name(self) -> str:
        """The entry's name as shown to the viewer: a bot entry's in the
        viewer's language with its number ("机器人3", "Bot 3"), though the row
        keeps the name in the language of the organiser who added it; a
        player's entry as stored."""
        if self.is_bot:
            number = _BOT_NUMBER.search(self.name)
            if number:
                return _("机器人%(n)s") % {"n": number.group(1)}
        return self.name


#: The number at the end of a bot entry's stored name.
_BOT_NUMBER = re.compile(r"(\d+)\s*$")


class EntryPlayer(models.Model):
    """Player ``index`` of an entry (None user: a bot); ``confirmed`` when the
    player agreed to the entry (the partner of a pair confirms)."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="players")
    index = models.PositiveSmallIntegerField(_("序号"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="event_entries"
    )
    confirmed = models.BooleanField(_("已确认"), default=False)

    class Meta:
        ordering = ["entry", "index"]
        constraints = [models.UniqueConstraint(fields=["entry", "index"], name="entry_player_index")]


class Round(models.Model):
    """Round ``number`` of an event.

    ``pairing``: ``{"tables": [[entry id or null, ...], ...], "bye": id or
    null, "bots": n, "repeats": n}`` (null inside a table: a bot seat).  In
    PREVIEW the organiser may swap entries or ask for another pairing; START
    creates the rooms.  ``deadline`` is the round clock (``minutes_per_round``),
    ``seat_deadline`` the end of the no-show grace; the sweep
    (:func:`clubs.running.rounds.sweep_rounds`, Celery beat) acts on both.
    ``boards``: for a duplicate round, per board ``{"seed", "start"}``.
    """

    class Status(models.TextChoices):
        PREVIEW = "preview", _("配对预览")
        RUNNING = "running", _("进行中")
        FINISHED = "finished", _("已结束")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("轮次"))
    status = models.CharField(_("状态"), max_length=10, choices=Status.choices, default=Status.PREVIEW)
    pairing = models.JSONField(_("配对"), default=dict)
    boards = models.JSONField(_("牌组"), default=list, blank=True)
    started = models.DateTimeField(_("开始时间"), null=True, blank=True)
    deadline = models.DateTimeField(_("结束时限"), null=True, blank=True)
    seat_deadline = models.DateTimeField(_("入座时限"), null=True, blank=True)
    paused = models.BooleanField(_("暂停"), default=False)
    ended = models.DateTimeField(_("结束时间"), null=True, blank=True)
    ended_by_clock = models.BooleanField(_("因时限结束"), default=False)

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("轮次")
        verbose_name_plural = _("轮次")
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="round_event_number")]
        indexes = [models.Index(fields=["status"], name="round_status")]

    def __str__(self) -> str:
        return f"{self.event} R{self.number}"


class EventTable(models.Model):
    """Table ``number`` of a round: the entries in table order (index = the
    entry index of the game's ``seat_plan``; null = bots), the room, and the
    result once the table finished (per entry index, the game hook's
    ``round_result``; ``forfeit`` names absent entry ids; ``boards`` the
    duplicate board scores)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("桌号"))
    entries = models.JSONField(_("参赛者"), default=list)
    room = models.OneToOneField(
        "games.Room", null=True, blank=True, on_delete=models.SET_NULL, related_name="event_table"
    )
    result = models.JSONField(_("成绩"), null=True, blank=True)
    finished = models.DateTimeField(_("完成时间"), null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("比赛桌")
        verbose_name_plural = _("比赛桌")
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_round_number")]

    def __str__(self) -> str:
        return f"{self.round} T{self.number}"


class Correction(models.Model):
    """An organiser's correction of a table's result: the audit trail."""

    table = models.ForeignKey(EventTable, on_delete=models.CASCADE, related_name="corrections")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.TextField(_("理由"), max_length=2000)
    before = models.JSONField(_("原成绩"), null=True)
    after = models.JSONField(_("新成绩"))
    created = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        ordering = ["created", "id"]
        verbose_name = _("成绩更正")
        verbose_name_plural = _("成绩更正")


class EventLog(models.Model):
    """One line of an event's audit trail of organiser actions:
    who (``by``) did what (``action``) to whom or what (``detail``, plain
    words: names, never a data structure), and when."""

    class Action(models.TextChoices):
        REGISTER = "register", _("代为报名")
        WITHDRAW = "withdraw", _("退赛")
        SUBSTITUTE = "substitute", _("替补")
        EDIT = "edit", _("修改比赛")
        CANCEL = "cancel", _("取消比赛")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="log")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(_("操作"), max_length=12, choices=Action.choices)
    detail = models.CharField(_("内容"), max_length=300, blank=True)
    created = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        ordering = ["created", "id"]
        verbose_name = _("比赛操作记录")
        verbose_name_plural = _("比赛操作记录")


from .schedule_models import CheckIn, EventSchedule, EventSession  # noqa: E402,F401  (registered with the clubs app)
from .arena_models import Arena, ArenaPlayer, ArenaScore, ArenaTable  # noqa: E402,F401  (arenas, clubs/arena/)
from .recurring_models import ArenaSchedule, ArenaSlot, RecurringInstance, RecurringSchedule  # noqa: E402,F401
