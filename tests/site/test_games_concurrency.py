"""Two workers racing for the same turn: exactly one applies it (the
conditional version bump in games.services); the other finds it stale."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from games import services
from games.models import HandAction
from games.runtime.tasks import play_turn
from tests.conftest import make_due

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor == "sqlite",
        reason="SQLite's shared-cache test database locks whole tables; run on PostgreSQL",
    ),
]


def test_racing_workers_apply_a_turn_once(bot_room):
    make_due(bot_room)
    bot_room.refresh_from_db()
    version = bot_room.version
    results: list[str] = []
    barrier = threading.Barrier(4)

    def worker():
        try:
            barrier.wait(5)
            results.append(play_turn(bot_room.pk, version))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(results) == 4 and results.count("stale") == 3
    assert set(results) - {"stale"} <= {"bot", "timeout"}  # seat 0 is alice (C5 timeout)
    bot_room.refresh_from_db()
    assert bot_room.version == version + 1
    hand = services.current_hand(bot_room)
    assert list(HandAction.objects.filter(hand=hand).values_list("seq", flat=True)) == [0]


def test_racing_duplicate_clicks_apply_once(five_humans):
    room, users = five_humans
    hand = services.current_hand(room)
    seat = services.get_rules("baohuang").to_act(services.hand_state(hand))
    version = room.version
    outcomes = []
    barrier = threading.Barrier(3)

    def click():
        try:
            barrier.wait(5)
            outcomes.append(services.do_move(room.pk, seat, {"crown": "accept"}, version, user=users[seat]))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=click) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(o.applied for o in outcomes) == [False, False, True]
    assert HandAction.objects.filter(hand=hand).count() == 1
