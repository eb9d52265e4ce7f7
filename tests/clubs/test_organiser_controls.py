"""The organiser is in control (docs/tournaments.md "Organiser controls"):
register a member or a pair on their behalf, withdraw or substitute an entry,
edit an event before it starts, cancel it; each asks for a confirmation first
(a page whose button posts again with ``confirm=1``; nothing changes before)
and leaves an audit line in words on the event page.  Finished (or cancelled)
events show neither 去你的牌桌 nor 退赛.  Without this commit none of the
register-for / substitute / edit / cancel pages existed (404) and a withdrawal
left no trace."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs import services
from clubs.models import Entry, Event, EventLog, Round
from clubs.running import events

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club_setup, multipliers, make_user):
    club, olga, mike, *_ = club_setup
    for name in ("pam", "sue"):
        services.join_club(make_user(name), club.join_code)
    return events.create_event(olga, club, name="周五升级赛", game="shengji", rounds=2, hands_per_round=1,
                               bot_delay_ms=0)


def page(client, event) -> str:
    return client.get(reverse("event", args=[event.pk])).content.decode()


def test_register_a_pair_on_their_behalf_after_confirmation(client, club_setup, event):
    club, olga, mike, *_ = club_setup
    client.force_login(olga)
    url = reverse("event_register_for", args=[event.pk])
    ask = client.post(url, {"member": "mike", "partner": "pam"})
    assert ask.status_code == 200 and 'id="confirm-question"' in ask.content.decode()
    assert "mike / pam" in ask.content.decode() and not event.entries.exists()
    done = client.post(url, {"member": "mike", "partner": "pam", "confirm": "1"})
    assert done.status_code == 302
    entry = event.entries.get()
    assert entry.status == Entry.Status.ACTIVE and entry.name == "mike / pam"
    assert "代为报名: mike / pam" in page(client, event)
    # a non-member, or someone already entered, is refused with a reason
    refused = client.post(url, {"member": "oscar", "partner": "sue", "confirm": "1"})
    assert refused.status_code == 400 and "不是本俱乐部的会员" in refused.content.decode()
    with pytest.raises(services.Conflict):
        events.register_for(olga, event, "sue", "pam")
    with pytest.raises(services.Forbidden):
        events.register_for(mike, event, "sue", "olga")


def test_withdraw_and_substitute_with_audit_lines(client, club_setup, event):
    club, olga, mike, *_ = club_setup
    entry = events.register_for(olga, event, "mike", "pam")
    client.force_login(olga)
    url = reverse("entry_substitute", args=[entry.pk])
    assert client.post(url, {"index": "1", "username": "sue"}).status_code == 200  # the question
    assert [p.user.username for p in entry.players.order_by("index")] == ["mike", "pam"]
    assert client.post(url, {"index": "1", "username": "sue", "confirm": "1"}).status_code == 302
    entry.refresh_from_db()
    assert [p.user.username for p in entry.players.order_by("index")] == ["mike", "sue"]
    assert entry.name == "mike / sue"
    wd = reverse("entry_withdraw", args=[entry.pk])
    assert client.post(wd).status_code == 200
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE
    assert client.post(wd, {"confirm": "1"}).status_code == 302
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN
    text = page(client, event)
    assert "替补: mike / sue: pam → sue" in text and "退赛: mike / sue" in text
    assert [line.action for line in EventLog.objects.filter(event=event)] == ["register", "substitute", "withdraw"]


def test_edit_before_start_only(client, club_setup, event):
    club, olga, mike, *_ = club_setup
    client.force_login(olga)
    url = reverse("event_edit", args=[event.pk])
    form = client.get(url).content.decode()
    assert 'value="周五升级赛"' in form and 'name="rounds"' in form
    data = {"name": "周六升级赛", "rounds": 4, "hands_per_round": 2, "minutes_per_round": "",
            "turn_seconds": 30, "bot_delay_ms": 0, "no_show": "forfeit", "grace_minutes": 5}
    assert 'id="confirm-question"' in client.post(url, data).content.decode()
    assert client.post(url, {**data, "confirm": "1"}).status_code == 302
    event.refresh_from_db()
    assert (event.name, event.rounds, event.hands_per_round, event.no_show) == ("周六升级赛", 4, 2, "forfeit")
    line = EventLog.objects.get(event=event, action="edit").detail
    assert "轮数 2 → 4" in line and "每轮局数 1 → 2" in line and "名称 周五升级赛 → 周六升级赛" in line
    # saving it unchanged writes no line
    client.post(url, {**data, "confirm": "1"})
    assert EventLog.objects.filter(event=event, action="edit").count() == 1
    events.add_bot_entries(olga, event, 2)
    events.start_round(olga, events.pair_round(olga, event))
    refused = client.post(url, {**data, "rounds": 5, "confirm": "1"})
    assert refused.status_code == 409 and "不能再修改" in refused.content.decode()


def test_cancel_a_running_event(client, club_setup, event):
    club, olga, mike, *_ = club_setup
    events.register_for(olga, event, "mike", "pam")
    events.add_bot_entries(olga, event, 1)
    r = events.start_round(olga, events.pair_round(olga, event))
    client.force_login(mike)
    assert "去你的牌桌" in page(client, event) and "退赛" in page(client, event)
    client.force_login(olga)
    url = reverse("event_cancel", args=[event.pk])
    assert client.post(url).status_code == 200
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    assert client.post(url, {"confirm": "1"}).status_code == 302
    event.refresh_from_db()
    r.refresh_from_db()
    assert event.status == Event.Status.CANCELLED and r.status == Round.Status.FINISHED
    assert r.tables.get().room.status == "closed"
    with pytest.raises(services.Conflict):
        events.pair_round(olga, event)
    client.force_login(mike)
    text = page(client, event)
    assert "去你的牌桌" not in text and ">退赛<" not in text and 'id="event-over"' in text
    assert "取消比赛: 周五升级赛" in text


def test_finished_event_hides_table_and_withdraw_links(client, club_setup, event, finish):
    club, olga, mike, *_ = club_setup
    Event.objects.filter(pk=event.pk).update(rounds=1)
    event.refresh_from_db()
    events.register_for(olga, event, "mike", "pam")
    events.add_bot_entries(olga, event, 1)
    r = events.start_round(olga, events.pair_round(olga, event))
    from games import services as game_services

    room = r.tables.get().room
    for name in ("mike", "pam"):
        game_services.set_ready(room, room.seats.get(user__username=name).user, True)
    finish(r, 1)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    client.force_login(mike)
    text = page(client, event)
    assert "去你的牌桌" not in text and ">退赛<" not in text and "比赛已结束" in text
