"""The arena page and its POST endpoints (thin: parse, call :mod:`.pool`,
redirect; a refusal answers with ``clubs/refused.html``).

``/clubs/arenas/<id>/`` shows the clock, the viewer's join / leave / berserk
buttons and current table, the live leaderboard with streak marks and a team
battle's standings; its ``#arena-live`` fragment is pushed over
``ws/arenas/<id>/`` (:mod:`.live`) after every change ("changed" only, each
viewer renders it).  ``static/clubs/arena.js`` counts the clock down and takes
the player to a new table as soon as a push names one.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django import forms
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.models import GAME_CHOICES

from ..models import Arena, ArenaPlayer, ArenaTable, Club, Event
from ..pages.clubs import refused
from ..running.rounds import ensure_round_sweeper
from ..services import ClubError, Forbidden
from . import pool


def arena_context(event: Event, user) -> dict:
    """What the arena page and its fragment show to ``user``."""
    arena = Arena.objects.get(pk=event.pk)
    board = pool.leaderboard(event.pk)
    me = None
    if getattr(user, "is_authenticated", False):
        me = ArenaPlayer.objects.filter(arena=arena, user=user).first()
    table = pool.current_table(event.pk, user)
    now = timezone.now()
    left = pool.seconds_left(arena, now)
    return {
        "event": event, "arena": arena, "board": board, "me": me, "my_table": table,
        "teams": pool.team_standings(event.pk, board) if arena.team_battle else [],
        "seconds_left": left, "clock": f"{left // 60}:{left % 60:02d}", "is_open": pool.is_open(arena, now),
        # a scheduled arena not started yet: its start in the club's zone
        "starts": (arena.starts_at.astimezone(ZoneInfo(event.club.time_zone))
                   if arena.starts_at and arena.starts_at > now else None),
        "over": event.status in (Event.Status.FINISHED, Event.Status.CANCELLED),
        "tables": ArenaTable.objects.filter(arena=arena, finished__isnull=True).select_related("room")[:50],
        "waiting": sum(1 for r in board if r["player"].state == ArenaPlayer.State.WAITING and not r["player"].table_id),
        "can_manage": bool(user and user.has_perm("clubs.manage_event", event)),
    }


def render_live(event_id: int, user=None, csrf_token: str = "", swap_oob: str | None = None) -> str:
    """The ``#arena-live`` fragment one viewer sees (websocket pushes);
    ``csrf_token``: the viewer's own, for the fragment's forms; ``swap_oob``:
    how the page applies it (:data:`games.live.group_push.PUSH_SWAP`, a morph:
    the page keeps its buttons and what the viewer typed, static/games/morph.js)."""
    event = Event.objects.select_related("club").get(pk=event_id)
    context = arena_context(event, user)
    context["user"] = user
    context["swap_oob"] = swap_oob
    if csrf_token:
        context["csrf_token"] = csrf_token
    return render_to_string("clubs/_arena_live.html", context)


def arena_page(request, event_id: int):
    """The arena page (anyone may watch it)."""
    ensure_round_sweeper()
    event = get_object_or_404(Event.objects.select_related("club"), pk=event_id, format=Event.Format.ARENA)
    return render(request, "clubs/arena.html", arena_context(event, request.user))


def _act(request, event_id: int, op):
    event = get_object_or_404(Event.objects.select_related("club"), pk=event_id, format=Event.Format.ARENA)
    try:
        if not request.user.is_authenticated:
            raise Forbidden(_("请先登录"))
        op(event)
    except ClubError as exc:
        return refused(request, exc, event.club)
    pool.seat_pool(event.pk)  # seated as soon as enough wait
    return redirect("arena", event.pk)


@require_POST
def arena_join(request, event_id: int):
    """Join (or come back to) the pool."""
    return _act(request, event_id, lambda e: pool.join(request.user, e))


@require_POST
def arena_leave(request, event_id: int):
    """Leave the pool (a table in play is played to its end)."""
    return _act(request, event_id, lambda e: pool.leave(request.user, e))


@require_POST
def arena_berserk(request, event_id: int):
    """Berserk at the next table (``on`` = "0" takes it back)."""
    return _act(request, event_id, lambda e: pool.set_berserk(request.user, e, request.POST.get("on") != "0"))


@require_POST
def arena_bots(request, event_id: int):
    """An organiser adds bot players (``count``, 1-64): demos and tests."""
    try:
        count = int(request.POST.get("count") or 1)
    except ValueError:
        count = 0
    if not 1 <= count <= 64:
        return refused(request, ClubError(_("机器人数量须在 1 到 64 之间")))
    return _act(request, event_id, lambda e: pool.add_bots(request.user, e, count))


@require_POST
def arena_open(request, event_id: int):
    """An organiser starts the arena's clock."""
    return _act(request, event_id, lambda e: pool.open_arena(request.user, e))


