"""Duplicate boards are embargoed (docs/tournaments.md "Nothing leaks"):
a board's hand record and replay are refused (403, with the sentence) to
everyone but admins, even the players who played it, until every table of the
round has completed that board or the round has ended.  Other events' hands
are never embargoed.  Without clubs/guards.py the record was downloadable as
soon as the first (bot) table finished the board."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.running import events
from games import embargo
from games.models import Hand
from tests.clubs.rounds import two_table_round

pytestmark = pytest.mark.django_db


def hands_of(table) -> list[Hand]:
    return list(Hand.objects.filter(match__room=table.room).order_by("match__number", "number"))


def complete(room) -> int:
    return Hand.objects.filter(match__room=room, complete=True).count()


@pytest.fixture
def duplicate_round(club_setup, multipliers):
    """A running duplicate round: 4 bot pairs at 2 tables, 2 boards."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="复式", game="shengji", format="duplicate", rounds=1,
                                hands_per_round=2, bot_delay_ms=0)
    events.add_bot_entries(olga, event, 4)
    r = events.start_round(olga, events.pair_round(olga, event))
    t1, t2 = r.tables.order_by("number")
    return r, t1, t2


def test_board_is_refused_until_every_table_played_it(client, club_setup, duplicate_round, driver,
                                                      django_user_model):
    club, olga, mike, *_ = club_setup
    r, t1, t2 = duplicate_round
    driver(t1.room, lambda rm: complete(rm) >= 1)
    board1 = hands_of(t1)[0]
    assert board1.complete and complete(t2.room) == 0
    client.force_login(mike)
    record = client.get(reverse("hand_record", args=[board1.pk]))
    assert record.status_code == 403
    page = record.content.decode()
    assert "第 1 副牌" in page and "所有牌桌打完这副牌或本轮结束后才能查看" in page
    assert client.get(reverse("hand_replay", args=[board1.pk])).status_code == 403
    assert embargo.is_embargoed(board1, olga)  # the organiser is no admin
    staff = django_user_model.objects.create_user("root", password="x", is_staff=True)
    client.force_login(staff)
    assert client.get(reverse("hand_record", args=[board1.pk])).status_code == 200

    # the second table completes board 1: board 1 is open, board 2 is not yet
    driver(t2.room, lambda rm: complete(rm) >= 1)
    client.force_login(mike)
    assert client.get(reverse("hand_record", args=[board1.pk])).status_code == 200
    assert client.get(reverse("hand_replay", args=[board1.pk])).status_code == 200
    driver(t1.room, lambda rm: complete(rm) >= 2)
    board2 = hands_of(t1)[1]
    assert client.get(reverse("hand_record", args=[board2.pk])).status_code == 403
    assert "第 2 副牌" in embargo.embargo_reason(board2, mike)


def test_round_end_lifts_the_embargo(client, club_setup, duplicate_round, driver):
    club, olga, mike, *_ = club_setup
    r, t1, t2 = duplicate_round
    driver(t1.room, lambda rm: complete(rm) >= 1)
    board1 = hands_of(t1)[0]
    assert embargo.is_embargoed(board1, mike)
    events.end_round_now(olga, r)
    client.force_login(mike)
    assert client.get(reverse("hand_record", args=[board1.pk])).status_code == 200


def test_swiss_event_hands_are_not_embargoed(client, club_setup, multipliers, driver):
    club, olga, mike, *_ = club_setup
    event = events.create_event(olga, club, name="瑞士", game="shengji", rounds=1, hands_per_round=2,
                                bot_delay_ms=0)
    events.add_bot_entries(olga, event, 4)
    r = events.start_round(olga, events.pair_round(olga, event))
    t1 = r.tables.order_by("number").first()
    driver(t1.room, lambda rm: complete(rm) >= 1)
    client.force_login(mike)
    assert client.get(reverse("hand_record", args=[hands_of(t1)[0].pk])).status_code == 200


def test_profile_leaves_out_links_to_an_embargoed_board(client, club_setup, multipliers, make_user, driver):
    """mike and pam play board 1 at their table; the other table has not: mike's
    profile (recent matches and points history) does not link to the board's
    replay until the round has ended."""
    olga, mike = club_setup[1:3]
    _, r, mine, _, _ = two_table_round(club_setup, make_user, ready=True)
    room = mine.room
    driver(room, lambda rm: complete(rm) >= 1)
    board1 = hands_of(mine)[0]
    assert embargo.is_embargoed(board1, mike)
    replay = reverse("hand_replay", args=[board1.pk])
    client.force_login(mike)
    profile = client.get(reverse("profile")).content.decode()
    assert mine.room.name in profile and replay not in profile
    events.end_round_now(olga, r)
    assert replay in client.get(reverse("profile")).content.decode()


def test_running_duplicate_scores_are_for_organisers_only(client, club_setup, duplicate_round, driver):
    """Another table's score on a board tells about the board: while a duplicate
    round runs, the event page shows the score so far and the results of its
    tables to the organisers only; everyone sees them once the round has ended."""
    club, olga, mike, *_ = club_setup
    r, t1, t2 = duplicate_round
    driver(t1.room, lambda rm: complete(rm) >= 1)
    url = reverse("event", args=[r.event_id])
    client.force_login(olga)
    assert 'class="so-far"' in client.get(url).content.decode()
    client.force_login(mike)
    assert 'class="so-far"' not in client.get(url).content.decode()
    client.logout()
    assert 'class="so-far"' not in client.get(url).content.decode()
    events.end_round_now(olga, r)
    client.force_login(mike)
    page = client.get(url).content.decode()
    assert page.count('data-finished="1"') == 2 and page.count('<td class="result"><span class="result-side">') == 2
