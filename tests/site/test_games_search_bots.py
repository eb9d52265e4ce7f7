"""The 高手 (search) bot level on the site: the owner can fill seats with it
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


def test_the_strong_level_is_the_default_for_filling_seats(bh_room, alice):
    """once the search bot meets the bar, it is what an owner's plain "add bots"
    seats: the form preselects 高手 and a request without a level gets it."""
    client = Client()
    client.force_login(alice)
    html = client.get(f"/rooms/{bh_room.pk}/").content.decode()
    assert '<option value="search" selected>' in html
    assert client.post(f"/rooms/{bh_room.pk}/fill-bots").status_code in (200, 302)
    assert sorted(s.bot_policy or "" for s in bh_room.seats.all()) == ["", "search", "search",
                                                                        "search", "search"]


def test_server_search_bots_think_for_the_configured_budget(bh_room, alice, driver, settings,
                                                            monkeypatch):
    """The worker's search bots get ``GAMES_SEARCH_BUDGET_MS`` per decision."""
    from games.engine import baohuang

    settings.GAMES_SEARCH_BUDGET_MS = 45
    budgets = []
    real = baohuang.RULES.bot_action

    def spy(state, seat, policy, rng=None, search=None):
        if policy == "search":
            budgets.append(search.budget_ms)
        return real(state, seat, policy, rng, search=search)

    monkeypatch.setattr(baohuang.RULES, "bot_action", spy)
    services.fill_bots(bh_room, alice)
    services.set_ready(bh_room, alice, True)
    driver(bh_room, lambda room: len(budgets) >= 2, max_steps=40)
    assert budgets and set(budgets) == {45.0}
