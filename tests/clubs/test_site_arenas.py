"""The site's own arenas (clubs.arena.site): the admin's arena schedule made
into arenas by the sweep's factory, once per slot, open to every signed-in
player, started at their slot's start by the arena sweep, listed in the
lobby (docs/tournaments.md, "Recurring events")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from clubs import services
from clubs.arena import pool, site
from clubs.models import Arena, ArenaPlayer, ArenaSchedule, ArenaSlot, Event
from clubs.schedule import recurring
from games.models import Room

pytestmark = pytest.mark.django_db


@pytest.fixture
def hourly(multipliers):
    return ArenaSchedule.objects.create(name="每小时升级竞技场", game="shengji", frequency="hourly",
                                        minutes=57, time_zone="UTC", bot_fill_seconds=None)


def test_the_schedule_makes_open_arenas_once_each(hourly):
    now = timezone.now()
    made = recurring.create_site_arenas(now)
    assert len(made) == 24  # 24 hours ahead, one an hour
    assert recurring.create_site_arenas(now) == []  # the next sweep: none again
    events = Event.objects.filter(format=Event.Format.ARENA)
    assert events.count() == 24
    assert {s.ref for s in ArenaSlot.objects.all()} == {f"event:{e.pk}" for e in events}
    first = Arena.objects.select_related("event__club").order_by("starts_at").first()
    assert first.open_to_all and first.event.club.name == site.HOUSE_CLUB
    assert first.event.club.created_by.username == site.HOUSE_USER
    assert first.event.status == Event.Status.REGISTERING  # not started before its slot
    assert first.starts_at > now and first.starts_at.minute == 0 and first.starts_at.second == 0
    assert first.ends_at - first.starts_at == timedelta(minutes=57)
    assert not pool.is_open(first)


def test_any_player_joins_and_the_sweep_starts_and_seats_it(hourly, make_user):
    now = timezone.now()
    recurring.create_site_arenas(now)
    arena = Arena.objects.select_related("event").order_by("starts_at").first()
    event = arena.event
    strangers = [make_user(f"walkin{i}") for i in range(4)]  # members of no club
    for user in strangers:
        assert pool.join(user, event).state == ArenaPlayer.State.WAITING  # before it starts
    assert pool.seat_pool(event.pk) == []  # the clock has not started
    assert pool.sweep_arenas() == 0  # its start has not come
    Arena.objects.filter(pk=arena.pk).update(starts_at=now - timedelta(seconds=1))  # the hour has come
    pool.sweep_arenas()
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    table = pool.current_table(event.pk, strangers[0])
    assert table is not None and table.room.status == Room.Status.PLAYING
    assert set(table.room.seats.values_list("user__username", flat=True)) == {u.username for u in strangers}
    assert pool.start_due_arenas() == 0  # started once


def test_a_club_arena_stays_for_its_members(club_setup, make_user, multipliers):
    club, organiser, *_ = club_setup
    event = pool.create_arena(organiser, club, name="俱乐部竞技场", game="baohuang", minutes=30)
    with pytest.raises(pool.Forbidden):
        pool.join(make_user("walkin"), event)


def test_the_lobby_lists_the_site_arenas(hourly, client):
    now = timezone.now()
    recurring.create_site_arenas(now)
    soonest = Arena.objects.order_by("starts_at").first()
    Arena.objects.filter(pk=soonest.pk).update(starts_at=now - timedelta(minutes=1))
    pool.start_due_arenas()
    html = client.get("/").content.decode()
    assert 'id="site-arenas"' in html
    assert reverse("arena", args=[soonest.pk]) in html
    assert "进行中" in html  # the one running now
    assert html.count("data-arena=") == 6  # the list's limit
    Event.objects.filter(format=Event.Format.ARENA).update(status=Event.Status.FINISHED)
    assert 'id="site-arenas"' not in client.get("/").content.decode()


def test_nobody_squats_the_house(hourly, make_user, client):
    # no sign-up takes the house's name before the house exists (it holds a space)
    client.post(reverse("signup"), {"username": site.HOUSE_USER, "password1": "x9!long-enough-pw",
                                    "password2": "x9!long-enough-pw"})
    assert not get_user_model().objects.filter(username=site.HOUSE_USER).exists()
    squatter = make_user("squatter")
    services.create_club(squatter, site.HOUSE_CLUB)  # a player's club took the name first
    recurring.create_site_arenas(timezone.now())
    club = Arena.objects.select_related("event__club").first().event.club
    assert club.created_by.username == site.HOUSE_USER and not club.memberships.filter(user=squatter).exists()
