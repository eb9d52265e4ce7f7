"""Quick play through the database: joining, leaving, pairs of
friends, the matchmaker pass opening real tables, bot fill after the chosen
wait, idempotent passes, players whose page closed, and the pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Hand, Room, Seat
from quickplay import services
from quickplay.models import QueueEntry
from ratings import compute
from ratings.models import PlayerRating
from tests.site.ratings_fixtures import make_user  # noqa: F401

pytestmark = pytest.mark.django_db


def later(seconds: float):
    return timezone.now() + timedelta(seconds=seconds)


def test_join_is_idempotent_and_one_queue_at_a_time(make_user):
    a = make_user("qa")
    e1 = services.join(a, "shengji", 10)
    assert e1.status == QueueEntry.Status.WAITING and e1.rating == compute.display(compute.INITIAL[0])
    assert services.join(a, "shengji", 30).pk == e1.pk  # a double click changes nothing
    with pytest.raises(services.QueueError):
        services.join(a, "baohuang", 10)
    with pytest.raises(services.QueueError):
        services.join(a, "shengji", 7)  # only 10, 30 or never


def test_four_similar_players_get_a_table_and_a_second_pass_does_nothing(make_user, multipliers):
    users = [make_user(f"q{i}") for i in range(4)]
    entries = [services.join(u, "shengji", None) for u in users]
    (room,) = services.run_pass("shengji")
    assert room.status == Room.Status.PLAYING and Hand.objects.filter(match__room=room).count() == 1
    seated = set(Seat.objects.filter(room=room).values_list("user_id", flat=True))
    assert seated == {u.pk for u in users}
    assert not Seat.objects.filter(room=room, bot_policy__isnull=False).exists()
    for e in entries:
        e.refresh_from_db()
        assert e.status == QueueEntry.Status.MATCHED and e.room_id == room.pk
    assert services.run_pass("shengji") == []
    assert Room.objects.count() == 1
    assert services.recent_match(users[2]).room_id == room.pk


def test_players_far_apart_wait_until_the_window_widens(make_user, multipliers):
    users = [make_user(f"w{i}") for i in range(4)]
    PlayerRating.objects.create(user=users[0], game="shengji", mu=35.0, rating=compute.display(35.0),
                                hands=30)
    for u in users:
        services.join(u, "shengji", None)
    assert services.run_pass("shengji") == []  # 400 apart, window 60 at first
    assert services.run_pass("shengji", now=later(20)) == []  # 60 + 12·20 = 300
    assert len(services.run_pass("shengji", now=later(30))) == 1  # 60 + 12·30 = 420


def test_bots_fill_after_the_chosen_wait_not_before_and_never_for_never(make_user, multipliers):
    a, b = make_user("ba"), make_user("bb")
    services.join(a, "baohuang", 10)
    services.join(b, "baohuang", None)
    PlayerRating.objects.create(user=b, game="baohuang", mu=45.0, rating=compute.display(45.0),
                                hands=30)
    assert services.run_pass("baohuang", now=later(5)) == []
    (room,) = services.run_pass("baohuang", now=later(10.5))
    assert list(Seat.objects.filter(room=room, user__isnull=False).values_list("user_id", flat=True)) == [a.pk]
    assert Seat.objects.filter(room=room, bot_policy="search").count() == 4  # 高手
    assert room.status == Room.Status.PLAYING
    entry_b = QueueEntry.objects.get(user=b)
    assert entry_b.status == QueueEntry.Status.WAITING
    assert services.run_pass("baohuang", now=later(40)) == []  # "never": no bots, ever


def test_leaving_the_queue(make_user, multipliers):
    a = make_user("la")
    services.join(a, "shengji", 10)
    assert services.leave(a) == 1
    assert services.run_pass("shengji", now=later(30)) == []
    assert services.active_entry(a) is None
    assert services.join(a, "shengji", 10).status == QueueEntry.Status.WAITING  # may queue again


def test_a_closed_page_is_dropped_after_the_grace_but_kept_before(make_user, multipliers):
    a, b = make_user("ga"), make_user("gb")
    services.join(a, "baohuang", 10)
    services.join(b, "baohuang", 10)
    QueueEntry.objects.filter(user=a).update(seen=timezone.now() - timedelta(seconds=services.GRACE_S + 1))
    (room,) = services.run_pass("baohuang", now=later(11))
    assert QueueEntry.objects.get(user=a).status == QueueEntry.Status.LEFT
    assert Seat.objects.filter(room=room, user=b).exists()  # matched while his page was closed
    assert not Seat.objects.filter(room=room, user=a).exists()


def test_reconnecting_keeps_the_place_in_the_queue(make_user):
    a = make_user("ra")
    entry = services.join(a, "shengji", 30)
    QueueEntry.objects.filter(pk=entry.pk).update(seen=timezone.now() - timedelta(seconds=30))
    services.ping(a)  # the page reconnected
    entry.refresh_from_db()
    assert entry.seen > timezone.now() - timedelta(seconds=5)
    assert services.join(a, "shengji", 30).joined == entry.joined  # same place in the queue


def test_friends_queue_as_a_pair_and_sit_as_partners(make_user, multipliers):
    a, b, c, d = (make_user(n) for n in ("pa", "pb", "pc", "pd"))
    invite = services.invite(a, "shengji", None)
    assert invite.status == QueueEntry.Status.FORMING
    with pytest.raises(services.QueueError):
        services.invite(a, "baohuang", None)  # no fixed partners in 保皇
    pair = services.accept(b, invite.code)
    assert pair.status == QueueEntry.Status.WAITING and pair.partner == b
    assert services.join(b, "shengji", None).pk == pair.pk  # already queued, as a partner
    with pytest.raises(services.QueueError):
        services.join(b, "baohuang", None)
    services.join(c, "shengji", None)
    services.join(d, "shengji", None)
    (room,) = services.run_pass("shengji")
    seats = dict(Seat.objects.filter(room=room).values_list("user_id", "index"))
    assert (seats[a.pk] - seats[b.pk]) % 4 == 2  # opposite: partners (S1)
    assert services.leave(b) == 0


def test_pages_play_now_status_and_redirect_to_the_table(client, make_user, multipliers):
    a = make_user("va")
    client.force_login(a)
    lobby = client.get(reverse("game_lobby", args=["baohuang"])).content.decode()
    assert 'data-action="play-now"' in lobby
    response = client.post(reverse("quickplay_join", args=["baohuang"]), {"bots": "10"})
    assert response.status_code == 302
    entry = QueueEntry.objects.get(user=a)
    assert entry.bot_wait_s == 10
    page = client.get(reverse("quickplay", args=["baohuang"])).content.decode()
    assert 'data-state="waiting"' in page and 'data-action="leave-queue"' in page
    (room,) = services.run_pass("baohuang", now=later(11))
    status = client.get(reverse("quickplay_status")).content.decode()
    assert f'data-room-url="{reverse("room", args=[room.pk])}"' in status
    response = client.get(reverse("quickplay", args=["baohuang"]))
    assert response.status_code == 302 and response["Location"] == reverse("room", args=[room.pk])
    lobby = client.get(reverse("game_lobby", args=["baohuang"])).content.decode()
    assert 'data-action="goto-table"' in lobby  # back after closing the page: the way to his table
    client.post(reverse("quickplay_join", args=["shengji"]), {"bots": "never"})
    assert QueueEntry.objects.get(user=a, status="waiting").bot_wait_s is None
    client.post(reverse("quickplay_leave"))
    assert not QueueEntry.objects.filter(user=a, status="waiting").exists()


@pytest.mark.django_db
def test_a_bot_wait_with_leading_zeros_is_refused(client, make_user):
    """"010" was read as the form's "10" and queued the player (the fuzz
    test's bad value changed a row); only the form's own values queue."""
    client.force_login(make_user("ann"))
    for bad in ("010", "0030", "00"):
        client.post(reverse("quickplay_join", args=["baohuang"]), {"bots": bad})
    assert not QueueEntry.objects.exists()
    client.post(reverse("quickplay_join", args=["baohuang"]), {"bots": "10"})
    assert QueueEntry.objects.get().bot_wait_s == 10