class ArenaForm(forms.Form):
    """The organiser's arena form."""

    name = forms.CharField(label=gettext_lazy("名称"), max_length=80)
    game = forms.ChoiceField(label=gettext_lazy("游戏"), choices=GAME_CHOICES)
    minutes = forms.FloatField(label=gettext_lazy("时长（分钟）"), min_value=0.1, max_value=pool.MAX_MINUTES,
                               initial=60)
    hands_per_table = forms.IntegerField(label=gettext_lazy("每桌局数"), min_value=1, max_value=10, initial=1)
    berserk = forms.BooleanField(label=gettext_lazy("允许狂暴"), required=False, initial=True)
    bot_fill_seconds = forms.IntegerField(label=gettext_lazy("机器人补位等待（秒）"), min_value=0, max_value=3600,
                                          required=False, help_text=gettext_lazy("留空：不用机器人补位"))
    team_battle = forms.BooleanField(label=gettext_lazy("俱乐部团体赛"), required=False)
    teams = forms.CharField(label=gettext_lazy("参赛俱乐部（逗号分隔）"), required=False, max_length=600)
    team_size = forms.IntegerField(label=gettext_lazy("每队计分人数"), min_value=1, max_value=100, initial=5)
    turn_seconds = forms.IntegerField(label=gettext_lazy("每步时限（秒）"), min_value=5, max_value=600, initial=30)
    bot_delay_ms = forms.IntegerField(label=gettext_lazy("机器人延迟（毫秒）"), min_value=0, max_value=10000,
                                      initial=800)
    start = forms.BooleanField(label=gettext_lazy("立即开始"), required=False, initial=True)


def arena_create(request, club_id: int):
    """The organiser's form to open an arena, and its POST."""
    club = get_object_or_404(Club, pk=club_id)
    if not request.user.has_perm("clubs.manage_club", club):
        return refused(request, Forbidden(_("只有俱乐部“%(club)s”的组织者可以这样做") % {"club": club.name}), club)
    form = ArenaForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        names = [n.strip() for n in (data.pop("teams") or "").replace("，", ",").split(",") if n.strip()]
        teams = list(Club.objects.filter(name__in=names))
        try:
            event = pool.create_arena(request.user, club, teams=teams, **data)
        except ClubError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("arena", event.pk)
    return render(request, "clubs/arena_create.html", {"club": club, "form": form})


def page_links(sender, room, hand, user, **kwargs) -> list[dict]:
    """Receiver of ``games.signals.page_links``: an arena table's page links
    back to its arena, and follows it there when the table closes (``from``:
    the arena page then takes the player on to their next table at once)."""
    if hand is not None or room is None:
        return []
    event_id = ArenaTable.objects.filter(room_id=room.pk).values_list("arena_id", flat=True).first()
    if event_id is None:
        return []
    return [{"key": "arena", "label": _("回到竞技场"), "follow": True,
             "url": f"{reverse('arena', args=[event_id])}?from={room.pk}"}]
