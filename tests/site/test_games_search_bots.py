"""The 高手 (search) bot level on the site (#13): the owner can fill seats with it
from the room page, and the server plays its moves like any bot's (in-process
here, in the Celery worker in production), each one legal and stored as a bot
action."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.models import HandAction

pytestmark = pytest.mark.django_db


def test_room_page_offers_the_search_level(bh_room, alice):
    client = Client()
    client.force_login(alice)
    html = client.get(f"/rooms/{bh_room.pk}/").content.decode()
    assert 'value="search"' in html and "高手机器人" in html


def test_fill_with_search_bots_and_they_play_legal_moves(bh_room, alice, driver):
    client = Client()
    client.force_login(alice)
    assert client.post(f"/rooms/{bh_room.pk}/fill-bots", {"policy": "search"}).status_code in (200, 302)
    assert sorted(s.bot_policy or "" for s in bh_room.seats.all()) == ["", "search", "search",
                                                                        "search", "search"]
    services.set_ready(bh_room, alice, True)

    def bot_moved(room):
        return HandAction.objects.filter(actor="bot").count() >= 3

    driver(bh_room, bot_moved, max_steps=40)
    moves = HandAction.objects.filter(actor="bot").order_by("seq")
    seats = {s.index: s.bot_policy for s in bh_room.seats.all()}
    assert all(seats[m.payload["seat"]] == "search" for m in moves)
