"""Scheduled events: round 1 pairs and starts at the scheduled time
through the sweep, later rounds a set gap after the previous one ended; a
step killed in the middle (a worker dying) or run twice neither skips nor
doubles a round; check-in at the start (withdraw, or bots play the absent);
registration closes; "starts soon", "your table is ready" and "results"
notices go to the entrants once."""

from __future__ import annotations

from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.utils import timezone

from clubs import services
from clubs.models import Entry, Event, Round
from clubs.running import events
from clubs.running.rounds import sweep_rounds
from clubs.schedule import scheduling
from clubs.schedule.scheduling import sweep_schedules
from clubs.schedule_models import EventSchedule
from games.models import Room
from notifications.models import Kind, Notification

pytestmark = pytest.mark.django_db


@pytest.fixture
def bots_event(club_setup, multipliers):
    """A 3-round 保皇 Swiss of 10 bot entries (two tables), scheduled 60 s ahead, rounds 120 s apart."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="自动赛", game="baohuang", rounds=3, hands_per_round=1,
                                bot_delay_ms=0)
    events.add_bot_entries(olga, event, 10)
    start = timezone.now() + timedelta(seconds=60)
    scheduling.schedule_event(olga, event, starts_at=start, gap_minutes=2)
    return event, start


def numbers(event) -> list[tuple[int, str]]:
    return list(event.round_set.order_by("number").values_list("number", "status"))


def test_round_one_starts_at_the_scheduled_time_and_later_rounds_after_the_gap(bots_event, finish):
    event, start = bots_event
    sweep_schedules(now=start - timedelta(seconds=1))
    assert numbers(event) == []
    sweep_schedules(now=start + timedelta(seconds=1))
    assert numbers(event) == [(1, "running")]
    r1 = event.round_set.get(number=1)
    assert r1.tables.count() == 2 and all(t.room_id for t in r1.tables.all())
    sweep_schedules(now=start + timedelta(seconds=3))  # the next beat: nothing more
    assert numbers(event) == [(1, "running")]
    finish(r1, 1)
    assert r1.status == Round.Status.FINISHED and r1.ended
    sweep_schedules(now=r1.ended + timedelta(seconds=119))
    assert numbers(event) == [(1, "finished")]
    sweep_schedules(now=r1.ended + timedelta(seconds=121))
    assert numbers(event) == [(1, "finished"), (2, "running")]


def test_a_step_killed_midway_or_run_twice_neither_skips_nor_doubles(bots_event, finish, monkeypatch):
    """The worker dies after pairing, inside the step: everything of the step
    rolls back (no round, no room); the next beat starts round 1 once.  A
    preview left by an organiser is started as the due round, not skipped."""
    event, start = bots_event
    rooms_before = Room.objects.count()
    real_start = events.start_round

    def dies(user, round_):
        real_start(user, round_)  # the rooms are created, then the process dies
        raise SystemError("worker killed")

    monkeypatch.setattr(events, "start_round", dies)
    with pytest.raises(SystemError):
        scheduling.run_due(event.pk, now=start + timedelta(seconds=1))
    assert numbers(event) == [] and Room.objects.count() == rooms_before
    monkeypatch.setattr(events, "start_round", real_start)
    sweep_schedules(now=start + timedelta(seconds=2))   # the restarted worker's beat
    sweep_schedules(now=start + timedelta(seconds=2))   # a doubled beat
    assert numbers(event) == [(1, "running")]
    assert Room.objects.count() == rooms_before + 2
    finish(event.round_set.get(number=1), 1)
    ended = event.round_set.get(number=1).ended
    olga = event.created_by
    events.pair_round(olga, event)  # a preview of round 2 (the organiser looked, did not start)
    assert numbers(event) == [(1, "finished"), (2, "preview")]
    sweep_schedules(now=ended + timedelta(seconds=121))
    assert numbers(event) == [(1, "finished"), (2, "running")]
    finish(event.round_set.get(number=2), 1)
    r2_end = event.round_set.get(number=2).ended
    for _ in range(3):
        sweep_schedules(now=r2_end + timedelta(seconds=121))
    assert numbers(event) == [(1, "finished"), (2, "finished"), (3, "running")]
    finish(event.round_set.get(number=3), 1)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    sweep_schedules()
    sweep_schedules()
    assert numbers(event) == [(1, "finished"), (2, "finished"), (3, "finished")]
    assert EventSchedule.objects.get(pk=event.pk).results_announced
    # the organiser is told once
    assert Notification.objects.filter(kind=Kind.RESULTS, key=f"event:{event.pk}").count() == 1


@pytest.fixture
def people_event(club_setup, make_user, multipliers):
    """A 保皇 event: mike and pam entered (individuals), 3 bot entries; starts 60 s ahead."""
    club, olga, mike, *_ = club_setup
    pam = make_user("pam")
    services.join_club(pam, club.join_code)
    event = events.create_event(olga, club, name="签到赛", game="baohuang", rounds=1, hands_per_round=1,
                                bot_delay_ms=0)
    mine = events.register(mike, event)
    hers = events.register(pam, event)
    events.add_bot_entries(olga, event, 3)
    return event, mine, hers, olga, mike, pam


def test_absent_entries_are_withdrawn_before_pairing(people_event):
    event, mine, hers, olga, mike, pam = people_event
    start = timezone.now() + timedelta(seconds=30)
    scheduling.schedule_event(olga, event, starts_at=start, no_checkin=EventSchedule.NoCheckIn.WITHDRAW)
    scheduling.check_in(mike, mine)
    with pytest.raises(services.Forbidden):
        scheduling.check_in(mike, hers)
    sweep_schedules(now=start + timedelta(seconds=1))
    hers.refresh_from_db()
    assert hers.status == Entry.Status.WITHDRAWN
    paired = [i for t in event.round_set.get(number=1).pairing["tables"] for i in t]
    assert mine.pk in paired and hers.pk not in paired
    room = event.round_set.get(number=1).tables.get().room
    assert room.seats.filter(user=mike).exists()


def test_absent_players_seats_are_played_by_bots(people_event):
    event, mine, hers, olga, mike, pam = people_event
    start = timezone.now() + timedelta(seconds=30)
    scheduling.schedule_event(olga, event, starts_at=start, no_checkin=EventSchedule.NoCheckIn.BOT)
    scheduling.check_in(mike, mine)
    sweep_schedules(now=start + timedelta(seconds=1))
    hers.refresh_from_db()
    assert hers.status == Entry.Status.ACTIVE
    table = event.round_set.get(number=1).tables.get()
    assert hers.pk in table.entries
    room = table.room
    assert not room.seats.filter(user=pam).exists()
    assert room.seats.filter(user=mike).exists()
    assert room.seats.filter(user__isnull=True).count() == 4  # 3 bot entries + pam's seat


def test_checkin_opens_an_hour_before(people_event):
    event, mine, hers, olga, mike, pam = people_event
    scheduling.schedule_event(olga, event, starts_at=timezone.now() + timedelta(hours=3))
    with pytest.raises(services.Conflict):
        scheduling.check_in(mike, mine)


def test_registration_closes_at_its_time(club_setup, make_user, multipliers):
    club, olga, mike, *_ = club_setup
    event = events.create_event(olga, club, name="截止", game="baohuang", rounds=1)
    now = timezone.now()
    scheduling.schedule_event(olga, event, starts_at=now + timedelta(hours=2), registration_closes=now - timedelta(minutes=1))
    with pytest.raises(services.Conflict):
        events.register(mike, event)
    with pytest.raises(services.ClubError):  # closing after the start is refused
        scheduling.schedule_event(olga, event, starts_at=now + timedelta(hours=1), registration_closes=now + timedelta(hours=2))
    with pytest.raises(services.Forbidden):
        scheduling.schedule_event(mike, event, starts_at=now + timedelta(hours=1))


def test_start_is_a_wall_clock_time_in_the_clubs_zone(club_setup, multipliers):
    club, olga, *_ = club_setup
    club.time_zone = "Europe/London"
    club.save()
    event = events.create_event(olga, club, name="伦敦", game="baohuang", rounds=1)
    sched = scheduling.schedule_event(olga, event, starts_at=datetime(2031, 7, 1, 19, 30))
    sched.refresh_from_db()
    assert sched.starts_at.astimezone(dt_timezone.utc).hour == 18  # BST = UTC+1
    assert scheduling.local_time(event, sched.starts_at).strftime("%H:%M") == "19:30"


def test_entrants_are_told_once_starts_soon_table_ready_and_results(people_event, finish):
    event, mine, hers, olga, mike, pam = people_event
    start = timezone.now() + timedelta(minutes=20)
    scheduling.schedule_event(olga, event, starts_at=start, no_checkin=EventSchedule.NoCheckIn.BOT)
    # every member of the club was told registration is open
    assert set(Notification.objects.filter(kind=Kind.REGISTRATION_OPEN).values_list("user__username", flat=True)) == {
        "olga", "mike", "pam"}
    sweep_schedules(now=start - timedelta(minutes=16))
    assert not Notification.objects.filter(kind=Kind.STARTS_SOON).exists()
    for _ in range(2):
        sweep_schedules(now=start - timedelta(minutes=14))
    assert sorted(Notification.objects.filter(kind=Kind.STARTS_SOON).values_list("user__username", flat=True)) == [
        "mike", "pam"]
    scheduling.check_in(mike, mine)
    sweep_schedules(now=start + timedelta(seconds=1))
    sweep_schedules(now=start + timedelta(seconds=3))
    ready = Notification.objects.filter(kind=Kind.TABLE_READY)
    room = event.round_set.get(number=1).tables.get().room
    assert [(n.user.username, n.url) for n in ready] == [("mike", f"/rooms/{room.pk}/")]
    from games import services as game_services

    game_services.set_ready(room, mike, True)
    finish(event.round_set.get(number=1), 1)
    sweep_rounds()
    sweep_rounds()
    results = Notification.objects.filter(kind=Kind.RESULTS).order_by("user__username")
    assert [n.user.username for n in results] == ["mike", "olga", "pam"]
    card = results[0]
    assert card.url == f"/clubs/entries/{mine.pk}/card" and "mike" in card.body


def test_an_organiser_started_round_tells_the_seated_members_too(people_event, django_capture_on_commit_callbacks):
    event, mine, hers, olga, mike, pam = people_event
    r = events.pair_round(olga, event)
    with django_capture_on_commit_callbacks(execute=True):
        events.start_round(olga, r)
    ready = Notification.objects.filter(kind=Kind.TABLE_READY, key=f"event:{event.pk}:round:1")
    assert sorted(ready.values_list("user__username", flat=True)) == ["mike", "pam"]


def test_the_organisers_form_and_the_check_in_button(client, people_event):
    """The event page's schedule form takes the club's wall-clock time; an
    entrant's check-in button appears an hour before and checks them in."""
    event, mine, hers, olga, mike, pam = people_event
    local = scheduling.local_time(event, timezone.now() + timedelta(minutes=30)).replace(second=0, microsecond=0)
    client.force_login(olga)
    page = client.get(f"/clubs/events/{event.pk}/").content.decode()
    assert 'id="schedule-form"' in page
    resp = client.post(f"/clubs/events/{event.pk}/schedule", {
        "starts_at": local.strftime("%Y-%m-%dT%H:%M"), "auto_rounds": "on", "gap_minutes": "3",
        "no_checkin": "bot"})
    assert resp.status_code == 302
    sched = EventSchedule.objects.get(pk=event.pk)
    assert sched.starts_at == local and sched.gap_seconds == 180 and sched.no_checkin == "bot"
    client.force_login(mike)
    page = client.get(f"/clubs/events/{event.pk}/").content.decode()
    assert local.strftime("%Y-%m-%d %H:%M") in page.split('id="event-start"', 1)[1][:40]
    assert 'id="check-in"' in page and 'id="schedule-form"' not in page
    client.post(f"/clubs/entries/{mine.pk}/checkin")
    page = client.get(f"/clubs/events/{event.pk}/").content.decode()
    assert 'id="checked-in"' in page and 'id="check-in"' not in page
    assert scheduling.absent_players(event) == {hers.pk: [pam.pk]}


