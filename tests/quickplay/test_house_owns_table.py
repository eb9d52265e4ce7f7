"""A quick-play table belongs to the house, not to whichever stranger the
matchmaker seated first: no seated player sees 关闭房间 or the 入座要求 link,
and none can close the room or set a seat requirement by posting to it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.house import HOUSE_USER
from games.models import Room
from quickplay import services
from tests.site.ratings_fixtures import make_user  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def quick_table(make_user, multipliers):
    """A 升級 quick-play table of four strangers, and its players."""
    users = [make_user(f"qh{i}") for i in range(4)]
    for user in users:
        services.join(user, "shengji", None)
    (room,) = services.run_pass("shengji")
    return room, users


def test_the_house_owns_the_table_and_no_player_has_owner_controls(quick_table):
    room, players = quick_table
    assert room.owner.username == HOUSE_USER and not room.owner.has_usable_password()
    for user in players:
        client = Client()
        client.force_login(user)
        page = client.get(reverse("room", args=[room.pk]))
        assert page.status_code == 200
        html = page.content.decode()
        assert 'data-action="close-room"' not in html
        assert 'data-link="minimum"' not in html
        assert 'data-link="report"' in html  # the menu is there: a seated player may report


def test_no_seated_player_can_close_the_room_or_set_a_minimum(quick_table):
    room, players = quick_table
    for user in players:
        client = Client()
        client.force_login(user)
        client.post(reverse("room_close", args=[room.pk]))
        assert Room.objects.get(pk=room.pk).status == Room.Status.PLAYING
        refused = client.post(reverse("moderation_room_minimum", args=[room.pk]), {"minimum": "1500"})
        assert refused.status_code == 403
