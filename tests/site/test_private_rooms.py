"""Private rooms (games.private_rooms): never listed (lobby,
its push, home counts, profiles), opened and watched only by their seated
players (page, table fragment, table socket: 403 / 4403; visitors 4401),
joined through the invite link, made by the create-room checkbox, and
"play this deal again" rooms are private."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.db.models import F
from django.urls import reverse

from games import embargo, private_rooms, services
from games.models import Hand, Room, Seat
from games.render.tables import lobby_rooms, render_room_list

from .test_games_consumers import communicator


@pytest.fixture
def secret_room(alice, multipliers):
    """A waiting private 保皇 room of alice's, alice at seat 0."""
    return services.create_room(alice, "baohuang", "密室牌局", bot_delay_ms=0, private=True)


@pytest.fixture
def open_room(bob, multipliers):
    """A waiting public 保皇 room of bob's, bob at seat 0."""
    return services.create_room(bob, "baohuang", "公开牌局", bot_delay_ms=0)


# --------------------------------------------------------------------------- listing


@pytest.mark.django_db
def test_a_private_room_is_listed_nowhere(client, alice, bob, secret_room, open_room):
    assert list(lobby_rooms("baohuang")) == [open_room]
    client.force_login(bob)
    for html in (render_room_list("baohuang"), client.get("/g/baohuang/").content.decode()):
        assert "公开牌局" in html and "密室牌局" not in html
    counts = {g["code"]: g["rooms"] for g in client.get("/").context["games"]}
    assert counts["baohuang"] == 1  # bob's room only
    # a public profile's "playing now" list: bob's room, not alice's private one
    assert "密室牌局" not in client.get(f"/accounts/u/{alice.username}/").content.decode()
    assert "公开牌局" in client.get(f"/accounts/u/{bob.username}/").content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
async def test_the_lobby_push_leaves_a_private_room_out(alice, bob, multipliers):
    open_room = await database_sync_to_async(services.create_room)(bob, "baohuang", "公开牌局", bot_delay_ms=0)
    comm = communicator("/ws/lobby/baohuang/", bob)
    await comm.connect()
    first = await comm.receive_from(timeout=5)
    assert "公开牌局" in first
    secret = await database_sync_to_async(services.create_room)(
        alice, "baohuang", "密室牌局", bot_delay_ms=0, private=True)
    await database_sync_to_async(services.take_seat)(secret.pk, bob, 1, invite=private_rooms.invite_token(secret))
    await database_sync_to_async(services.take_seat)(open_room.pk, alice, 2)  # a public change: a push
    pushed = await comm.receive_from(timeout=5)
    while "2/5" not in pushed:  # the push of the private room's change, if any, came first
        assert "密室牌局" not in pushed
        pushed = await comm.receive_from(timeout=5)
    assert "公开牌局" in pushed and "密室牌局" not in pushed
    await comm.disconnect()


# --------------------------------------------------------------------------- who may open it


