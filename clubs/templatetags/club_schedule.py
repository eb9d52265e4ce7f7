"""Template tags of scheduled events: ``{% upcoming_events %}`` (the
club page and the lobby), ``{% site_arenas %}`` (the lobby: the site's
arenas running or starting within a day) and ``{% event_schedule_panel %}`` (the event page:
the start in the club's zone, check-in, the organiser's schedule form, print
and calendar links)."""

from __future__ import annotations

from django import template
from django.utils import timezone

from ..arena import pool as arena_pool, site
from ..pages.schedule import ScheduleForm, SessionForm
from ..results.scorecards import entry_of
from ..schedule import scheduling
from ..schedule.calendar import member_feed_url
from ..schedule_models import CheckIn

register = template.Library()


def _item(event) -> dict:
    number, at = scheduling.next_start(event.schedule)
    many = len(scheduling.sessions(event.schedule)) > 1
    return {"event": event, "starts": scheduling.local_time(event, at), "session": number if many else None}


@register.inclusion_tag("clubs/_upcoming.html", takes_context=True)
def upcoming_events(context, club=None, limit: int = 5):
    """Scheduled events not finished, soonest first: the club's, or (no
    club) those of the signed-in user's clubs; each with its local start."""
    user = getattr(context.get("request"), "user", None)
    if club is not None:
        rows = scheduling.upcoming(clubs=[club], limit=limit)
    elif user is not None and user.is_authenticated:
        rows = scheduling.upcoming(user=user, limit=limit)
    else:
        rows = []
    return {
        "items": [_item(e) for e in rows],
        "club": club,
        "feed": (None if club is not None or not (user and user.is_authenticated) else member_feed_url(user)),
    }


@register.inclusion_tag("clubs/_site_arenas.html")
def site_arenas():
    """The site's arenas (open to all) running now or starting within a day,
    each with its start in the house club's zone; nothing when there are none."""
    now = timezone.now()
    rows = []
    for arena in site.site_arenas(now):
        rows.append({"event": arena.event, "running": arena_pool.is_open(arena, now),
                     "starts": scheduling.local_time(arena.event, arena.starts_at),
                     "zone": arena.event.club.time_zone})
    return {"arenas": rows}


@register.inclusion_tag("clubs/_schedule_panel.html", takes_context=True)
def event_schedule_panel(context):
    event = context["event"]
    user = getattr(context.get("request"), "user", None)
    sched = scheduling.schedule_of(event)
    out = {"event": event, "sched": sched, "can_manage": context.get("can_manage"),
           "csrf_token": context.get("csrf_token"), "zone": event.club.time_zone, "rounds": event.round_set.exclude(status="preview")}
    if sched is not None:
        out["starts"] = scheduling.local_time(event, sched.starts_at)
        out["closes"] = scheduling.local_time(event, sched.registration_closes) if sched.registration_closes else None
        parts = scheduling.sessions(sched)
        out["sessions"] = [{"number": k, "first": f, "starts": scheduling.local_time(event, at)} for k, f, at in parts] if len(parts) > 1 else []
        if user is not None and user.is_authenticated:
            entry = entry_of(event, user)
            if entry is not None and entry.status != "withdrawn" and not event.round_set.exclude(status="preview").exists():
                out["entry"] = entry
                out["checked_in"] = CheckIn.objects.filter(entry=entry, user=user).exists()
                out["checkin_open"] = timezone.now() >= sched.starts_at - scheduling.CHECKIN_OPENS
    if out["can_manage"]:
        initial = {}
        if sched is not None:
            initial = {"starts_at": out["starts"].replace(tzinfo=None), "auto_rounds": sched.auto_rounds,
                       "gap_minutes": sched.gap_seconds / 60, "no_checkin": sched.no_checkin}
        out["form"] = ScheduleForm(initial=initial)
        if sched is not None and event.rounds > 1:
            out["session_form"] = SessionForm(initial={"first_round": 2})
    return out
