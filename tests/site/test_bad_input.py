"""point 3: bad input a user sends is refused with a message (4xx,
or a refusal on the socket), never a 500 or a socket closed with 1011, and
nothing is stored.

Each test names the failure it caught before its fix: the table socket died on
a mute of an unknown, out-of-range or non-ASCII-digit user id and on chat text
with NUL or a lone surrogate; a NUL in a club name was a 500 on PostgreSQL; a
900,000-character club description was stored although the model says 2,000;
the quick-play socket died on a bot wait that was a list.  (Concurrent
quick-play joins: ``tests/quickplay/test_join_race.py``; the replay command:
``tests/engine/test_replay_bad_input.py``; every endpoint and message type at
once: ``tests/site/test_fuzz_inputs.py``.)
"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections

from clubs import services as club_services
from clubs.models import Club, Correction, Event, EventTable
from clubs.running import events
from games.services import chat
from games.models import ChatMessage, ChatMute
from games.live.routing import websocket_urlpatterns
from quickplay.models import QueueEntry
from quickplay.routing import websocket_urlpatterns as queue_sockets

APP = URLRouter(websocket_urlpatterns + queue_sockets)


@pytest.fixture
async def _close_thread_connections():
    yield
    await database_sync_to_async(connections.close_all)()


@pytest.fixture
def club_setup(make_user):
    """A club and its organiser."""
    organiser = make_user("olga")
    return {"club": club_services.create_club(organiser, "东城牌社", "周五晚上"), "organiser": organiser}


async def table_socket(room, user):
    comm = WebsocketCommunicator(APP, f"/ws/rooms/{room.pk}/")
    comm.scope["user"] = user
    comm.scope["cookies"] = {}
    assert (await comm.connect())[0]
    assert 'id="table"' in await comm.receive_from(timeout=10)
    return comm


async def next_with(comm, marker: str) -> str:
    """The next message holding ``marker`` (table pushes in between skipped).
    A consumer that crashed makes ``receive_from`` raise its exception."""
    for _i in range(10):
        html = await comm.receive_from(timeout=10)
        if marker in html:
            return html
    raise AssertionError(f"no message with {marker!r}")


async def still_alive(comm, text: str) -> None:
    """The socket still carries chat: ``text`` comes back as a line."""
    await comm.send_to(text_data=json.dumps({"chat": text}))
    assert text in await next_with(comm, 'id="chat-log"')


# ------------------------------------------------------------------ table socket: mute


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("target", [
    "999999", 999999,                      # no such user: was IntegrityError (FK) -> 1011
    "99999999999999999999999",             # past bigint: was a database overflow -> 1011
    2**70,
    "²", "١٢",                             # str.isdigit() but not int(): was ValueError -> 1011
    True, 1.5, [1], {"id": 1}, None, -3, "0", "",
])
async def test_mute_of_a_bad_user_id_changes_nothing_and_keeps_the_socket(
        bot_room, alice, target, _close_thread_connections):
    comm = await table_socket(bot_room, alice)
    await comm.send_to(text_data=json.dumps({"mute": target}))
    await still_alive(comm, "after a bad mute")
    assert await database_sync_to_async(ChatMute.objects.count)() == 0
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_mute_of_a_real_user_as_a_json_number_still_works(bot_room, alice, bob, _close_thread_connections):
    comm = await table_socket(bot_room, alice)
    await comm.send_to(text_data=json.dumps({"mute": bob.pk}))
    await still_alive(comm, "muted bob")
    assert await database_sync_to_async(
        ChatMute.objects.filter(user=alice, muted=bob).exists)()
    await comm.disconnect()


# ------------------------------------------------------------------ table socket: chat text


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("raw, says", [
    ('{"chat": "a\\u0000b"}', "空字符"),        # NUL: PostgreSQL refused it -> 1011
    ('{"chat": "a\\ud800b"}', "无效的字符"),    # lone surrogate: no UTF-8 -> 1011
    ('{"chat": "\\udfff"}', "无效的字符"),
])
async def test_chat_text_that_cannot_be_stored_is_refused_with_a_message(
        bot_room, alice, raw, says, _close_thread_connections):
    comm = await table_socket(bot_room, alice)
    await comm.send_to(text_data=raw)
    assert says in await next_with(comm, 'id="chat-error"')
    await still_alive(comm, "after bad text")
    assert await database_sync_to_async(ChatMessage.objects.filter(text__contains="b").count)() == 1  # "after bad text"
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_deeply_nested_json_is_ignored(bot_room, alice, _close_thread_connections):
    comm = await table_socket(bot_room, alice)
    await comm.send_to(text_data="[" * 2500 + "]" * 250)  # RecursionError in json.loads
    await comm.send_to(text_data='{"chat": ' + "[" * 1200 + "]" * 1200 + "}")
    await still_alive(comm, "after nesting")
    await comm.disconnect()


def test_chat_post_refuses_nul_and_surrogates_in_the_service_too(bot_room, alice, db):
    for text in ("x\x00", "\ud83d", "ok \udc00 ok"):
        with pytest.raises(chat.ChatRefused):
            chat.post(bot_room.pk, alice, text)
    assert ChatMessage.objects.count() == 0


# ------------------------------------------------------------------ quick-play socket


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("bots", [[10], {"a": 1}, 10.5, True, "1e3", "١٠", "9" * 5000])
async def test_queue_socket_refuses_a_bad_bot_wait_and_stays_open(
        alice, multipliers, bots, _close_thread_connections):
    comm = WebsocketCommunicator(APP, "/ws/quickplay/")
    comm.scope["user"] = alice
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    await comm.send_to(text_data=json.dumps({"join": "baohuang", "bots": bots}))
    assert "queue-status" in await comm.receive_from(timeout=5)  # answered, not closed with 1011
    assert not await database_sync_to_async(QueueEntry.objects.exists)()
    await comm.send_to(text_data=json.dumps({"join": "baohuang", "bots": "10"}))
    await comm.receive_from(timeout=5)
    assert await database_sync_to_async(QueueEntry.objects.filter(user=alice, bot_wait_s=10).exists)()
    await comm.disconnect()


# ------------------------------------------------------------------ clubs


@pytest.mark.django_db
@pytest.mark.parametrize("name, description", [
    ("a\x00b", ""),                 # NUL: a 500 on PostgreSQL
    ("ok club", "x\x00"),
    ("ok club", "d" * 900_000),     # stored in full although the model says 2,000
    ("ok club", "d" * 2001),
    ("n" * 61, ""),                 # was cut to 60 silently
])
def test_club_create_refuses_what_cannot_be_stored(client, alice, name, description):
    client.force_login(alice)
    response = client.post("/clubs/new/", {"name": name, "description": description})
    assert response.status_code == 400
    assert not Club.objects.exists()


@pytest.mark.django_db
def test_club_limits_hold_on_every_path(client, club_setup):
    club, organiser = club_setup["club"], club_setup["organiser"]
    before = (club.name, club.description)
    client.force_login(organiser)
    response = client.post(f"/clubs/{club.pk}/edit", {"name": club.name, "description": "d" * 900_000})
    assert response.status_code == 400
    club.refresh_from_db()
    assert (club.name, club.description) == before
    with pytest.raises(club_services.ClubError):
        club_services.update_club(organiser, club, "x", "d" * 2001)
    with pytest.raises(club_services.ClubError):
        club_services.create_club(organiser, "x", "\ud800")
    # the limits themselves are accepted
    club_services.update_club(organiser, club, "n" * 60, "d" * 2000)
    club.refresh_from_db()
    assert len(club.name) == 60 and len(club.description) == 2000


@pytest.mark.django_db
def test_event_name_is_checked_by_the_service(club_setup, multipliers):
    club, organiser = club_setup["club"], club_setup["organiser"]
    for name in ("e" * 81, "a\x00b"):
        with pytest.raises(club_services.ClubError):
            events.create_event(organiser, club, name=name, game="baohuang", rounds=1)
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_a_correction_with_a_bad_reason_or_result_is_refused(club_setup, multipliers, make_user):
    club, organiser = club_setup["club"], club_setup["organiser"]
    event = events.create_event(organiser, club, name="e", game="shengji", rounds=1)
    events.add_bot_entries(organiser, event, 2)
    events.start_round(organiser, events.pair_round(organiser, event))
    table = EventTable.objects.get(round__event=event)
    good = [{"margin": 1, "points": 5}, {"margin": -1, "points": 0}]
    for result, reason in [
        (good, "r" * 2001),
        (good, "why\x00"),
        ([1, 2], "typo"),                              # stored before: the event page then broke
        ([{"margin": "1"}, {"margin": 0}], "typo"),
        ([{"margin": 10**30}, {"margin": 0}], "typo"),
        ([{"evil": 1}, {}], "typo"),
        (good[:1], "typo"),
    ]:
        with pytest.raises(club_services.ClubError):
            events.correct_result(organiser, table, result, reason)
    assert not Correction.objects.exists()
    events.correct_result(organiser, table, good, "r" * 2000)
    assert Correction.objects.count() == 1


# ------------------------------------------------------------------ any request (config.request_guard)


@pytest.mark.django_db
@pytest.mark.parametrize("body", [b"name=%FF&description=", b"name=ok&description=%ED%A0%80", b"name=a%00b"])
def test_a_form_value_that_is_not_utf8_or_holds_nul_is_a_400(client, alice, body):
    """Before: Django replaced the bytes with U+FFFD and the club was created
    with a name nobody typed; NUL was a 500 on PostgreSQL."""
    client.force_login(alice)
    response = client.post("/clubs/new/", data=body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert not Club.objects.exists()


@pytest.mark.django_db
def test_an_id_past_64_bits_in_the_url_is_a_404(client, club_setup):
    """Before: a foreign-key lookup with it overflowed the driver (500)."""
    client.force_login(club_setup["organiser"])
    assert client.post(f"/clubs/events/{2**63}/rounds/1/end").status_code == 404
    assert client.post(f"/clubs/{2**64}/edit", {"name": "x"}).status_code == 404


# ------------------------------------------------------------------ derived names past their column


@pytest.mark.django_db
def test_a_long_username_does_not_overflow_the_room_or_entry_name(make_user, multipliers):
    """Room.name holds 60 characters and Entry.name 80, but usernames hold
    150: the default room name "<user> 的房间" and a pair's "<a> / <b>" were
    longer (PostgreSQL: a 500, value too long)."""
    from games import services as game_services
    from clubs.models import Entry

    long_a, long_b = make_user("a" * 150), make_user("b" * 150)
    room = game_services.create_room(long_a, "baohuang", "   ")
    room.refresh_from_db()
    assert room.name.startswith("aaa") and len(room.name) == 60
    club = club_services.create_club(long_a, "长名俱乐部")
    club_services.join_club(long_b, club.join_code)
    event = events.create_event(long_a, club, name="e", game="shengji", rounds=1)
    entry = events.register(long_a, event, long_b.username)
    entry.refresh_from_db()
    assert len(entry.name) == Entry._meta.get_field("name").max_length
    with pytest.raises(game_services.ServiceError):
        game_services.create_room(long_b, "baohuang", "x\x00")
