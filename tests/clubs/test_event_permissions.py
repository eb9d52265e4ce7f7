"""Every organiser action on an event is refused to a member who is not an
organiser and to another club's organiser: 403, a clear message, nothing
changed (clubs.rules: ``clubs.manage_event`` is per club)."""

from __future__ import annotations


import pytest
from django.urls import reverse

from clubs.models import Correction, Entry, Event, EventTable, Round
from clubs.running import events

pytestmark = pytest.mark.django_db

MESSAGE = "只有俱乐部“东城牌社”的组织者可以这样做"


@pytest.fixture
def running(club_setup, multipliers):
    """An event with round 1 finished (one table) and round 2 in preview."""
    from clubs.running.rounds import sweep_rounds
    from games.models import Hand
    from tests.conftest import drive

    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="周五升级赛", game="shengji", rounds=3, hands_per_round=1,
                                bot_delay_ms=0)
    events.add_bot_entries(olga, event, 2)
    r1 = events.start_round(olga, events.pair_round(olga, event))
    table = r1.tables.get()
    drive(table.room, lambda rm: Hand.objects.filter(match__room=rm, complete=True).exists())
    sweep_rounds()
    events.pair_round(olga, event)
    return event


def state(event):
    """Everything an organiser action could change."""
    event = Event.objects.get(pk=event.pk)
    return (
        event.status,
        list(Entry.objects.filter(event=event).values_list("pk", "status")),
        list(Round.objects.filter(event=event).values_list("number", "status", "pairing", "paused")),
        list(EventTable.objects.filter(round__event=event).values_list("pk", "result")),
        Correction.objects.count(),
        Event.objects.count(),
    )


def actions(event):
    table = EventTable.objects.filter(round__event=event).first()
    entry = event.entries.first()
    preview = event.round_set.get(status=Round.Status.PREVIEW)
    ids = [i for t in preview.pairing["tables"] for i in t]
    return [
        ("event_create", [event.club_id], {"name": "x", "game": "shengji", "format": "swiss", "movement": "swiss",
                                           "rounds": 3, "hands_per_round": 1, "turn_seconds": 30, "multiplier": 1,
                                           "no_show": "forfeit", "grace_minutes": 5}),
        ("event_bots", [event.pk], {"count": 2}),
        ("event_pair", [event.pk], {"again": "1"}),
        ("round_swap", [event.pk, preview.number], {"a": ids[0], "b": ids[1]}),
        ("round_start", [event.pk, preview.number], {}),
        ("round_pause", [event.pk, 1], {"paused": "1"}),
        ("round_end", [event.pk, 1], {}),
        ("table_correct", [table.pk], {"e0_margin": 9, "e0_points": 0, "e1_margin": -9, "e1_points": 0, "reason": "x"}),
        ("entry_withdraw", [entry.pk], {}),
    ]


@pytest.mark.parametrize("who", ["member", "other_organiser"])
def test_every_organiser_action_refused(client, club_setup, running, who):
    club, olga, mike, other, oscar = club_setup
    client.force_login(mike if who == "member" else oscar)
    for name, args, data in actions(running):
        before = state(running)
        r = client.post(reverse(name, args=args), data)
        assert r.status_code == 403, name
        assert MESSAGE in r.content.decode(), name
        assert state(running) == before, name


def test_organiser_may(client, club_setup, running):
    club, olga, *_ = club_setup
    client.force_login(olga)
    preview = running.round_set.get(status=Round.Status.PREVIEW)
    assert client.post(reverse("round_start", args=[running.pk, preview.number])).status_code == 302
    preview.refresh_from_db()
    assert preview.status == Round.Status.RUNNING


def test_organiser_of_other_club_cannot_use_the_service_either(club_setup, running):
    from clubs.services import Forbidden

    club, olga, mike, other, oscar = club_setup
    with pytest.raises(Forbidden, match="组织者"):
        events.add_bot_entries(oscar, running, 1)
    with pytest.raises(Forbidden):
        events.create_event(oscar, club, name="x", game="shengji")
