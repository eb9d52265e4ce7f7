"""Recurring club events: an RFC 5545 rule in a time zone made into events
ahead (idempotent, at the same wall-clock time across a summer-time change),
announced, each cancelled or moved on its own while the rule stays, listed in
the club's iCalendar feed with a UID per instance; and the site's arena
schedule, whose conflicting slots are pruned by importance."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone as dt_tz

import icalendar
import pytest

from clubs.models import ArenaSchedule, ArenaSlot, Event, RecurringInstance
from clubs.schedule import recurring
from clubs.services import ClubError
from clubs.tournament.recurrence import ArenaPlan, Slot, arena_slots, occurrences, prune
from notifications.models import Notification

UTC = dt_tz.utc


def test_weekly_rule_keeps_its_wall_clock_across_summer_time():
    # every Tuesday 19:30 in Berlin: 18:30 UTC in winter time, 17:30 UTC after 29 March 2026
    starts = occurrences("FREQ=WEEKLY;BYDAY=TU", datetime(2026, 3, 3, 19, 30), "Europe/Berlin",
                         datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 4, 8, tzinfo=UTC))
    assert [s.strftime("%m-%d %H:%M") for s in starts] == [
        "03-03 18:30", "03-10 18:30", "03-17 18:30", "03-24 18:30", "03-31 17:30", "04-07 17:30"]


def test_a_time_the_clock_skips_lands_after_the_gap():
    # 02:30 does not exist in Berlin on 29 March 2026 (02:00 → 03:00): 03:30 CEST = 01:30 UTC
    starts = occurrences("FREQ=DAILY", datetime(2026, 3, 28, 2, 30), "Europe/Berlin",
                         datetime(2026, 3, 28, tzinfo=UTC), datetime(2026, 3, 31, tzinfo=UTC))
    assert [s.strftime("%d %H:%M") for s in starts] == ["28 01:30", "29 01:30", "30 00:30"]


def test_prune_keeps_the_more_important_slot():
    def slot(key, importance, h0, h1, track="shengji"):
        return Slot(datetime(2026, 12, 6, h0, tzinfo=UTC), datetime(2026, 12, 6, h1, tzinfo=UTC),
                    importance, track, key)
    hourly = [slot(f"h{h}", 1, h, h + 1) for h in range(17, 23)]
    daily = slot("d", 2, 19, 21)
    weekly = slot("w", 3, 20, 23)
    other_game = slot("b", 1, 20, 21, track="baohuang")
    kept = prune(hourly + [daily, weekly, other_game])
    # the weekly 20-23 wins; the daily 19-21 overlaps it and goes; hourlies 17, 18, 19 stay
    assert [s.key for s in kept] == ["h17", "h18", "h19", "b", "w"]


def test_arena_slots_of_the_three_frequencies():
    plans = [ArenaPlan("h", "shengji", "hourly", 57), ArenaPlan("d", "shengji", "daily", 120, hour=20),
             ArenaPlan("w", "shengji", "weekly", 180, hour=19, weekday=6)]
    sunday = datetime(2026, 11, 29, 17, tzinfo=UTC)
    slots = arena_slots(plans, sunday, sunday + timedelta(hours=6))
    assert sorted({s.key for s in slots}) == ["d", "h", "w"]
    kept = prune(slots)
    assert [(s.key, s.start.hour) for s in kept] == [("h", 17), ("h", 18), ("w", 19), ("h", 22)]


@pytest.fixture
def weekly(club_setup):
    club, olga, mike, *_ = club_setup
    club.time_zone = "Europe/Berlin"
    club.save()
    sched = recurring.create_recurring(
        olga, club, name="周二升级夜", rule="FREQ=WEEKLY;BYDAY=TU", first_start=datetime(2026, 3, 3, 19, 30),
        time_zone="Europe/Berlin", game="shengji", format="swiss", rounds=2, hands_per_round=2)
    return club, olga, mike, sched


@pytest.mark.django_db
def test_instances_are_created_ahead_once_and_announced(weekly):
    club, olga, mike, sched = weekly
    now = datetime(2026, 3, 12, 12, tzinfo=UTC)
    made = recurring.materialise(sched, now)
    # the next four weeks: 17, 24, 31 March (summer time from the 29th) and 7 April
    assert [i.occurrence.strftime("%m-%d %H:%M") for i in made] == [
        "03-17 18:30", "03-24 18:30", "03-31 17:30", "04-07 17:30"]
    assert [i.event.schedule.starts_at for i in made] == [i.occurrence for i in made]
    assert all(i.event.name.startswith("周二升级夜 2026-") for i in made)
    assert recurring.materialise(sched, now) == []  # a second sweep makes nothing
    assert RecurringInstance.objects.count() == 4 and Event.objects.count() == 4
    # announced like any scheduled event: members are told registration is open
    assert Notification.objects.filter(user=mike, kind="registration_open").count() == 4
    # a week later one more
    later = recurring.materialise(sched, now + timedelta(days=7))
    assert [i.occurrence.strftime("%m-%d") for i in later] == ["04-14"]


@pytest.mark.django_db
def test_one_instance_cancelled_and_one_moved_while_the_rule_stays(weekly, client):
    club, olga, mike, sched = weekly
    now = datetime(2026, 3, 12, 12, tzinfo=UTC)
    first, second, *_ = recurring.materialise(sched, now)
    recurring.cancel_instance(olga, first)
    first.event.refresh_from_db()
    assert first.event.status == Event.Status.CANCELLED
    moved = recurring.move_instance(olga, second, datetime(2026, 3, 25, 20, 0))  # Wednesday 20:00 Berlin
    assert moved.schedule.starts_at == datetime(2026, 3, 25, 19, 0, tzinfo=UTC)
    assert recurring.materialise(sched, now) == []  # neither comes back at the rule's time
    sched.refresh_from_db()
    assert sched.rule == "FREQ=WEEKLY;BYDAY=TU" and sched.instances.count() == 4
    # the feed lists every instance, the UID from the rule's occurrence (not the moved start)
    body = client.get(f"/clubs/{club.pk}/calendar.ics").content
    rows = {str(v["uid"]).split("@")[0]: v for v in icalendar.Calendar.from_ical(body).walk("VEVENT")}
    uids = [f"recurring-{sched.pk}-{d}" for d in
            ("20260317T183000Z", "20260324T183000Z", "20260331T173000Z", "20260407T173000Z")]
    assert sorted(rows) == uids
    assert str(rows[uids[0]]["status"]) == "CANCELLED"
    assert rows[uids[1]].decoded("dtstart") == datetime(2026, 3, 25, 19, 0, tzinfo=UTC)
    assert str(rows[uids[2]]["status"]) == "CONFIRMED"


@pytest.mark.django_db
def test_a_rule_that_cannot_be_read_is_refused(club_setup):
    club, olga, *_ = club_setup
    for rule in ("FREQ=SOMETIMES", "FREQ=MINUTELY", "FREQ=WEEKLY\nDTSTART:20260101T000000"):
        with pytest.raises(ClubError):
            recurring.create_recurring(olga, club, name="x", rule=rule, first_start=datetime(2026, 3, 3, 19, 30))


@pytest.mark.django_db
def test_site_arenas_go_through_the_plugged_factory_once():
    ArenaSchedule.objects.create(name="每小时", game="shengji", frequency="hourly", minutes=57, time_zone="UTC")
    ArenaSchedule.objects.create(name="每日", game="shengji", frequency="daily", hour=20, minutes=120,
                                 time_zone="UTC")
    now = datetime(2026, 12, 1, 0, 0, tzinfo=UTC)
    plugged = recurring._arena_factory  # the arena format's (clubs.arena.site), plugged in by ready()
    made = []
    try:
        recurring.register_arena_factory(None)
        assert recurring.create_site_arenas(now) == []  # no arena format plugged in: nothing
        recurring.register_arena_factory(lambda line, slot: made.append((line.frequency, slot.start.hour)) or "a")
        rows = recurring.create_site_arenas(now)
        assert recurring.create_site_arenas(now) == []
    finally:
        recurring.register_arena_factory(plugged)
    # 24 hours ahead: the daily 20:00-22:00 replaces the hourlies at 20 and 21
    assert ("daily", 20) in made and ("hourly", 20) not in made and ("hourly", 21) not in made
    assert len(made) == len(rows) == 23 and ArenaSlot.objects.count() == 23
