"""The organiser's live page (docs/tournaments.md "The live page"):
each table's hands done and score so far are pushed as each hand completes;
"stalled" shows only when a table has not changed for longer than twice the
turn limit (before: at once, for any table waiting for its players); the end
of the event is pushed.  The browser side: tests/browser/test_browser_event_live.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.urls import reverse
from django.utils import timezone

from clubs import services
from clubs.live.routing import websocket_urlpatterns
from clubs.models import Round
from clubs.running import events
from games.models import Hand, Room


def row_of(html: str, number: int) -> str:
    start = html.index(f'data-table="{number}"')
    return html[start:html.index("</tr>", start)]


@pytest.mark.django_db
def test_stalled_only_after_twice_the_turn_limit(client, club_setup, multipliers, make_user):
    club, olga, mike, *_ = club_setup
    pam = make_user("pam")
    services.join_club(pam, club.join_code)
    event = events.create_event(olga, club, name="停滞", game="shengji", rounds=1, hands_per_round=1,
                                turn_seconds=30)
    entry = events.register(mike, event, partner="pam")
    events.confirm(pam, entry)
    events.add_bot_entries(olga, event, 1)
    r = events.start_round(olga, events.pair_round(olga, event))
    room = r.tables.get().room
    client.force_login(olga)
    url = reverse("event", args=[event.pk])
    fresh = row_of(client.get(url).content.decode(), 1)
    assert "data-stalled" not in fresh and "停滞" not in fresh  # waiting for its players, just started
    Room.objects.filter(pk=room.pk).update(changed=timezone.now() - timedelta(seconds=59))
    assert "停滞" not in row_of(client.get(url).content.decode(), 1)
    Room.objects.filter(pk=room.pk).update(changed=timezone.now() - timedelta(seconds=61))
    stalled = row_of(client.get(url).content.decode(), 1)
    assert 'data-stalled="1"' in stalled and "停滞" in stalled
    Round.objects.filter(pk=r.pk).update(paused=True)
    assert "停滞" not in row_of(client.get(url).content.decode(), 1)


@pytest.fixture
async def _close_thread_connections():
    yield
    await database_sync_to_async(connections.close_all)()


async def receive_until(comm, predicate, limit: int = 30) -> str:
    for _ in range(limit):
        html = await comm.receive_from(timeout=20)
        if predicate(html):
            return html
    raise AssertionError("no such push")


@pytest.mark.django_db(transaction=True)
async def test_each_completed_hand_and_the_end_are_pushed(club_setup, multipliers, driver,
                                                          _close_thread_connections):
    club, olga, *_ = club_setup
    event = await database_sync_to_async(events.create_event)(
        olga, club, name="推送", game="shengji", rounds=1, hands_per_round=2, bot_delay_ms=0)
    await database_sync_to_async(events.add_bot_entries)(olga, event, 2)
    r = await database_sync_to_async(
        lambda: events.start_round(olga, events.pair_round(olga, event)))()
    room = await database_sync_to_async(lambda: r.tables.get().room)()
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/events/{event.pk}/")
    comm.scope["user"] = olga
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_from(timeout=20)
    assert 'data-hands-done="0"' in row_of(first, 1)
    await database_sync_to_async(driver)(
        room, lambda rm: Hand.objects.filter(match__room=rm, complete=True).count() >= 1)
    # no sweep ran and the table has not finished: only the completed hand can have pushed this
    html = await receive_until(comm, lambda h: 'data-hands-done="1"' in row_of(h, 1))
    assert "data-finished" not in row_of(html, 1) and 'class="so-far"' in row_of(html, 1)
    await database_sync_to_async(events.end_round_now)(olga, r)
    html = await receive_until(comm, lambda h: 'id="event-over"' in h)
    assert 'data-event-status="finished"' in html
    await comm.disconnect()


def points_now(room) -> list[int] | None:
    """The spectator view's points per pair in the room's hand in play (None
    when no hand is in play)."""
    from games.engine import get_rules
    from games.engine.shengji.tournament import points_in_play
    from games.services.readmodel import current_hand, hand_state

    hand = current_hand(room)
    if hand is None or hand.complete:
        return None
    return points_in_play(get_rules(room.game).view(hand_state(hand), None))


@pytest.mark.django_db(transaction=True)
async def test_points_of_the_hand_in_play_follow_the_tricks(club_setup, multipliers, driver,
                                                            _close_thread_connections):
    """Moves at a running table push the event page (coalesced, at most once a
    second): the points each pair has won in the hand in play appear before
    the hand completes."""
    club, olga, *_ = club_setup
    event = await database_sync_to_async(events.create_event)(
        olga, club, name="每墩", game="shengji", rounds=1, hands_per_round=1, bot_delay_ms=0)
    await database_sync_to_async(events.add_bot_entries)(olga, event, 2)
    r = await database_sync_to_async(
        lambda: events.start_round(olga, events.pair_round(olga, event)))()
    room = await database_sync_to_async(lambda: r.tables.get().room)()
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/events/{event.pk}/")
    comm.scope["user"] = olga
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from(timeout=20)
    await database_sync_to_async(driver)(room, lambda rm: sum(points_now(rm) or [0]) > 0)
    want = await database_sync_to_async(points_now)(room)
    html = await receive_until(comm, lambda h: f'data-in-play="{want[0]},{want[1]}"' in row_of(h, 1))
    assert 'data-hands-done="0"' in row_of(html, 1) and "本局已得分" in row_of(html, 1)
    await comm.disconnect()


def test_shengji_points_in_play_per_pair():
    """Seats 0 and 2 are entry 0 (team 0), seats 1 and 3 entry 1 (S1)."""
    from games.engine.shengji.tournament import points_in_play

    assert points_in_play({"points_won": {"0": 10, "1": 5, "2": 20, "3": 0}}) == [30, 5]
    assert points_in_play({}) == [0, 0]
