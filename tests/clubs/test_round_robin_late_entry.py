"""Round robin after a late entry: the schedule is fixed over the
roster of round 1; a late entry is refused with the reason (registration,
bot entries, and pairing as a backstop); a withdrawal never makes a pair
meet twice (docs/tournaments.md, "Round robin")."""

from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse

from clubs import services
from clubs.models import Entry, EntryPlayer, Round
from clubs.running import events

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_robin(club_setup, multipliers):
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="循环", game="shengji", format="round_robin", rounds=5,
                                hands_per_round=1)
    entries = events.add_bot_entries(olga, event, 4)
    return event, [e.pk for e in entries]


def play_round(olga, event) -> Round:
    """Pair and start the next round, then mark it finished (no hands needed:
    pairing reads who met whom)."""
    r = events.start_round(olga, events.pair_round(olga, event))
    Round.objects.filter(pk=r.pk).update(status=Round.Status.FINISHED)
    r.refresh_from_db()
    return r


def meetings(event) -> Counter:
    met = Counter()
    for r in event.round_set.all():
        met.update(frozenset(t) for t in r.pairing["tables"])
    return met


def test_late_registration_refused_with_the_reason(client, club_setup, round_robin, make_user):
    club, olga, mike, *_ = club_setup
    event, ids = round_robin
    play_round(olga, event)
    pam = make_user("pam")
    services.join_club(pam, club.join_code)
    with pytest.raises(services.Conflict, match="循环赛已经开始"):
        events.register(mike, event, partner="pam")
    with pytest.raises(services.Conflict, match="循环赛已经开始"):
        events.add_bot_entries(olga, event, 1)
    client.force_login(mike)
    resp = client.post(reverse("event_register", args=[event.pk]), {"partner": "pam"})
    assert resp.status_code == 409 and "不能再报名" in resp.content.decode()
    assert event.entries.count() == 4


def test_registration_before_the_start_is_paired(club_setup, round_robin):
    """While round 1 is only a preview, a new entry joins and the preview is
    re-paired with it: five entries, five rounds, nobody meets twice."""
    club, olga, *_ = club_setup
    event, ids = round_robin
    events.pair_round(olga, event)
    events.add_bot_entries(olga, event, 1)
    for _ in range(5):
        play_round(olga, event)
    met = meetings(event)
    assert set(met.values()) == {1} and len(met) == 10


def test_late_entry_slipping_past_registration_is_refused_at_pairing(club_setup, round_robin):
    """An entry created some other way after round 1 (a direct insert here)
    is named in the refusal; nothing is paired."""
    club, olga, *_ = club_setup
    event, ids = round_robin
    play_round(olga, event)
    late = Entry.objects.create(event=event, name="迟到组", status=Entry.Status.ACTIVE, is_bot=True)
    EntryPlayer.objects.bulk_create([EntryPlayer(entry=late, index=k, confirmed=True) for k in range(2)])
    with pytest.raises(services.Conflict, match="迟到组"):
        events.pair_round(olga, event)
    assert event.round_set.count() == 1


def test_withdrawal_never_repeats_a_pair(club_setup, round_robin):
    """Four entries, three rounds; one withdraws after round 1: its scheduled
    opponents get the bye instead, and no two entries meet twice."""
    club, olga, *_ = club_setup
    event, ids = round_robin
    play_round(olga, event)
    gone = Entry.objects.get(pk=ids[3])
    events.withdraw(olga, gone)
    for _ in range(2):
        r = play_round(olga, event)
        assert ids[3] not in [i for t in r.pairing["tables"] for i in t]
        assert r.pairing["bye"] is not None
    assert set(meetings(event).values()) == {1}
