"""Blocks: two players who blocked each other are never seated at one
quick-play table (the matcher, and a pass with others waiting); a blocked
player can't take a seat in the blocker's room; his chat is not delivered
to the blocker over the table socket (the real consumer); the list is
editable on my profile's page and the other player is not told."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from games import services as game_services
from games.live.routing import websocket_urlpatterns
from games.models import Seat
from games.services.errors import Forbidden
from moderation import services
from moderation.models import Block
from notifications.models import Notification
from quickplay import matcher
from quickplay import services as queue
from quickplay.models import QueueEntry

APP = URLRouter(websocket_urlpatterns)


def test_the_matcher_never_puts_apart_parties_at_one_table():
    layout = matcher.Layout(4, ((0, 2), (1, 3)))
    parties = [matcher.Party(i, 1, 1500.0 + i, since=float(i), bot_wait=10) for i in range(1, 9)]
    for now in (0.0, 9.0, 100.0):
        tables = matcher.match(parties, layout, now, apart=[(1, 2), (3, 1)])
        assert len(tables) == 2
        for t in tables:
            assert not {1, 2} <= set(t.parties) and not {1, 3} <= set(t.parties)
    # only they are left: each gets a table of bots after the wait, not one together
    tables = matcher.match(parties[:2], layout, 20.0, apart=[(1, 2)])
    assert sorted(t.parties for t in tables) == [(1,), (2,)]


@settings(max_examples=150, deadline=None)
@given(
    arrivals=st.lists(st.tuples(st.floats(0, 60, allow_nan=False), st.integers(1400, 1700),
                                st.sampled_from([10.0, 30.0, None]), st.sampled_from([0, 0, 0, 1])),
                      min_size=2, max_size=16),
    pairs=st.lists(st.tuples(st.integers(0, 15), st.integers(0, 15)), max_size=12),
)
def test_over_random_queues_apart_parties_and_tiers_never_share_a_table(arrivals, pairs):
    """Passes every 2 s for 2 minutes: nobody seated twice, no table holds a
    blocked pair or two tiers (quick play's low-reputation grouping)."""
    layout = matcher.Layout(4, ((0, 2), (1, 3)))
    parties = [matcher.Party(i, 1, float(r), t, w, tier) for i, (t, r, w, tier) in enumerate(arrivals)]
    apart = {frozenset(p) for p in pairs if p[0] != p[1] and max(p) < len(parties)}
    seated: set[int] = set()
    now = 0.0
    while now <= 120.0:
        waiting = [p for p in parties if p.since <= now and p.id not in seated]
        for table in matcher.match(waiting, layout, now, apart=apart):
            ids = table.parties
            assert not seated.intersection(ids)
            seated.update(ids)
            assert not any(frozenset((a, b)) in apart for a in ids for b in ids if a != b)
            assert len({parties[i].tier for i in ids}) == 1
        now += 2.0


@pytest.mark.django_db
def test_players_who_blocked_each_other_are_never_seated_together(make_user, multipliers):
    users = [make_user(f"b{i}") for i in range(8)]
    a, b = users[0], users[1]
    services.block(a, b)
    services.block(b, a)
    for u in users:  # a and b first: the matcher would otherwise group them
        queue.join(u, "shengji", None)
    rooms = queue.run_pass("shengji")
    assert len(rooms) == 2
    for room in rooms:
        seated = set(Seat.objects.filter(room=room).values_list("user_id", flat=True))
        assert not {a.pk, b.pk} <= seated
    assert not QueueEntry.objects.filter(status=QueueEntry.Status.WAITING).exists()


@pytest.mark.django_db
def test_a_one_sided_block_keeps_them_apart_too(make_user, multipliers):
    users = [make_user(f"c{i}") for i in range(5)]
    services.block(users[1], users[0])
    for u in users:
        queue.join(u, "shengji", None)
    (room,) = queue.run_pass("shengji")
    seated = set(Seat.objects.filter(room=room).values_list("user_id", flat=True))
    assert not {users[0].pk, users[1].pk} <= seated and len(seated) == 4


@pytest.mark.django_db
def test_a_blocked_player_cannot_sit_in_the_blockers_room(bh_room, alice, bob, make_user):
    services.block(alice, bob)
    with pytest.raises(Forbidden) as refused:
        game_services.take_seat(bh_room, bob, 1)
    assert "黑名单" not in refused.value.message  # he is not told why
    carol = make_user("carol")
    game_services.take_seat(bh_room, carol, 1)
    # bob's own room: alice may still sit there (only the blocker's rooms refuse)
    room = game_services.create_room(bob, "baohuang", "bob 的房间", bot_delay_ms=0)
    game_services.take_seat(room, alice, 1)


@pytest.mark.django_db
def test_the_block_list_on_my_profile_is_editable_and_the_other_is_not_told(alice, bob, client):
    client.force_login(alice)
    page = client.get(reverse("profile")).content.decode()
    assert 'id="profile-block-add"' in page and reverse("moderation_blocks") in page
    assert client.post(reverse("moderation_blocks"), {"username": "bob"}).status_code == 302
    mine = client.get(reverse("profile")).content.decode()
    assert f'data-blocked="{bob.pk}"' in mine  # the list, editable, on my profile
    assert 'id="profile-blocks"' not in client.get(reverse("profile_user", args=["bob"])).content.decode()
    assert client.post(reverse("moderation_blocks"), {"username": "bob"}).status_code == 302  # again: one row
    assert list(Block.objects.values_list("user_id", "blocked_id")) == [(alice.pk, bob.pk)]
    assert "bob" in client.get(reverse("moderation_blocks")).content.decode()
    assert not Notification.objects.filter(user=bob).exists()
    assert client.post(reverse("moderation_blocks"), {"username": "alice"}).status_code == 400  # oneself
    client.post(reverse("moderation_blocks"), {"remove": str(bob.pk)})
    assert not Block.objects.exists()
    # bob cannot see alice's list
    client.force_login(bob)
    assert "bob" not in client.get(reverse("moderation_blocks")).content.decode().split('id="block-list"')[1]


async def _connect(room, user):
    comm = WebsocketCommunicator(APP, f"/ws/rooms/{room.pk}/")
    comm.scope["user"] = user
    comm.scope["cookies"] = {}
    assert (await comm.connect())[0]
    assert 'id="table"' in await comm.receive_from(timeout=10)
    return comm


async def _chat(comm):
    for _i in range(10):
        html = await comm.receive_from(timeout=10)
        if 'id="chat-log"' in html:
            return html
    raise AssertionError("no chat fragment")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
async def test_a_blocked_players_chat_is_not_delivered_to_the_blocker(bot_room, alice, bob, make_user):
    carol = await database_sync_to_async(make_user)("carol")
    await database_sync_to_async(services.block)(alice, bob)
    a, b, c = await _connect(bot_room, alice), await _connect(bot_room, bob), await _connect(bot_room, carol)
    await b.send_to(text_data=json.dumps({"chat": "bob says hi"}))
    assert "bob says hi" in await _chat(c)  # everyone else reads it
    await c.send_to(text_data=json.dumps({"chat": "carol here"}))
    html = await _chat(a)
    assert "carol here" in html and "bob says hi" not in html  # bob's line never reached alice
    # a block made while the socket is open applies to the next line
    await database_sync_to_async(services.block)(alice, carol)
    await c.send_to(text_data=json.dumps({"chat": "carol again"}))
    await b.send_to(text_data=json.dumps({"chat": "bob again"}))
    await a.send_to(text_data=json.dumps({"chat": "alice alone"}))
    html = await _chat(a)
    assert "alice alone" in html and "carol again" not in html and "bob again" not in html
    # on reconnect the history leaves bob's and carol's lines out too
    await a.disconnect()
    again = WebsocketCommunicator(APP, f"/ws/rooms/{bot_room.pk}/")
    again.scope["user"] = alice
    again.scope["cookies"] = {}
    assert (await again.connect())[0]
    await again.receive_from(timeout=10)
    history = await _chat(again)
    assert "alice alone" in history
    assert "bob says hi" not in history and "carol here" not in history
    for comm in (b, c, again):
        await comm.disconnect()
