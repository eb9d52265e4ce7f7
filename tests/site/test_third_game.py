"""A third game needs no change to any site module.

``tests/thirdgame`` holds a tiny trick game (rules in a few dozen lines, a
:class:`~games.registry.GameSpec` with nothing but code, label and rules).
Registered through :func:`games.registry.register`, it is offered in the
lobby, plays a whole hand with bots through the real services and turns,
credits the ledger, renders its table, pushes over the websocket, and its
hand record replays with the engine's ``replay``.
"""

from __future__ import annotations

import io
import json
import re

from tests.table_pages import hand_codes

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.core.management import call_command
from django.db import connections
from django.test import Client

from accounts import ledger
from accounts.ladders import seed_missing_ladders
from accounts.models import LevelTitle, PointsEntry
from games import registry, services
from games.render import tables
from games.engine.records import replay_record
from games.models import Hand, Room
from games.live.routing import websocket_urlpatterns
from games.services.records import build_record
from tests.conftest import drive
from tests.thirdgame.rules import RULES
from tests.thirdgame.spec import SPEC

APP = URLRouter(websocket_urlpatterns)


@pytest.fixture
def highcard(db):
    """The test game, registered for one test (its title ladder seeded the
    way ``migrate`` does for a new game)."""
    registry.register(SPEC)
    seed_missing_ladders()
    yield SPEC
    registry.unregister(SPEC.code)


@pytest.fixture
def hc_room(highcard, alice, multipliers):
    """alice at seat 0 and two heuristic bots, everyone ready: hand 1 dealt."""
    room = services.create_room(alice, "highcard", "三人桌", multiplier=2, bot_delay_ms=0)
    services.fill_bots(room, alice, "heuristic")
    services.set_ready(room, alice, True)
    room.refresh_from_db()
    return room


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def test_registered_game_is_offered_everywhere(highcard, alice):
    client = _client(alice)
    lobby = client.get("/").content.decode()
    assert 'href="/g/highcard/"' in lobby and "High card" in lobby
    assert client.get("/g/highcard/").status_code == 200
    form = client.get("/rooms/new/").content.decode()
    assert 'value="highcard"' in form
    assert ("highcard", "High card") in registry.choices()
    assert "highcard" in ledger.GAME_CODES
    assert ledger.title_for("highcard", 25).name == "學前班"  # the default C4 ladder
    assert LevelTitle.objects.filter(game="highcard").count() == len(SPEC.ladder)


def test_whole_hand_with_bots_through_the_services(hc_room, alice):
    hand = services.current_hand(hc_room)
    assert hand.match.room.game == "highcard" and len(hand.players) == 3
    steps = drive(hc_room, lambda r: services.current_hand(r).complete, max_steps=50)
    assert steps == 9  # one server turn per card: alice times out (C5), bots play
    hand.refresh_from_db()
    assert hand.complete and hand.actions.count() == 9
    points = services.by_seat(hand.summary["game_points"], 3)
    assert sum(points) == 0 and set(points) <= {-2, 0, 2, 4}  # (tricks - 1) x multiplier 2
    entry = PointsEntry.objects.get(user=alice, game="highcard")
    assert entry.delta == points[0] and entry.hand_id == hand.pk
    # the next hand is dealt after the pause, with the opener moved on
    hc_room.refresh_from_db()
    drive(hc_room, lambda r: services.current_hand(r).number == 2, max_steps=5)
    second = services.current_hand(hc_room)
    assert second.start["start"]["opener"] == 1


def test_table_renders_for_the_seat_and_accepts_a_move(hc_room, alice):
    client = _client(alice)
    page = client.get(f"/rooms/{hc_room.pk}/").content.decode()
    assert 'class="table game-highcard"' in page and "三人桌" in page
    state = services.hand_state(services.current_hand(hc_room))
    mine = RULES.view(state, 0)["hand"]
    assert hand_codes(page) == mine  # own cards only
    if RULES.to_act(state) != 0:
        drive(hc_room, lambda r: RULES.to_act(services.hand_state(services.current_hand(r))) == 0)
        hc_room.refresh_from_db()
        state = services.hand_state(services.current_hand(hc_room))
    html = tables.render_table(hc_room, alice)
    assert 'data-action="play"' in html  # the generic board's buttons
    # the contract's default hint: the C5 move, from alice's own cards
    assert tables.table_view(hc_room, alice).hint == RULES.auto_action(state, 0).cards[0].code
    card = RULES.view(state, 0)["hand"][0]
    response = client.post(
        f"/rooms/{hc_room.pk}/act", {"verb": "play", "cards": card, "version": hc_room.version}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 204
    assert services.current_hand(hc_room).actions.filter(seat=0).count() == 1
    refused = client.post(f"/rooms/{hc_room.pk}/act", {"verb": "crown-accept", "version": hc_room.version + 1})
    assert refused.status_code == 400  # not a verb of this game


@pytest.mark.django_db(transaction=True)
async def test_websocket_pushes_the_seats_own_view(highcard, alice, multipliers):
    room = await database_sync_to_async(services.create_room)(alice, "highcard", "ws", bot_delay_ms=0)
    comm = WebsocketCommunicator(APP, f"/ws/rooms/{room.pk}/")
    comm.scope["user"] = alice
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_from(timeout=5)
    assert f'data-version="{room.version}"' in first
    await database_sync_to_async(services.fill_bots)(room.pk, alice, "random")
    await database_sync_to_async(services.set_ready)(room.pk, alice, True)
    # Frames may be coalesced (games.live.snapshots keeps only the newest version per
    # room), so read until the frame of the room's current version arrives.
    version = (await database_sync_to_async(Room.objects.get)(pk=room.pk)).version
    dealt = ""
    for _ in range(10):
        dealt = await comm.receive_from(timeout=5)
        if f'data-version="{version}"' in dealt:
            break
    assert f'data-version="{version}"' in dealt
    hand = await database_sync_to_async(services.current_hand)(room.pk)
    state = await database_sync_to_async(services.hand_state)(hand)
    assert hand_codes(dealt) == RULES.view(state, 0)["hand"]
    await comm.disconnect()
    await database_sync_to_async(connections.close_all)()


def test_record_and_replay(hc_room, alice, tmp_path):
    drive(hc_room, lambda r: services.current_hand(r).complete, max_steps=50)
    hand = Hand.objects.get(match__room=hc_room, number=1)
    record = build_record(hand)
    assert record["game"] == "highcard" and len(record["hands"][0]["actions"]) == 9
    out, status = replay_record(record)
    assert status == 0 and out["hands"][0] == hand.summary
    # the downloaded record and the replay command
    client = _client(alice)
    downloaded = json.loads(client.get(f"/hands/{hand.pk}/record.json").content)
    assert downloaded == json.loads(json.dumps(record))
    stdout = io.StringIO()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(path), stdout=stdout)
    assert exited.value.code == 0
    assert json.loads(stdout.getvalue())["hands"][0] == hand.summary
    # the replay page steps through it
    page = client.get(f"/hands/{hand.pk}/replay/?step=4").content.decode()
    assert 'data-step="4" data-total="9"' in page
    assert len(re.findall(r'data-replay-seat="\d"', page)) == 3
