"""The site's own arenas, on the schedule an admin keeps (docs/tournaments.md,
"Recurring events" and "Arena").

The admin's :class:`~clubs.models.ArenaSchedule` lines (hourly, daily,
weekly) become slots, conflicting ones pruned by importance
(:func:`clubs.schedule.recurring.create_site_arenas`, run by the sweep at most
once a minute, 24 hours ahead).  Each kept slot is handed once to
:func:`create_site_arena`, registered as the arena factory in
``ClubsConfig.ready()``:

* the arena belongs to the site's house club (:func:`house_club`, made on
  first use, its events owned by the house user :func:`house_user`, who has
  no password and never plays: :mod:`accounts.house`);
* it is **open to all** (``Arena.open_to_all``): any signed-in player may
  join, before it starts (waiting in the pool) or while it runs;
* it is created with its start and end (the slot's) and its event still
  registering; :func:`clubs.arena.pool.start_due_arenas` (the arena sweep)
  starts it at its start, and the pool is seated from then on;
* bots fill a table after the line's ``bot_fill_seconds`` (default 120 s),
  so that a lone player at a quiet hour still gets a game.
* :func:`site_arenas` lists those running or starting within a day (the
  lobby shows them).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.house import HOUSE_USER, house_user  # noqa: F401 (HOUSE_USER: this module's name for it)

from ..models import Arena, Club, Event, Membership
from . import pool

#: The house club's name (settings may rename it).  The house user, who owns
#: it and its arenas, is :func:`accounts.house.house_user`.
HOUSE_CLUB = getattr(settings, "SITE_ARENA_CLUB", "牌室竞技场")


def house_club() -> Club:
    """The club the site's arenas belong to: the one the house user created
    (made on first use, the house user its one organiser; if a player's club
    took the name first, the house's gets a suffix)."""
    owner = house_user()
    club = Club.objects.filter(created_by=owner).order_by("pk").first()
    if club is None:
        name = HOUSE_CLUB
        if Club.objects.filter(name=name).exists():
            name = f"{HOUSE_CLUB} ({HOUSE_USER})"
        club = Club.objects.create(name=name, created_by=owner)
        Membership.objects.create(club=club, user=owner, role=Membership.Role.ORGANISER)
    return club


def create_site_arena(line, slot) -> str:
    """The arena factory (:func:`clubs.schedule.recurring.register_arena_factory`):
    the arena of ``slot`` (a :class:`~clubs.tournament.recurrence.Slot`, its
    ``start`` and ``end`` aware datetimes) of the schedule ``line`` (an
    :class:`~clubs.models.ArenaSchedule`), open to all, starting at the slot's
    start.  Returns ``"event:<id>"``."""
    owner = house_user()
    club = house_club()
    seconds = max(60, int((slot.end - slot.start).total_seconds()))
    with transaction.atomic():
        event = pool.create_arena(
            owner, club, name=line.name, game=line.game, minutes=seconds / 60,
            bot_fill_seconds=line.bot_fill_seconds, start=False,
        )
        Arena.objects.filter(pk=event.pk).update(open_to_all=True, starts_at=slot.start, ends_at=slot.end)
    return f"event:{event.pk}"


def site_arenas(now=None, ahead_hours: int = 24, limit: int = 6) -> list[Arena]:
    """The open-to-all arenas running now or starting within ``ahead_hours``,
    soonest first (the lobby's list)."""
    now = now or timezone.now()
    return list(
        Arena.objects.filter(open_to_all=True, ends_at__gt=now,
                             starts_at__lte=now + timedelta(hours=ahead_hours),
                             event__status__in=(Event.Status.REGISTERING, Event.Status.RUNNING))
        .select_related("event").order_by("starts_at", "pk")[:limit]
    )
