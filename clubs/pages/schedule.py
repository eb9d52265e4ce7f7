"""Pages of scheduled events: the organiser's schedule form,
check-in, score cards, printable table slips and standings, the iCalendar
feeds.  Thin: parse, call :mod:`clubs.schedule.scheduling`, redirect or render."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core import signing
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from .. import formats
from ..models import Club, Entry, Event, Round
from ..results.scorecards import card
from ..schedule import calendar, scheduling
from ..schedule_models import EventSchedule
from ..services import ClubError, Forbidden
from .clubs import refused
from .context import entry_names, event_context


class ScheduleForm(forms.Form):
    """The start and registration close (wall-clock times in the club's zone),
    automatic rounds and the gap between them, the no-check-in rule."""

    starts_at = forms.DateTimeField(label=gettext_lazy("开始时间"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    registration_closes = forms.DateTimeField(
        label=gettext_lazy("报名截止"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    auto_rounds = forms.BooleanField(label=gettext_lazy("自动开始各轮"), required=False, initial=True)
    gap_minutes = forms.FloatField(label=gettext_lazy("两轮间隔（分钟）"), min_value=0, max_value=1440, initial=5)
    no_checkin = forms.ChoiceField(label=gettext_lazy("未签到处理"), choices=EventSchedule.NoCheckIn.choices)


def _organiser_post(request, event_id: int, form_class, apply):
    """The organiser's schedule forms (POST): validate ``form_class``, then
    ``apply(user, event, cleaned_data)`` (a :mod:`clubs.schedule.scheduling` service);
    back to the event with a message, or the refusal page (not signed in, an
    invalid form, or the service's :class:`ClubError`)."""
    event = get_object_or_404(Event, pk=event_id)
    form = form_class(request.POST)
    try:
        if not request.user.is_authenticated:
            raise Forbidden(_("请先登录"))
        if not form.is_valid():
            raise ClubError("; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
        apply(request.user, event, form.cleaned_data)
    except ClubError as exc:
        return refused(request, exc, event.club)
    messages.success(request, _("日程已保存"))
    return redirect(event)


def _wall_clock(value):
    """A form's time as the club zone's wall-clock time (naive): the services
    place it in the club's zone."""
    return value.replace(tzinfo=None) if value else None


@require_POST
def event_schedule(request, event_id: int):
    """The organiser's schedule form (POST): :func:`clubs.schedule.scheduling.schedule_event`."""
    return _organiser_post(request, event_id, ScheduleForm, lambda user, event, d: scheduling.schedule_event(
        user, event, starts_at=_wall_clock(d["starts_at"]),
        registration_closes=_wall_clock(d["registration_closes"]), auto_rounds=d["auto_rounds"],
        gap_minutes=d["gap_minutes"], no_checkin=d["no_checkin"]))


class SessionForm(forms.Form):
    """A later evening: its first round and start (the club's wall clock)."""

    first_round = forms.IntegerField(label=gettext_lazy("首轮"), min_value=2, max_value=50)
    starts_at = forms.DateTimeField(label=gettext_lazy("开始时间"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))


@require_POST
def event_session(request, event_id: int):
    """The organiser adds a later session (POST): :func:`clubs.schedule.scheduling.add_session`."""
    return _organiser_post(request, event_id, SessionForm, lambda user, event, d: scheduling.add_session(
        user, event, starts_at=_wall_clock(d["starts_at"]), first_round=d["first_round"]))


@require_POST
def entry_checkin(request, entry_id: int):
    """A player of the entry checks in (POST): :func:`clubs.schedule.scheduling.check_in`."""
    entry = get_object_or_404(Entry, pk=entry_id)
    try:
        if not request.user.is_authenticated:
            raise Forbidden(_("请先登录"))
        scheduling.check_in(request.user, entry)
    except ClubError as exc:
        return refused(request, exc, entry.event.club)
    messages.success(request, _("已签到"))
    return redirect(entry.event)


def scorecard(request, entry_id: int):
    """An entrant's score card (public, like the standings)."""
    entry = get_object_or_404(Entry.objects.select_related("event__club"), pk=entry_id)
    return render(request, "clubs/scorecard.html", {"card": card(entry), "event": entry.event})


def round_slips(request, event_id: int, number: int):
    """Printable table slips of a round: one per table (number, seats, entrants)."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=event_id)
    round_ = get_object_or_404(Round, event=event, number=number)
    names = entry_names(event)
    plan = formats.hooks(event.game).seat_plan()
    slips = []
    for k, ids in enumerate(round_.pairing.get("tables", []), start=1):
        seats = []
        for seat, (entry_index, player_index) in enumerate(plan):
            i = ids[entry_index] if entry_index < len(ids) else None
            seats.append({"seat": seat + 1, "entry": names.get(i, "🤖") if i else "🤖", "player": player_index + 1})
        slips.append({"number": k, "entries": [names.get(i, "🤖") if i else "🤖" for i in ids], "seats": seats})
    bye = names.get(round_.pairing.get("bye"))
    return render(request, "clubs/slips.html", {"event": event, "round": round_, "slips": slips, "bye": bye})


def standings_print(request, event_id: int):
    """The printable final (or current) standings."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=event_id)
    return render(request, "clubs/standings_print.html", event_context(event))


def club_calendar(request, club_id: int):
    """The club's iCalendar feed (public, as the club page is)."""
    club = get_object_or_404(Club, pk=club_id)
    body = calendar.feed(calendar.club_events(club), club.name)
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")


def member_calendar(request, token: str):
    """A member's iCalendar feed at a signed address."""
    try:
        user_id = calendar.member_from_token(token)
    except (signing.BadSignature, ValueError):
        raise Http404 from None
    user = get_object_or_404(get_user_model(), pk=user_id)
    rows, mine = calendar.member_events(user)
    return HttpResponse(calendar.feed(rows, user.get_username(), mine), content_type="text/calendar; charset=utf-8")
