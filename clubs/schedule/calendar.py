"""iCalendar feeds of club events, made with the ``icalendar``
library: one per club (its scheduled events) and one per member (the events of
every club they belong to, theirs marked), each VEVENT with a stable UID
``event-<id>@<host>`` (an instance of a recurring event:
``recurring-<schedule>-<occurrence>@<host>``; a cancelled one ``STATUS:CANCELLED``), the start in UTC, an estimated end, the event page as
URL.  The member's feed is at a signed address (calendar apps send no cookie).
"""

from __future__ import annotations

from datetime import timedelta
from datetime import timezone as dt_timezone
from urllib.parse import urlsplit

import icalendar
from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils import timezone

from ..models import Event
from .scheduling import sessions

#: Signs the feed links members were given: saved in every token, so it never changes
#: (not even when the module moves: it was clubs/calendar.py).
_SALT = "clubs.calendar"


def estimated_end(event: Event, rounds: int | None = None) -> timedelta:
    """How long ``rounds`` rounds (default: all) should take: per round its
    clock (or 20 minutes a hand, 30 without either), plus the gaps between them."""
    rounds = event.rounds if rounds is None else rounds
    per_round = event.minutes_per_round or (20 * (event.hands_per_round or 0)) or 30
    gap = event.schedule.gap_seconds if event.schedule.auto_rounds else 0
    return timedelta(minutes=per_round * rounds) + timedelta(seconds=gap * max(0, rounds - 1))


def _uid_base(event: Event) -> str:
    """The UID of an event's calendar entry without the host: ``event-<id>``,
    or for an instance of a recurring event ``recurring-<schedule>-<its
    occurrence in UTC>`` (the rule's time for it, kept when the instance is
    moved, so a calendar updates the entry instead of adding one)."""
    inst = getattr(event, "recurrence", None) if _has_recurrence(event) else None
    if inst is not None:
        return f"recurring-{inst.schedule_id}-{inst.occurrence.astimezone(dt_timezone.utc):%Y%m%dT%H%M%SZ}"
    return f"event-{event.pk}"


def _has_recurrence(event: Event) -> bool:
    try:
        return event.recurrence is not None
    except Event.recurrence.RelatedObjectDoesNotExist:
        return False


def _site() -> str:
    return getattr(settings, "SITE_URL", "http://localhost:8000").rstrip("/")


def feed(events, name: str, mine: set[int] = frozenset()) -> bytes:
    """The VCALENDAR of ``events`` (each with a schedule) as bytes; events in
    ``mine`` (ids) say so in their summary's description."""
    cal = icalendar.Calendar()
    cal.add("prodid", "-//Cardroom//club events//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", name)
    host = urlsplit(_site()).hostname or "localhost"
    now = timezone.now()
    for event in events:
        sched = event.schedule
        parts = sessions(sched)
        for number, first, at in parts:
            last = next((f - 1 for _n, f, _a in parts if f > first), event.rounds)
            ve = icalendar.Event()
            several = len(parts) > 1
            ve.add("uid", f"{_uid_base(event)}{f'-s{number}' if several else ''}@{host}")
            ve.add("dtstamp", now)
            ve.add("dtstart", at)
            ve.add("dtend", at + estimated_end(event, last - first + 1))
            ve.add("summary", f"{event.club.name}: {event.name}" + (f" ({number}/{len(parts)})" if several else ""))
            desc = f"{event.get_format_display()} · rounds {first}-{last} of {event.rounds}"
            if event.pk in mine:
                desc += " · entered"
            ve.add("description", desc)
            ve.add("url", _site() + event.get_absolute_url())
            ve.add("status", "CANCELLED" if event.status == Event.Status.CANCELLED else "CONFIRMED")
            cal.add_component(ve)
    return cal.to_ical()


def club_events(club) -> list[Event]:
    """The club's scheduled events, soonest first (finished ones too: a calendar keeps its past)."""
    return list(Event.objects.filter(club=club, schedule__isnull=False).select_related("club", "schedule", "recurrence")
                .order_by("schedule__starts_at"))


def member_events(user) -> tuple[list[Event], set[int]]:
    """The scheduled events of every club ``user`` belongs to, and the ids of those they entered."""
    rows = list(Event.objects.filter(club__memberships__user=user, schedule__isnull=False)
                .select_related("club", "schedule", "recurrence").order_by("schedule__starts_at"))
    mine = set(Event.objects.filter(entries__players__user=user).values_list("pk", flat=True))
    return rows, mine


def member_token(user) -> str:
    """The signed token of ``user``'s personal feed."""
    return signing.dumps(user.pk, salt=_SALT)


def member_from_token(token: str) -> int:
    """The user id of a token; ``signing.BadSignature`` if forged."""
    return int(signing.loads(token, salt=_SALT))


def member_feed_url(user) -> str:
    return _site() + reverse("member_calendar", args=[member_token(user)])


__all__ = ["club_events", "feed", "member_events", "member_feed_url", "member_from_token", "member_token"]
