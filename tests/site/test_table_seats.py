"""Seats around the table.  The viewer's seat is at position 0
(the bottom), the others in playing order; the seat to act carries the
timer; what each seat played in the round on the table is laid in front of
it; 升级 seats say 庄 / 庄家 / 闲 once the dealer is known."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import registry, services

pytestmark = pytest.mark.django_db


def page(room, user):
    c = Client()
    c.force_login(user)
    return c.get(f"/rooms/{room.pk}/").content.decode()


def positions(html):
    """Each seat's ring position as ring.css places it: (seat - ref) mod n,
    from the table's data-ring and data-ref and each seat's data-seat (the
    seats' markup says nothing of the viewer's place)."""
    n = int(re.search(r'data-ring="(\d+)"', html).group(1))
    ref = int(re.search(r'<div id="table"[^>]* data-ref="(\d+)"', html).group(1))
    seats = [int(s) for s in re.findall(r'<div id="seat-\d+" class="seat[^"]*" data-seat="(\d+)"', html)]
    assert len(seats) == n
    return {s: (s - ref) % n for s in seats}


def test_positions_are_relative_to_the_viewer(five_humans, make_user):
    room, users = five_humans
    assert positions(page(room, users[2])) == {2: 0, 3: 1, 4: 2, 0: 3, 1: 4}
    assert positions(page(room, make_user("watcher"))) == {i: i for i in range(5)}
    html = page(room, users[0])
    assert 'data-ring="5"' in html
    assert "data-pos" not in html and "pos-" not in html


def test_timer_on_the_seat_to_act_and_plays_in_front_of_seats(bot_room, alice, driver):
    rules = registry.get("baohuang").rules

    def a_set_on_the_table(r):
        hand = services.current_hand(r)
        view = rules.view(services.hand_state(hand), None)
        return view.get("phase") == "play" and any(e["verb"] == "play" for e in view["trick_log"])

    driver(bot_room, a_set_on_the_table)
    bot_room.refresh_from_db()
    hand = services.current_hand(bot_room)
    state = services.hand_state(hand)
    view = rules.view(state, 0)
    html = page(bot_room, alice)
    to_act = rules.to_act(state)
    seat_block = html[html.index(f'data-seat="{to_act}"'):]
    seat_block = seat_block[:seat_block.index('<div class="seat ') if '<div class="seat ' in seat_block else None]
    assert "seat-timer" in seat_block
    played = [e for e in view["trick_log"] if e["verb"] == "play"]
    last = {}
    for e in view["trick_log"]:
        last[e["seat"]] = e
    for seat, e in last.items():
        block = re.search(rf'data-played-seat="{seat}"[^>]*>(.*?)</div>', html, re.S)
        assert block, seat
        if e["verb"] == "play":
            assert re.findall(r'data-card="([^"]+)"', block.group(1)) == e["cards"]
    assert played


def test_shengji_role_tags():
    tags = registry.get("shengji").seat_tags
    assert [t.label for t in tags({"dealer": 1}, 1)] == ["庄"]
    assert [t.label for t in tags({"dealer": 1}, 3)] == ["庄家"]
    assert [t.label for t in tags({"dealer": 1}, 0)] == ["闲"]
    assert tags({"dealer": None}, 0) == []


def test_each_bot_seat_shows_its_level(bh_room, alice, make_user):
    """A bot's seat names its level (the filling policy: 高手 search, 启发式
    heuristic, 随机 random), in the viewer's language; a human's seat has none."""
    services.fill_bots(bh_room, alice, "search")
    from games.models import Seat

    Seat.objects.filter(room=bh_room, index=2).update(bot_policy="heuristic")
    Seat.objects.filter(room=bh_room, index=4).update(bot_policy="random")
    services.room_edited(bh_room)  # the admin's way to change seats behind the services
    html = page(bh_room, alice)
    tags = re.findall(r'data-bot-level="(\w+)">([^<]+)<', html)
    assert tags == [("search", "高手"), ("heuristic", "启发式"), ("search", "高手"), ("random", "随机")]
    c = Client()
    c.force_login(alice)
    c.cookies["django_language"] = "en"
    english = c.get(f"/rooms/{bh_room.pk}/").content.decode()
    assert re.findall(r'data-bot-level="(\w+)">([^<]+)<', english) == [
        ("search", "Expert"), ("heuristic", "Heuristic"), ("search", "Expert"), ("random", "Random")]