@pytest.mark.django_db
def test_only_seated_players_open_the_page_and_the_fragment(client, alice, bob, secret_room, django_user_model):
    client.force_login(bob)
    for path in (f"/rooms/{secret_room.pk}/", f"/rooms/{secret_room.pk}/table"):
        response = client.get(path)
        assert response.status_code == 403
        assert "私人房间" in response.content.decode()
        assert "invite-link" not in response.content.decode()
    client.force_login(alice)
    page = client.get(f"/rooms/{secret_room.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="invite-hint"' in html and 'data-action="copy-invite"' in html
    assert f'value="http://testserver{private_rooms.invite_path(secret_room)}"' in html
    assert client.get(f"/rooms/{secret_room.pk}/table").status_code == 200
    client.logout()
    anonymous = client.get(f"/rooms/{secret_room.pk}/")
    assert anonymous.status_code == 403 and 'data-action="sign-in"' in anonymous.content.decode()
    staff = django_user_model.objects.create_user("admin1", password="x", is_staff=True)
    client.force_login(staff)
    assert client.get(f"/rooms/{secret_room.pk}/").status_code == 200


@pytest.mark.django_db
def test_a_public_room_page_has_no_invite_hint(client, bob, open_room, alice):
    client.force_login(alice)  # a spectator, as before
    response = client.get(f"/rooms/{open_room.pk}/")
    assert response.status_code == 200 and 'data-testid="invite-hint"' not in response.content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
async def test_the_table_socket_serves_only_seated_players(alice, bob, multipliers):
    room = await database_sync_to_async(services.create_room)(
        alice, "baohuang", "密室牌局", bot_delay_ms=0, private=True)
    stranger = communicator(f"/ws/rooms/{room.pk}/", bob)
    assert (await stranger.connect())[0]
    assert await stranger.receive_output(timeout=3) == {"type": "websocket.close", "code": 4403}
    visitor = communicator(f"/ws/rooms/{room.pk}/", AnonymousUser())
    assert (await visitor.connect())[0]
    assert await visitor.receive_output(timeout=3) == {"type": "websocket.close", "code": 4401}
    player = communicator(f"/ws/rooms/{room.pk}/", alice)
    assert (await player.connect())[0]
    first = await player.receive_from(timeout=5)
    assert 'id="table"' in first
    # bob sits down with the link: now his socket is served; when he leaves, it is closed
    await database_sync_to_async(services.take_seat)(room.pk, bob, 3, invite=private_rooms.invite_token(room))
    assert 'id="table"' in await player.receive_from(timeout=5)
    seated = communicator(f"/ws/rooms/{room.pk}/", bob)
    assert (await seated.connect())[0]
    assert 'id="table"' in await seated.receive_from(timeout=5)
    await database_sync_to_async(services.leave_seat)(room.pk, bob)
    assert await seated.receive_output(timeout=5) == {"type": "websocket.close", "code": 4403}
    assert 'id="table"' in await player.receive_from(timeout=5)  # alice still gets the table
    await player.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
async def test_seated_players_sockets_cost_no_verdict_job(alice, bob, make_user, multipliers):
    """Every socket of a private room is guarded (its watch rule may refuse a
    player who left), but a push to players who are all seated asks no rule:
    no read-pool job, no query (stop 28 review, item 2); a stranger is still
    decided, and refused."""
    from games.live import snapshots

    room = await database_sync_to_async(services.create_room)(
        alice, "baohuang", "密室牌局", bot_delay_ms=0, private=True)
    await database_sync_to_async(services.take_seat)(room.pk, bob, 3, invite=private_rooms.invite_token(room))
    snapshots.forget(room.pk)
    snap = await snapshots.snapshot(room.pk, None)
    stranger = await database_sync_to_async(make_user)("carol")
    before = snapshots.stats["verdicts"]
    assert await snapshots.watch_verdicts(snap, [alice, bob]) == [True, True]
    assert snapshots.stats["verdicts"] == before
    assert await snapshots.watch_verdicts(snap, [alice, stranger]) == [True, False]
    assert snapshots.stats["verdicts"] == before + 1


# --------------------------------------------------------------------------- the invite link


@pytest.mark.django_db
def test_a_link_holder_takes_a_free_seat(client, alice, bob, secret_room):
    link = private_rooms.invite_path(secret_room)
    assert link == f"/rooms/{secret_room.pk}/invite/{private_rooms.invite_token(secret_room)}/"
    assert client.get(link)["Location"].startswith("/accounts/login/")  # sign in first
    client.force_login(bob)
    # without the link: the seat endpoint refuses, nothing changes
    assert client.post(f"/rooms/{secret_room.pk}/seat", {"index": "2"}).status_code == 403
    assert client.get(f"/rooms/{secret_room.pk}/invite/{'0' * 24}/").status_code == 404
    assert not Seat.objects.filter(room=secret_room, user=bob).exists()
    page = client.get(link)
    assert page.status_code == 200
    html = page.content.decode()
    assert "密室牌局" in html
    assert sorted(re.findall(r'data-seat="(\d)"', html)) == ["1", "2", "3", "4"]  # alice is at 0
    assert client.post(link, {"index": "0"}).status_code == 409  # alice's seat
    response = client.post(link, {"index": "2"})
    assert response.status_code == 302 and response["Location"] == f"/rooms/{secret_room.pk}/"
    assert Seat.objects.get(room=secret_room, index=2).user == bob
    assert client.get(f"/rooms/{secret_room.pk}/").status_code == 200
    assert client.get(link)["Location"] == f"/rooms/{secret_room.pk}/"  # seated already


@pytest.mark.django_db
def test_no_invite_page_for_a_public_room_and_the_services_check_the_token(alice, bob, open_room, secret_room):
    from django.test import Client

    from games.services.errors import Forbidden

    c = Client()
    c.force_login(alice)
    assert c.get(f"/rooms/{open_room.pk}/invite/{private_rooms.invite_token(open_room)}/").status_code == 404
    with pytest.raises(Forbidden):
        services.take_seat(secret_room, bob, 1, invite="not-the-token")
    with pytest.raises(Forbidden):
        services.take_seat(secret_room, bob, 1, invite=private_rooms.invite_token(open_room))
    assert services.take_seat(secret_room, bob, 1, invite=private_rooms.invite_token(secret_room)).applied


# --------------------------------------------------------------------------- making one


@pytest.mark.django_db
def test_the_create_form_checkbox_makes_a_private_room(client, alice, bob, settings):
    settings.RATE_ROOM_CREATE = "1000/m"
    client.force_login(alice)
    form = client.get("/rooms/new/").content.decode()
    assert 'name="private"' in form and 'type="checkbox"' in form
    base = {"game": "baohuang", "multiplier": "1", "turn_seconds": "30", "bot_delay_ms": "0", "options": "{}"}
    response = client.post("/rooms/new/", {**base, "name": "私房", "private": "on"})
    assert response.status_code == 302
    secret = Room.objects.get(name="私房")
    assert secret.private and response["Location"] == f"/rooms/{secret.pk}/"
    client.post("/rooms/new/", {**base, "name": "公房"})
    assert not Room.objects.get(name="公房").private
    assert [r.name for r in lobby_rooms("baohuang")] == ["公房"]


@pytest.mark.django_db
def test_admin_filters_rooms_by_private(client, alice, secret_room, open_room, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-123")
    client.force_login(admin)
    html = client.get("/admin/games/room/?private__exact=1").content.decode()
    assert "密室牌局" in html and "公开牌局" not in html


@pytest.mark.django_db
def test_a_play_this_deal_again_room_is_private(client, alice, bob, bot_room):
    from games.services import deal_replay

    hand = Hand.objects.get(match__room=bot_room)
    Hand.objects.filter(pk=hand.pk).update(complete=True, summary={"game_points": {"0": 1}})
    hand.refresh_from_db()
    room = deal_replay.start(hand, alice, 1)
    assert room.private
    assert room not in list(lobby_rooms("baohuang"))
    client.force_login(alice)
    assert client.get(f"/rooms/{room.pk}/").status_code == 200
    client.force_login(bob)
    assert client.get(f"/rooms/{room.pk}/").status_code == 403


@pytest.mark.django_db
def test_the_owner_replaces_the_invite_link_and_the_old_one_seats_no_one(client, alice, bob, make_user,
                                                                          secret_room):
    old = private_rooms.invite_token(secret_room)
    carol = make_user("carol")
    client.force_login(bob)  # not the owner: refused, the link unchanged
    assert client.post(reverse("room_invite_renew", args=[secret_room.pk])).status_code == 403
    secret_room.refresh_from_db()
    assert private_rooms.invite_token(secret_room) == old
    client.force_login(alice)
    page = client.get(f"/rooms/{secret_room.pk}/").content.decode()
    assert 'data-action="renew-invite"' in page and old in page
    assert client.get(reverse("room_invite_renew", args=[secret_room.pk])).status_code == 405
    assert client.post(reverse("room_invite_renew", args=[secret_room.pk])).status_code == 302
    secret_room.refresh_from_db()
    new = private_rooms.invite_token(secret_room)
    assert new != old and len(new) == private_rooms.TOKEN_LENGTH
    page = client.get(f"/rooms/{secret_room.pk}/").content.decode()
    assert new in page and old not in page
    client.force_login(bob)  # the old link: gone; the new one seats
    assert client.get(f"/rooms/{secret_room.pk}/invite/{old}/").status_code == 404
    with pytest.raises(services.ServiceError):
        services.take_seat(secret_room.pk, bob, 1, invite=old)
    assert client.get(f"/rooms/{secret_room.pk}/invite/{new}/").status_code == 200
    assert services.take_seat(secret_room.pk, carol, 2, invite=new).applied
    # a seated player who is not the owner sees no such button
    assert services.take_seat(secret_room.pk, bob, 1, invite=new).applied
    page = client.get(f"/rooms/{secret_room.pk}/").content.decode()
    assert 'id="invite-link"' in page and 'data-action="renew-invite"' not in page


@pytest.mark.django_db
def test_a_public_room_has_no_invite_link_to_replace(client, bob, open_room):
    client.force_login(bob)
    assert client.post(reverse("room_invite_renew", args=[open_room.pk])).status_code == 400
    open_room.refresh_from_db()
    assert open_room.invite_key == 0


# --------------------------------------------------------------------------- its finished hands


@pytest.fixture
def private_hand(alice, bob, secret_room, driver):
    """The first finished hand of ``secret_room``: alice and bob (through the
    invite link, seat 3) at the table, bots in the other seats."""
    services.take_seat(secret_room.pk, bob, 3, invite=private_rooms.invite_token(secret_room))
    services.fill_bots(secret_room, alice, "heuristic")
    for user in (alice, bob):
        services.set_ready(secret_room, user, True)
    driver(secret_room, lambda rm: Hand.objects.filter(match__room=rm, complete=True).exists())
    return Hand.objects.filter(match__room=secret_room, complete=True).first()


@pytest.mark.django_db
def test_a_private_hand_is_shown_only_to_its_players(client, alice, bob, make_user, django_user_model,
                                                      secret_room, private_hand):
    """Record, replay and a profile's link of a hand played in a private room:
    its players (and admins) only; a user who did not play it gets the 403
    page, and the player's profile does not link it for that user."""
    hand = private_hand
    carol = make_user("carol")
    pages = [reverse("hand_replay", args=[hand.pk]), reverse("hand_record", args=[hand.pk])]
    for user in (alice, bob):
        client.force_login(user)
        assert [client.get(page).status_code for page in pages] == [200, 200]
    client.force_login(carol)
    for page in pages:
        response = client.get(page)
        assert response.status_code == 403 and "私人房间" in response.content.decode()
    assert embargo.hidden_hands([hand.pk], carol) == {hand.pk}
    assert embargo.hidden_hands([hand.pk], alice) == set()
    profile = client.get(reverse("profile_user", args=["alice"])).content.decode()
    assert pages[0] not in profile
    # nor the private room's name or link: it is listed nowhere
    assert "密室牌局" not in profile and reverse("room", args=[secret_room.pk]) not in profile
    assert "不公开的牌桌" in profile
    client.force_login(alice)
    own = client.get(reverse("profile")).content.decode()
    assert pages[0] in own and "密室牌局" in own
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-123")
    client.force_login(admin)
    assert client.get(pages[0]).status_code == 200
    # the same hand in a room that is not private: shown to anyone signed in
    Room.objects.filter(pk=secret_room.pk).update(private=False)
    assert embargo.hidden_hands([hand.pk], carol) == set()
    client.force_login(carol)
    assert client.get(pages[0]).status_code == 200


@pytest.mark.django_db
def test_a_player_who_sat_down_later_gets_no_link_to_the_hands_before(client, alice, bob, make_user,
                                                                       secret_room, private_hand):
    """The table's score sheet and result panel of a private room: a hand's
    replay link only for the users who played it, with the reason in its
    place for the others (games.render.tables.hidden_links)."""
    hand = private_hand
    carol = make_user("carol")
    # carol takes bob's seat after the first hand (as if bob had left and she came in)
    secret_room.seats.filter(index=3).update(user=carol)
    Room.objects.filter(pk=secret_room.pk).update(version=F("version") + 1)
    replay = reverse("hand_replay", args=[hand.pk])
    client.force_login(alice)
    assert replay in client.get(reverse("room", args=[secret_room.pk])).content.decode()
    client.force_login(carol)
    page = client.get(reverse("room", args=[secret_room.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert replay not in html
    assert f'data-embargoed="{hand.pk}"' in html and "只有打这副牌的玩家可以查看" in html
    assert client.get(replay).status_code == 403