def test_results_notice_for_an_event_run_by_hand(people_event, finish, django_capture_on_commit_callbacks):
    event, mine, hers, olga, mike, pam = people_event
    r = events.pair_round(olga, event)
    events.start_round(olga, r)
    from games import services as game_services

    room = r.tables.get().room
    game_services.set_ready(room, mike, True)
    game_services.set_ready(room, pam, True)
    with django_capture_on_commit_callbacks(execute=True):
        finish(r, 1)
    results = Notification.objects.filter(kind=Kind.RESULTS, key=f"event:{event.pk}")
    assert sorted(results.values_list("user__username", flat=True)) == ["mike", "olga", "pam"]
    assert "成绩卡" in results.get(user=pam).body


def test_a_start_at_the_calendars_ends_is_refused_not_a_500(club_setup, client, multipliers):
    """the schedule form with year 1 (read in Shanghai, east of UTC,
    it overflowed: OverflowError, 500) or a time centuries away (the
    calendar's ends pass year 9999) is refused with 400 and saves nothing;
    ten years of room either side (HORIZON) is left."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="远期", game="baohuang", rounds=3)
    client.force_login(olga)
    form = {"starts_at": "2027-01-01T19:30", "gap_minutes": "5", "no_checkin": "withdraw", "auto_rounds": "on"}
    for field, value in [("starts_at", "0001-01-01T00:00"), ("registration_closes", "0001-01-01T00:00"),
                         ("starts_at", "9999-12-31T23:59"), ("starts_at", "1970-01-01T00:00")]:
        response = client.post(f"/clubs/events/{event.pk}/schedule", {**form, field: value})
        assert response.status_code == 400, (field, value)
    assert not EventSchedule.objects.exists()
    assert client.post(f"/clubs/events/{event.pk}/schedule", form).status_code == 302
    assert client.post(f"/clubs/events/{event.pk}/sessions",
                       {"first_round": "2", "starts_at": "0001-01-01T00:00"}).status_code == 400
    assert not EventSchedule.objects.get(event=event).sessions.exists()
    with pytest.raises(services.ClubError):
        scheduling.schedule_event(olga, event, starts_at=timezone.now() + scheduling.HORIZON + timedelta(days=1))
