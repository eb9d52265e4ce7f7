"""Event pages and POST endpoints.  Thin: parse, call :mod:`clubs.running.events`,
redirect; a refusal answers with ``clubs/refused.html`` (message, status)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..models import Club, Entry, Event, EventTable, Round
from ..results import export
from ..results.corrections import CorrectionForm
from ..running import events, teams
from ..running.rounds import ensure_round_sweeper
from ..services import ClubError, Forbidden, require
from .clubs import confirmation, refused
from .context import entry_names, event_context
from .forms import EventEditForm, EventForm


def _signed_in(request):
    if not request.user.is_authenticated:
        raise Forbidden(_("请先登录"))


def event_create(request, club_id: int):
    """The creation form (organisers only) and its POST."""
    club = get_object_or_404(Club, pk=club_id)
    if not request.user.has_perm("clubs.manage_club", club):
        return refused(request, Forbidden(_("只有俱乐部“%(club)s”的组织者可以这样做") % {"club": club.name}), club)
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = events.create_event(request.user, club, **form.cleaned_data)
        except ClubError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(event)
    return render(request, "clubs/event_create.html", {"club": club, "form": form})


def event_page(request, event_id: int):
    """The event page: entries, registration, rounds, tables, standings; live."""
    ensure_round_sweeper()
    event = get_object_or_404(Event.objects.select_related("club"), pk=event_id)
    if event.format == Event.Format.ARENA:  # an arena has its own page (clubs/arena/)
        return redirect("arena", event.pk)
    context = event_context(event, request.user)
    context["can_manage"] = request.user.has_perm("clubs.manage_event", event)
    context["can_enter"] = request.user.has_perm("clubs.enter_event", event)
    return render(request, "clubs/event.html", context)


def render_live(event_id: int, user=None, csrf_token: str = "", swap_oob: str | None = None) -> str:
    """The ``#event-live`` fragment one viewer sees (websocket pushes).

    ``csrf_token`` is the viewer's own CSRF cookie (the consumer reads it from
    the socket's scope): the fragment's forms (start, pause, swap, correct) are
    plain POST forms, and a push's copy of each form's token input becomes the
    page's (the morph takes its value), so without it the organiser's next
    click was refused with 403 "CSRF token missing".

    ``swap_oob``, in a push: how the page applies it
    (:data:`games.live.group_push.PUSH_SWAP`, a morph: idiomorph with
    static/games/morph.js's rules), keeping its elements, so a click that
    spans a push still lands on its button, and an open 更正 form and what the
    viewer typed survive the pushes of a running round (one a second).
    """
    event = Event.objects.select_related("club").get(pk=event_id)
    context = event_context(event, user)
    context["can_manage"] = bool(user and user.has_perm("clubs.manage_event", event))
    context["swap_oob"] = swap_oob
    if csrf_token:
        context["csrf_token"] = csrf_token
    return render_to_string("clubs/_event_live.html", context)


def event_print(request, event_id: int):
    """A print-friendly page for the club's wall: pairings, results, standings."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=event_id)
    return render(request, "clubs/event_print.html", event_context(event))


def event_csv(request, event_id: int, what: str):
    """An export of :data:`clubs.results.export.EXPORTS` as a CSV attachment (UTF-8
    with a BOM); any other name is 404."""
    make = export.EXPORTS.get(what)
    if make is None:
        raise Http404(_("没有这种导出"))
    event = get_object_or_404(Event, pk=event_id)
    response = HttpResponse(make(event, request.user).encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-{what}.csv"'
    return response


def _op(request, event: Event, op, done: str):
    try:
        _signed_in(request)
        op()
    except ClubError as exc:
        return refused(request, exc, event.club)
    if done:
        messages.success(request, done)
    return redirect(event)


@require_POST
def event_register(request, event_id: int):
    event = get_object_or_404(Event, pk=event_id)
    if event.is_teams:  # a team: three teammates in seat order and up to two substitutes
        post = request.POST
        return _op(request, event, lambda: teams.register_team(
            request.user, event, post.get("team", ""), [post.get(f"mate{k}", "") for k in (1, 2, 3)],
            [post.get(f"sub{k}", "") for k in (1, 2)]), _("已报名"))
    return _op(request, event, lambda: events.register(request.user, event, request.POST.get("partner")),
               _("已报名"))


@require_POST
def entry_confirm(request, entry_id: int):
    entry = get_object_or_404(Entry, pk=entry_id)
    return _op(request, entry.event, lambda: events.confirm(request.user, entry), _("已确认搭档"))


def _ask(request, event: Event, question: str, ok: str):
    """The confirmation page for an organiser's action on ``event`` (None
    once confirmed, or when the user may not act: the action refuses)."""
    if not request.user.has_perm("clubs.manage_event", event):
        return None
    return confirmation(request, question, ok, event.get_absolute_url())


@require_POST
def entry_withdraw(request, entry_id: int):
    """Withdraw an entry (its player, or an organiser), after a confirmation."""
    entry = get_object_or_404(Entry.objects.select_related("event"), pk=entry_id)
    user = request.user
    if user.is_authenticated and (entry.players.filter(user=user).exists()
                                  or user.has_perm("clubs.manage_event", entry.event)):
        asked = confirmation(request, _("确定让“%(entry)s”退出比赛“%(event)s”吗？之后的轮次不再配对。")
                             % {"entry": entry.display_name(), "event": entry.event.name},
                             _("退赛"), entry.event.get_absolute_url())
        if asked is not None:
            return asked
    return _op(request, entry.event, lambda: events.withdraw(request.user, entry), _("已退赛"))


@require_POST
def event_register_for(request, event_id: int):
    """An organiser enters a member (and partner) on their behalf."""
    event = get_object_or_404(Event, pk=event_id)
    member, partner = request.POST.get("member", "").strip(), request.POST.get("partner", "").strip()
    who = f"{member} / {partner}" if partner else member
    asked = _ask(request, event, _("确定代 %(who)s 报名比赛“%(event)s”吗？") % {"who": who, "event": event.name},
                 _("代为报名"))
    if asked is not None:
        return asked
    return _op(request, event, lambda: events.register_for(request.user, event, member, partner or None),
               _("已代为报名"))


@require_POST
def entry_substitute(request, entry_id: int):
    """An organiser names a substitute for one player of an entry."""
    entry = get_object_or_404(Entry.objects.select_related("event"), pk=entry_id)
    try:
        index = int(request.POST.get("index", "0"))
    except ValueError:
        index = -1
    name = request.POST.get("username", "").strip()
    asked = _ask(request, entry.event, _("确定由 %(name)s 替补“%(entry)s”吗？")
                 % {"name": name, "entry": entry.display_name()}, _("替补"))
    if asked is not None:
        return asked
    return _op(request, entry.event, lambda: events.substitute(request.user, entry, index, name), _("已替补"))


def event_edit(request, event_id: int):
    """An organiser edits an event before it starts: the form (GET, pre-filled),
    then a confirmation, then the change."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=event_id)
    if not request.user.has_perm("clubs.manage_event", event):
        return refused(request, Forbidden(_("只有俱乐部“%(club)s”的组织者可以这样做") % {"club": event.club.name}),
                       event.club)
    if request.method == "POST":
        form = EventEditForm(request.POST)
        if form.is_valid():
            asked = confirmation(request, _("确定保存对比赛“%(event)s”的修改吗？") % {"event": event.name},
                                 _("保存"), event.get_absolute_url())
            if asked is not None:
                return asked
            return _op(request, event, lambda: events.edit_event(request.user, event, **form.cleaned_data),
                       _("已保存"))
    else:
        form = EventEditForm(initial={k: getattr(event, k) for k in EventEditForm.base_fields})
    return render(request, "clubs/event_edit.html", {"event": event, "form": form})


@require_POST
def event_cancel(request, event_id: int):
    """An organiser cancels the event, after a confirmation."""
    event = get_object_or_404(Event, pk=event_id)
    asked = _ask(request, event, _("确定取消比赛“%(event)s”吗？进行中的一轮会立即结束，之后不再配对。")
                 % {"event": event.name}, _("取消比赛"))
    if asked is not None:
        return asked
    return _op(request, event, lambda: events.cancel_event(request.user, event), _("比赛已取消"))


@require_POST
def event_bots(request, event_id: int):
    event = get_object_or_404(Event, pk=event_id)
    try:
        count = max(1, min(64, int(request.POST.get("count", "1"))))
    except ValueError:
        count = 1
    return _op(request, event, lambda: events.add_bot_entries(request.user, event, count), _("已添加机器人参赛者"))


@require_POST
def event_pair(request, event_id: int):
    event = get_object_or_404(Event, pk=event_id)
    again = request.POST.get("again") == "1"
    return _op(request, event, lambda: events.pair_round(request.user, event, avoid_current=again), "")


def _round(event_id: int, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("event__club"), event_id=event_id, number=number)


@require_POST
def round_swap(request, event_id: int, number: int):
    r = _round(event_id, number)

    def op():
        try:
            a, b = int(request.POST.get("a", "")), int(request.POST.get("b", ""))
        except ValueError:
            raise ClubError(_("请选两个在本轮配对中的参赛者")) from None
        events.swap(request.user, r, a, b)

    return _op(request, r.event, op, _("已交换"))


@require_POST
def round_start(request, event_id: int, number: int):
    r = _round(event_id, number)
    return _op(request, r.event, lambda: events.start_round(request.user, r), _("本轮开始"))


@require_POST
def round_pause(request, event_id: int, number: int):
    r = _round(event_id, number)
    on = request.POST.get("paused", "1") == "1"
    return _op(request, r.event, lambda: events.set_paused(request.user, r, on), "")


@require_POST
def round_end(request, event_id: int, number: int):
    r = _round(event_id, number)
    return _op(request, r.event, lambda: events.end_round_now(request.user, r), _("本轮已结束"))


@require_POST
def table_correct(request, table_id: int):
    """POST of a table's correction form (:class:`clubs.results.corrections.CorrectionForm`):
    saved with its reason; saved unchanged, nothing is stored (a message says so)."""
    table = get_object_or_404(EventTable.objects.select_related("round__event__club"), pk=table_id)
    event = table.round.event
    outcome = {}

    def op():
        require(request.user, "clubs.manage_event", event)
        form = CorrectionForm(table, entry_names(event), request.POST)
        if not form.is_valid():
            raise ClubError(" ".join(
                f"{form.fields[k].label}: {' '.join(v)}" if k in form.fields else " ".join(v)
                for k, v in form.errors.items()
            ))
        result, boards, forfeit = form.correction()
        outcome["row"] = events.correct_result(
            request.user, table, result, form.cleaned_data.get("reason", ""), boards=boards, forfeit=forfeit
        )

    response = _op(request, event, op, "")
    if outcome:
        if outcome["row"] is None:
            messages.info(request, _("成绩没有变化，未作更正"))
        else:
            messages.success(request, _("成绩已更正"))
    return response
