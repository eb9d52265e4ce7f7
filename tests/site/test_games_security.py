"""Bad input and forged requests over HTTP: each is refused with a message
(``#act-msg``) and the table does not change (version, action log, seats).

Cases already covered elsewhere: another seat, a seat to act forged, cards
not held, stale version, garbage payloads and a full room in
``test_games_views``; the websocket cases in ``test_games_consumers``.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.engine import get_rules
from games.models import HandAction, Room, Seat

pytestmark = pytest.mark.django_db

RULES = get_rules("baohuang")


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def _state(room):
    room.refresh_from_db()
    hand = services.current_hand(room)
    return (
        room.version,
        room.status,
        HandAction.objects.filter(hand=hand).count() if hand else 0,
        list(HandAction.objects.filter(hand=hand).values_list("seq", "payload")),
        list(Seat.objects.filter(room=room).values_list("index", "user", "bot_policy", "ready", "autoplay")),
    )


def _refused(response, status):
    assert response.status_code == status
    body = response.content.decode()
    assert 'id="act-msg"' in body and 'class="msg error"' in body
    assert response["HX-Retarget"] == "#act-msg"
    return body


def _to_act(room):
    return RULES.to_act(services.hand_state(services.current_hand(room)))


@pytest.mark.parametrize(
    "data, status",
    [
        ({"verb": "play", "cards": " ".join(["4S"] * 65), "version": "{v}"}, 400),  # huge card list
        ({"verb": "play", "cards": "4S " * 5000, "version": "{v}"}, 400),
        ({"verb": "play", "cards": " ".join(["4S", "4H", "4D", "4C"] * 16), "version": "{v}"}, 400),  # 64, not held
        ({"verb": "crown-accept", "version": "9" * 40}, 409),  # far beyond any version
        ({"verb": "crown-accept", "version": "-1"}, 409),
        ({"verb": "crown-accept", "version": "1.0"}, 400),  # not an integer
        ({"verb": "crown-accept", "version": ""}, 400),
        ({"verb": "crown-accept", "version": "{v}", "seat": "x"}, 403),  # a seat that is not ours
        ({"verb": "crown-accept", "version": "{v}", "seat": "-1"}, 403),
        ({"verb": "give", "give_1": "AS", "version": "{v}"}, 400),  # a 升级 verb at a 保皇 table
        ({"verb": "give", "give_x": "AS", "version": "{v}"}, 400),
        ({"verb": "give", "give_1": "AS " * 65, "version": "{v}"}, 400),
        ({"verb": "bury", "cards": "AS", "version": "{v}"}, 400),
        ({"verb": "solo-open", "version": "{v}"}, 400),  # not the phase (B9)
    ],
)
def test_forged_action_posts_change_nothing(five_humans, data, status):
    room, users = five_humans
    seat = _to_act(room)
    data = {k: v.replace("{v}", str(room.version)) for k, v in data.items()}
    before = _state(room)
    _refused(_client(users[seat]).post(f"/rooms/{room.pk}/act", data), status)
    assert _state(room) == before


def test_a_nul_in_an_action_is_refused_before_the_view(five_humans):
    """NUL in any parameter is a 400 from config.request_guard; htmx
    is told not to swap, so the table stays as it was."""
    room, users = five_humans
    before = _state(room)
    response = _client(users[_to_act(room)]).post(
        f"/rooms/{room.pk}/act", {"verb": "play\x00", "version": room.version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and response["HX-Reswap"] == "none"
    assert _state(room) == before


def test_json_body_and_get_change_nothing(five_humans):
    room, users = five_humans
    client = _client(users[_to_act(room)])
    before = _state(room)
    response = client.post(
        f"/rooms/{room.pk}/act", {"verb": "crown-accept", "version": room.version}, content_type="application/json"
    )
    _refused(response, 400)  # not a form: no version
    assert client.get(f"/rooms/{room.pk}/act").status_code == 405
    assert client.post(f"/rooms/{room.pk + 999}/act", {"verb": "pass", "version": 1}).status_code == 404
    assert _state(room) == before


def test_taking_a_second_seat_refused(bh_room, alice):
    before = _state(bh_room)
    body = _refused(_client(alice).post(f"/rooms/{bh_room.pk}/seat", {"index": 1}), 409)
    assert "你已经坐在这张桌上" in body
    assert _state(bh_room) == before


@pytest.mark.parametrize("index", ["-1", "5", "9" * 30, "one", ""])
def test_seat_out_of_range_refused(bh_room, bob, index):
    before = _state(bh_room)
    _refused(_client(bob).post(f"/rooms/{bh_room.pk}/seat", {"index": index}), 400)
    assert _state(bh_room) == before


def test_anonymous_room_operations_refused(bh_room):
    before = _state(bh_room)
    for op in ("seat", "leave", "ready", "fill-bots", "autoplay", "close"):
        _refused(Client().post(f"/rooms/{bh_room.pk}/{op}", {"index": 1}), 403)
    assert _state(bh_room) == before


def test_non_owner_cannot_fill_bots(bh_room, bob):
    services.take_seat(bh_room, bob, 1)
    before = _state(bh_room)
    body = _refused(_client(bob).post(f"/rooms/{bh_room.pk}/fill-bots", {"policy": "heuristic"}), 403)
    assert "只有房主" in body
    _refused(_client(bh_room.owner).post(f"/rooms/{bh_room.pk}/fill-bots", {"policy": "cheater"}), 400)
    assert _state(bh_room) == before


def test_non_owner_cannot_close_the_room(five_humans):
    room, users = five_humans
    before = _state(room)
    body = _refused(_client(users[1]).post(f"/rooms/{room.pk}/close"), 403)
    assert "只有房主" in body
    assert _state(room) == before and before[1] == Room.Status.PLAYING
    # the owner can
    assert _client(users[0]).post(f"/rooms/{room.pk}/close").status_code == 302
    room.refresh_from_db()
    assert room.status == Room.Status.CLOSED


def test_leaving_a_table_one_is_not_at_refused(five_humans, make_user):
    room, _users = five_humans
    before = _state(room)
    _refused(_client(make_user("stranger")).post(f"/rooms/{room.pk}/leave"), 409)
    _refused(_client(make_user("stranger2")).post(f"/rooms/{room.pk}/autoplay", {"on": "1"}), 409)
    assert _state(room) == before


def test_spectator_page_and_fragment_show_no_cards(five_humans, make_user):
    room, _users = five_humans
    spectator = _client(make_user("watcher"))
    for url in (f"/rooms/{room.pk}/", f"/rooms/{room.pk}/table"):
        html = spectator.get(url).content.decode()
        assert 'data-region="hand"' not in html and "data-my-seat" not in html
        assert 'data-action="hint"' not in html and 'hx-post="/rooms/%d/act"' % room.pk not in html
    # the hand is in the crown phase: the view of nobody has no hand
    assert RULES.view(services.hand_state(services.current_hand(room)), None).get("hand") in (None, [])
