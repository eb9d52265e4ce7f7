"""Multi-session events: a later evening's first round starts at the
session's time, not a gap after the previous round; the standings carry over
(one event); each session is its own entry on the calendar."""

from __future__ import annotations

from datetime import timedelta

import icalendar
import pytest
from django.utils import timezone

from clubs import services
from clubs.results.standings import standings
from clubs.running import events
from clubs.schedule import scheduling
from clubs.schedule.scheduling import sweep_schedules

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_evenings(club_setup, multipliers):
    """3 rounds of 升级 for 4 bot pairs: rounds 1-2 tonight, round 3 a week later."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="两晚联赛", game="shengji", rounds=3, hands_per_round=1,
                                bot_delay_ms=0)
    events.add_bot_entries(olga, event, 4)
    start = timezone.now() + timedelta(seconds=30)
    scheduling.schedule_event(olga, event, starts_at=start, gap_minutes=1)
    later = start + timedelta(days=7)
    scheduling.add_session(olga, event, starts_at=later, first_round=3)
    return event, start, later


def test_a_later_session_starts_at_its_own_time_and_standings_carry_over(two_evenings, finish):
    event, start, later = two_evenings
    sweep_schedules(now=start + timedelta(seconds=1))
    finish(event.round_set.get(number=1), 1)
    sweep_schedules(now=event.round_set.get(number=1).ended + timedelta(seconds=61))
    r2 = event.round_set.get(number=2)
    finish(r2, 1)
    after_two = {s.entry: s.score for s in standings(event)}
    sweep_schedules(now=r2.ended + timedelta(hours=1))  # the gap passed long ago: not tonight
    assert event.round_set.count() == 2
    sweep_schedules(now=later + timedelta(seconds=1))
    r3 = event.round_set.get(number=3)
    assert r3.status == "running"
    finish(r3, 1)
    event.refresh_from_db()
    assert event.status == "finished"
    final = {s.entry: s.score for s in standings(event)}
    assert all(final[e] >= after_two[e] for e in final) and sum(final.values()) > sum(after_two.values())


def test_each_session_is_on_the_calendar(client, two_evenings, club_setup):
    event, start, later = two_evenings
    club = club_setup[0]
    cal = icalendar.Calendar.from_ical(client.get(f"/clubs/{club.pk}/calendar.ics").content)
    rows = sorted(cal.walk("VEVENT"), key=lambda v: v.decoded("dtstart"))
    assert [str(v["summary"]) for v in rows] == ["东城牌社: 两晚联赛 (1/2)", "东城牌社: 两晚联赛 (2/2)"]
    assert [v.decoded("dtstart") for v in rows] == [start.replace(microsecond=0), later.replace(microsecond=0)]
    assert "rounds 1-2 of 3" in str(rows[0]["description"]) and "rounds 3-3 of 3" in str(rows[1]["description"])
    page = client.get(f"/clubs/events/{event.pk}/").content.decode()
    assert page.count("<li>第 ") >= 2 and 'id="event-sessions"' in page


def test_session_rules(two_evenings, club_setup):
    event, start, later = two_evenings
    club, olga, mike, *_ = club_setup
    with pytest.raises(services.ClubError):
        scheduling.add_session(olga, event, starts_at=later, first_round=1)
    with pytest.raises(services.ClubError):
        scheduling.add_session(olga, event, starts_at=later, first_round=4)
    with pytest.raises(services.ClubError):  # must start after the evening before
        scheduling.add_session(olga, event, starts_at=start - timedelta(hours=1), first_round=2)
    with pytest.raises(services.Forbidden):
        scheduling.add_session(mike, event, starts_at=later, first_round=2)
