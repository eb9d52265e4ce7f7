"""The club calendar: upcoming events with their local start on the club
page and the lobby; iCalendar feeds per club and per member (signed address)
that parse with the ``icalendar`` library and hold the event."""

from __future__ import annotations

from datetime import datetime, timedelta

import icalendar
import pytest
from django.utils import timezone

from clubs.running import events
from clubs.schedule import calendar, scheduling

pytestmark = pytest.mark.django_db


@pytest.fixture
def scheduled(club_setup, multipliers):
    club, olga, mike, other, oscar = club_setup
    event = events.create_event(olga, club, name="周五保皇夜", game="baohuang", rounds=3, hands_per_round=2)
    start = timezone.make_aware(datetime(2031, 3, 7, 19, 30), scheduling.club_zone(club))
    scheduling.schedule_event(olga, event, starts_at=start)
    unscheduled = events.create_event(olga, club, name="没有日期", game="baohuang", rounds=1)
    theirs = events.create_event(oscar, other, name="西城赛", game="baohuang", rounds=1)
    scheduling.schedule_event(oscar, theirs, starts_at=start + timedelta(days=1))
    return event, start, unscheduled, theirs


def vevents(body: bytes) -> list:
    cal = icalendar.Calendar.from_ical(body)
    return [c for c in cal.walk("VEVENT")]


def test_club_feed_parses_and_has_the_event(client, scheduled, club_setup):
    event, start, unscheduled, theirs = scheduled
    club = club_setup[0]
    resp = client.get(f"/clubs/{club.pk}/calendar.ics")
    assert resp.status_code == 200 and resp["Content-Type"].startswith("text/calendar")
    rows = vevents(resp.content)
    assert len(rows) == 1  # neither the unscheduled event nor the other club's
    ve = rows[0]
    assert str(ve["summary"]) == "东城牌社: 周五保皇夜"
    assert ve.decoded("dtstart") == start
    assert ve.decoded("dtend") > start
    assert str(ve["uid"]).startswith(f"event-{event.pk}@")
    assert str(ve["url"]).endswith(f"/clubs/events/{event.pk}/")


def test_member_feed_is_signed_and_holds_the_clubs_events(client, scheduled, club_setup):
    event, start, unscheduled, theirs = scheduled
    club, olga, mike, other, oscar = club_setup
    events.register(mike, event)
    url = calendar.member_feed_url(mike)
    path = url.split("localhost:8000", 1)[1]
    rows = vevents(client.get(path).content)
    assert [str(r["summary"]) for r in rows] == ["东城牌社: 周五保皇夜"]
    assert "entered" in str(rows[0]["description"])
    oscar_rows = vevents(client.get(calendar.member_feed_url(oscar).split("localhost:8000", 1)[1]).content)
    assert [str(r["summary"]) for r in oscar_rows] == ["西城牌社: 西城赛"]
    assert client.get(path.replace(".ics", "x.ics")).status_code == 404


def test_upcoming_events_on_club_page_and_lobby(client, scheduled, club_setup):
    event, start, unscheduled, theirs = scheduled
    club, olga, mike, *_ = club_setup
    html = client.get(f"/clubs/{club.pk}/").content.decode()
    upcoming = html.split('id="upcoming-events"', 1)[1].split("</section>", 1)[0]
    assert "周五保皇夜" in upcoming and "2031-03-07 19:30" in upcoming and "没有日期" not in upcoming
    assert f"/clubs/{club.pk}/calendar.ics" in upcoming
    client.force_login(mike)
    lobby = client.get("/").content.decode()
    upcoming = lobby.split('id="upcoming-events"', 1)[1].split("</section>", 1)[0]
    assert "周五保皇夜" in upcoming and "西城赛" not in upcoming  # mike is not in the other club
    assert "/clubs/calendar/" in upcoming
