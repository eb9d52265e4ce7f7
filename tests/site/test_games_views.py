"""Pages and POST endpoints: the table, forged posts, CSRF, lobby, create form."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from games.engine import get_rules
from games.engine.cards import standard_deck
from games.models import HandAction, Room, Seat
from tests.table_pages import hand_codes

pytestmark = pytest.mark.django_db

RULES = get_rules("baohuang")


def _client(user, csrf=False):
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def _state(room):
    room.refresh_from_db()
    hand = services.current_hand(room)
    return (
        room.version,
        list(HandAction.objects.filter(hand=hand).values_list("seq", "payload")),
        list(Seat.objects.filter(room=room).values_list("index", "user", "bot_policy", "ready", "autoplay")),
    )


def _to_act(room):
    hand = services.current_hand(room)
    return RULES.to_act(services.hand_state(hand)), hand


def _url(room):
    return f"/rooms/{room.pk}/act"


def test_room_page_shows_own_hand_sorted_and_hooks(bot_room, alice):
    response = _client(alice).get(f"/rooms/{bot_room.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    hand = services.current_hand(bot_room)
    mine = RULES.view(services.hand_state(hand), 0)["hand"]
    assert hand_codes(html) == mine  # engine order: high to low (B2)
    assert f'data-version="{bot_room.version}"' in html
    assert 'data-committed-at="' in html
    assert 'id="turn-indicator"' in html and 'id="countdown"' in html
    assert f'ws-connect="/ws/rooms/{bot_room.pk}/"' in html
    for other in range(1, 5):  # nobody else's cards
        for code in set(RULES.view(services.hand_state(hand), other)["hand"]) - set(mine):
            assert code not in hand_codes(html)


def test_legal_buttons_only_for_the_seat_to_act(five_humans):
    room, users = five_humans
    seat, _hand = _to_act(room)
    html = _client(users[seat]).get(f"/rooms/{room.pk}/").content.decode()
    assert 'data-action="crown-accept"' in html and 'data-action="crown-pass"' in html
    assert 'data-action="play"' not in html
    other = users[(seat + 1) % 5]
    html = _client(other).get(f"/rooms/{room.pk}/").content.decode()
    assert 'data-action="crown-accept"' not in html


def test_post_action_applies_and_the_push_alone_brings_the_table(five_humans, monkeypatch,
                                                                  django_capture_on_commit_callbacks):
    """Render once per version per audience: the POST's answer carries no
    table (204, htmx swaps nothing),
    the commit is announced once with the new version, and the push renders
    that version for the mover as for everyone."""
    from games.live import notify
    from games.live import snapshots as live

    pushed = []
    monkeypatch.setattr(notify, "table_changed",
                        lambda room_id, version, game, lobby=True: pushed.append((room_id, version)))
    room, users = five_humans
    seat, hand = _to_act(room)
    with django_capture_on_commit_callbacks(execute=True):
        response = _client(users[seat]).post(
            _url(room), {"verb": "crown-accept", "version": room.version}, HTTP_HX_REQUEST="true"
        )
    # 204: htmx swaps nothing (the button's morph of #table on an answer
    # without a table would empty the page)
    assert response.status_code == 204 and response.content == b""
    assert HandAction.objects.get(hand=hand, seq=0).payload == {"seat": seat, "crown": "accept"}
    assert HandAction.objects.get(hand=hand, seq=0).actor == "user"
    room.refresh_from_db()
    assert pushed == [(room.pk, room.version)]
    live.forget(room.pk)
    snap = live.load_snapshot(room.pk)
    assert f'data-version="{room.version}"' in live.render_seat(snap, users[seat], snap.version, None)
    # a plain form post (no htmx) goes back to the room page
    seat, hand = _to_act(room)
    record = RULES.auto_action(services.hand_state(hand), seat).to_record()
    record.pop("seat")
    (verb, value), = record.items()
    fields = ({"verb": verb, "cards": " ".join(value)} if isinstance(value, list)
              else {"verb": verb} if value is True else {"verb": f"{verb}-{value}"})
    plain = _client(users[seat]).post(_url(room), {**fields, "version": room.version})
    assert plain.status_code == 302 and plain["Location"] == f"/rooms/{room.pk}/"


def test_forged_post_for_another_seat_refused(five_humans):
    room, users = five_humans
    seat, _hand = _to_act(room)
    other = (seat + 1) % 5
    before = _state(room)
    # a user who is not to act
    r1 = _client(users[other]).post(_url(room), {"verb": "crown-accept", "version": room.version})
    assert r1.status_code == 403
    # a user naming someone else's seat
    r2 = _client(users[other]).post(
        _url(room), {"verb": "crown-accept", "version": room.version, "seat": seat}
    )
    assert r2.status_code == 403
    assert "act-msg" in r2.content.decode()
    assert _state(room) == before


def test_non_player_post_refused(five_humans, make_user):
    room, _users = five_humans
    before = _state(room)
    response = _client(make_user("stranger")).post(_url(room), {"verb": "crown-accept", "version": room.version})
    assert response.status_code == 403
    assert _state(room) == before
    anonymous = Client().post(_url(room), {"verb": "crown-accept", "version": room.version})
    assert anonymous.status_code == 403
    assert _state(room) == before


def test_cards_not_held_refused(bot_room, alice, driver):
    # let bots (and alice, timed out) run until alice must lead or follow in play
    def alice_to_play(r):
        seat, hand = _to_act(r)
        return seat == 0 and "play" in RULES.legal_verbs(services.hand_state(hand), 0)

    driver(bot_room, alice_to_play)
    services.set_autoplay(bot_room, alice, False)
    bot_room.refresh_from_db()
    _seat, hand = _to_act(bot_room)
    mine = RULES.view(services.hand_state(hand), 0)["hand"]
    missing = next(c.code for c in standard_deck() if c.code not in mine)  # a code held 0 times
    before = _state(bot_room)
    response = _client(alice).post(
        _url(bot_room), {"verb": "play", "cards": missing, "version": bot_room.version}
    )
    assert response.status_code == 400
    assert _state(bot_room) == before


def test_stale_version_refused_with_409(five_humans):
    room, users = five_humans
    seat, _hand = _to_act(room)
    before = _state(room)
    response = _client(users[seat]).post(_url(room), {"verb": "crown-accept", "version": room.version - 1})
    assert response.status_code == 409
    assert response["HX-Retarget"] == "#act-msg"
    assert _state(room) == before


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"verb": "crown-accept"},
        {"verb": "crown-accept", "version": "abc"},
        {"verb": "fly", "version": "{v}"},
        {"verb": "crown-maybe", "version": "{v}"},
        {"verb": "play", "cards": "", "version": "{v}"},
        {"verb": "play", "cards": "XX 11S", "version": "{v}"},
        {"verb": "x" * 100, "version": "{v}"},
    ],
)
def test_garbage_payload_refused(five_humans, data):
    room, users = five_humans
    seat, _hand = _to_act(room)
    data = {k: v.replace("{v}", str(room.version)) for k, v in data.items()}
    before = _state(room)
    response = _client(users[seat]).post(_url(room), data)
    assert response.status_code == 400
    assert _state(room) == before


def test_joining_a_full_room_refused(five_humans, make_user):
    room, _users = five_humans
    before = _state(room)
    response = _client(make_user("late")).post(f"/rooms/{room.pk}/seat", {"index": 2})
    assert response.status_code == 409
    assert _state(room) == before


def test_csrf_enforced(five_humans):
    room, users = five_humans
    seat, _hand = _to_act(room)
    client = _client(users[seat], csrf=True)
    before = _state(room)
    response = client.post(_url(room), {"verb": "crown-accept", "version": room.version})
    assert response.status_code == 403
    assert _state(room) == before
    # with the token from the page (as htmx sends it) it works
    page = client.get(f"/rooms/{room.pk}/").content.decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    response = client.post(
        _url(room), {"verb": "crown-accept", "version": room.version}, HTTP_X_CSRFTOKEN=token
    )
    assert response.status_code in (200, 302)
    assert _state(room) != before


def test_seat_ready_fill_bots_flow(alice):
    client = _client(alice)
    response = client.post(
        "/rooms/new/",
        {"game": "baohuang", "name": "桌一", "multiplier": 1, "turn_seconds": 20, "bot_delay_ms": 500, "options": "{}"},
    )
    assert response.status_code == 302
    room = Room.objects.get(name="桌一")
    page = client.get(response["Location"]).content.decode()
    assert 'id="fill-bots"' in page and 'data-action="ready"' in page
    r = client.post(f"/rooms/{room.pk}/fill-bots", {"policy": "random"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and 'id="fill-bots"' not in r.content.decode()
    r = client.post(f"/rooms/{room.pk}/ready", {"ready": "1"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    assert 'data-region="hand"' in r.content.decode()


def test_take_seat_button_for_spectator(bh_room, bob):
    page = _client(bob).get(f"/rooms/{bh_room.pk}/").content.decode()
    assert 'data-seat-take="1"' in page and 'data-seat-take="0"' not in page
    r = _client(bob).post(f"/rooms/{bh_room.pk}/seat", {"index": 1}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    assert bh_room.seats.get(index=1).user == bob


def test_create_form_lists_multipliers_with_default(alice):
    html = _client(alice).get("/rooms/new/?game=baohuang").content.decode()
    options = re.findall(r'<option value="(\d+)"( selected)?>×\d+</option>', html)
    assert [v for v, _s in options] == ["1", "2", "5", "10"]
    assert [v for v, s in options if s] == ["1"]


def test_lobby_pages(bot_room, alice):
    client = _client(alice)
    assert client.get("/").status_code == 200
    html = client.get("/g/baohuang/").content.decode()
    assert bot_room.name in html and "×2" in html and "5/5" in html
    assert 'ws-connect="/ws/lobby/baohuang/"' in html
    assert client.get("/g/chess/").status_code == 404


def test_phone_layout_meta(alice):
    html = _client(alice).get("/").content.decode()
    assert 'name="viewport"' in html and "width=device-width" in html
    assert "set_language" in html or "/i18n/setlang/" in html


def test_result_panel_after_hand(bot_room, alice, driver):
    driver(bot_room, lambda r: services.current_hand(r).complete)
    html = _client(alice).get(f"/rooms/{bot_room.pk}/").content.decode()
    hand = services.current_hand(bot_room)
    points = services.by_seat(hand.summary["game_points"], 5)
    assert 'id="result-panel"' in html
    assert re.findall(r'data-game-points="(-?\d+)"', html) == [str(p) for p in points]
    assert f"/hands/{hand.pk}/record.json" in html


def test_previous_result_stays_available_during_next_hand(bot_room, alice, driver):
    first = services.current_hand(bot_room)
    driver(bot_room, lambda r: services.current_hand(r).pk != first.pk)
    first.refresh_from_db()
    html = _client(alice).get(f"/rooms/{bot_room.pk}/").content.decode()
    assert 'id="result-panel"' not in html
    panel = re.search(r'<details[^>]*id="last-result".*?</details>', html, re.S).group(0)
    points = services.by_seat(first.summary["game_points"], 5)
    assert re.findall(r'data-game-points="(-?\d+)"', panel) == [str(p) for p in points]
    assert f"/hands/{first.pk}/replay/" in panel


def test_refusal_explains_the_rule_in_chinese(bot_room, alice, driver):
    """B6: a 3 alone while other cards remain is refused with one sentence
    (no engine text, no ruling id) and a link to the rule on the help page."""

    def alice_leads(r):
        seat, hand = _to_act(r)
        state = services.hand_state(hand)
        return seat == 0 and RULES.view(state, 0)["top"] is None and RULES.phase(state) == "play"

    driver(bot_room, alice_leads)
    services.set_autoplay(bot_room, alice, False)
    bot_room.refresh_from_db()
    _seat, hand = _to_act(bot_room)
    mine = RULES.view(services.hand_state(hand), 0)["hand"]
    three = next(c for c in mine if c.startswith("3"))
    assert len(mine) > 1
    response = _client(alice).post(_url(bot_room), {"verb": "play", "cards": three, "version": bot_room.version})
    assert response.status_code == 400
    html = response.content.decode()
    assert "3 只能在最后一张时单独出" in html and 'class="detail"' not in html
    assert 'href="/help/baohuang/#rule-B6"' in html
    text = re.sub(r"<[^>]+>", "", html)
    assert "B6" not in text and "never" not in text


def test_hint_offers_a_beating_set_when_following(bot_room, alice, driver):
    """提示 while following: the engine's smallest set that beats the top
    (B4), which the server then accepts."""

    def alice_can_beat(r):
        seat, hand = _to_act(r)
        state = services.hand_state(hand)
        return seat == 0 and RULES.view(state, 0)["top"] is not None and "play" in RULES.legal_verbs(state, 0)

    driver(bot_room, alice_can_beat)
    services.set_autoplay(bot_room, alice, False)
    bot_room.refresh_from_db()
    _seat, hand = _to_act(bot_room)
    state = services.hand_state(hand)
    assert RULES.auto_action(state, 0).verb == "pass"  # C5 alone would offer nothing to select
    smallest = RULES.hint(state, 0)
    html = _client(alice).get(f"/rooms/{bot_room.pk}/").content.decode()
    hint = re.search(r'data-action="hint" data-hint="([^"]+)"', html).group(1)
    assert hint == " ".join(c.code for c in smallest.cards)  # the smallest beating set
    assert len(hint.split()) == len(RULES.view(state, 0)["top"]["cards"])  # B4: same size
    response = _client(alice).post(
        _url(bot_room), {"verb": "play", "cards": hint, "version": bot_room.version}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 204
    last = HandAction.objects.filter(hand=services.current_hand(bot_room)).order_by("-seq").first()
    assert last.payload == {"seat": 0, "play": hint.split()}


def test_no_hint_when_nothing_beats_the_top(bot_room, alice, driver):
    """提示 while following with no set that beats the top (B4): no 提示
    button (the C5 move would be 过, which needs no cards); 过 is offered."""

    def alice_cannot_beat(r):
        seat, hand = _to_act(r)
        if seat != 0:
            return False
        state = services.hand_state(hand)
        return (
            RULES.phase(state) == "play"
            and RULES.view(state, 0)["top"] is not None
            and RULES.hint(state, 0) is None
        )

    driver(bot_room, alice_cannot_beat)
    services.set_autoplay(bot_room, alice, False)
    html = _client(alice).get(f"/rooms/{bot_room.pk}/").content.decode()
    assert 'data-action="pass"' in html
    assert 'data-action="hint"' not in html


def test_spectator_sees_no_cards_and_no_actions(bot_room, bob):
    html = _client(bob).get(f"/rooms/{bot_room.pk}/").content.decode()
    assert 'data-region="hand"' not in html and 'data-action="play"' not in html
    assert "data-my-seat" not in html
    assert 'data-seat-take="' not in html  # full room, hand in play


def test_leave_during_a_hand_hands_the_seat_to_a_bot(bot_room, alice):
    response = _client(alice).post(f"/rooms/{bot_room.pk}/leave", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    seat = bot_room.seats.get(index=0)
    assert seat.user is None and seat.bot_policy == "heuristic"
    assert 'data-region="hand"' not in response.content.decode()
