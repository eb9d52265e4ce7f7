"""What members are told about a club event, through
:func:`notifications.services.notify` (once per user, kind and key).

Keys: ``event:<id>`` for "registration open", "starts soon" and "results",
``event:<id>:round:<n>`` for "your table is ready".  Each function returns how
many notifications it created (0 when every one was sent before).

Each notice is written in its recipient's language
(:func:`accounts.preferences.languages_of`: the language they chose on the
site, else the site default): recipients are grouped by language and the text
rendered once per language under ``translation.override``.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.preferences import languages_of
from notifications.models import Kind, Notification
from notifications.services import notify

from ..models import EntryPlayer, Event, EventTable, Round
from ..results.scorecards import card_text, entry_of
from ..schedule_models import local_time


def _local(event: Event, when) -> str:
    return local_time(event, when).strftime("%Y-%m-%d %H:%M %Z")


def _entrants(event: Event):
    """The users of the event's entries that were not withdrawn."""
    ids = (
        EntryPlayer.objects.filter(entry__event=event, user__isnull=False)
        .exclude(entry__status="withdrawn").values_list("user_id", flat=True)
    )
    return get_user_model().objects.filter(pk__in=set(ids)).order_by("pk")


def _by_language(users) -> dict[str, list]:
    """``users`` grouped by their language (:func:`accounts.preferences.languages_of`,
    one query), each group in the given order; languages in first-seen order."""
    users = list(users)
    langs = languages_of(u.pk for u in users)
    groups: dict[str, list] = {}
    for u in users:
        groups.setdefault(langs[u.pk], []).append(u)
    return groups


def _send(users, kind: str, key: str, render, url: str) -> int:
    """Notify each of ``users`` not yet notified of ``(kind, key)``, in the
    user's language: ``render()`` gives ``(subject, body)`` and is called once
    per language, under ``translation.override``.  How many notified now."""
    done = set(Notification.objects.filter(kind=kind, key=key).values_list("user_id", flat=True))
    n = 0
    for language, group in _by_language(u for u in users if u.pk not in done).items():
        with translation.override(language):
            subject, body = render()
        n += sum(notify(u, kind, key, subject, body, url) is not None for u in group)
    return n


def registration_open(event: Event) -> int:
    """Every member of the club: the event is open for registration."""
    sched = event.schedule
    users = get_user_model().objects.filter(club_memberships__club=event.club_id).order_by("pk")

    def render():
        subject = _("“%(event)s”开始报名") % {"event": event.name}
        body = _("%(club)s 的比赛“%(event)s”将于 %(start)s 开始，欢迎报名。") % {
            "club": event.club.name, "event": event.name, "start": _local(event, sched.starts_at)}
        return subject, body

    return _send(users, Kind.REGISTRATION_OPEN, f"event:{event.pk}", render, event.get_absolute_url())


def starts_soon(event: Event, session: int = 1, at=None) -> int:
    """Every entrant: the event (its ``session``, starting ``at``) starts in about 15 minutes."""
    key = f"event:{event.pk}" if session == 1 else f"event:{event.pk}:session:{session}"
    at = at or event.schedule.starts_at

    def render():
        subject = _("“%(event)s”即将开始") % {"event": event.name}
        body = _("比赛将于 %(start)s 开始，请及时签到。") % {"start": _local(event, at)}
        return subject, body

    return _send(_entrants(event), Kind.STARTS_SOON, key, render, event.get_absolute_url())


def tables_ready(round_: Round) -> int:
    """Every human seated in the round's rooms: your table is ready (a link to the room)."""
    event = round_.event
    key = f"event:{event.pk}:round:{round_.number}"
    n = 0
    for table in EventTable.objects.filter(round=round_).select_related("room").order_by("number"):
        if table.room is None:
            continue
        url = reverse("room", args=[table.room_id])
        users = [seat.user for seat in table.room.seats.filter(user__isnull=False).select_related("user")]
        for language, group in _by_language(users).items():
            with translation.override(language):
                subject = _("第%(round)s轮：你的牌桌已就绪") % {"round": round_.number}
                body = _("“%(event)s”第%(round)s轮，第%(table)s桌。") % {
                    "event": event.name, "round": round_.number, "table": table.number}
            n += sum(notify(u, Kind.TABLE_READY, key, subject, body, url) is not None for u in group)
    return n


def results(event: Event) -> int:
    """Every entrant and organiser: the results are published, with the
    entrant's score card in the message (:mod:`clubs.results.scorecards`), each in
    the recipient's language."""
    users = {u.pk: u for u in _entrants(event)}
    users.update({u.pk: u for u in event.club.organisers()})
    n = 0
    for language, group in _by_language(sorted(users.values(), key=lambda u: u.pk)).items():
        with translation.override(language):
            subject = _("“%(event)s”成绩已公布") % {"event": event.name}
            for user in group:
                entry = entry_of(event, user)
                body = _("最终排名见比赛页面。") + ("\n\n" + card_text(entry) if entry else "")
                url = reverse("scorecard", args=[entry.pk]) if entry else event.get_absolute_url()
                n += notify(user, Kind.RESULTS, f"event:{event.pk}", subject, body, url) is not None
    return n
