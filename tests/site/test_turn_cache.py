"""A server turn starts from what this process's previous move of the room left
(:mod:`games.services.turncache`).

Transactional tests: the entry is kept only after a real commit
(``on_commit``), which the default test transaction never reaches.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.engine import get_rules
from games.models import HandAction, Room
from games.services import turncache
from games.services.hidden import is_hidden
from games.runtime.tasks import play_turn
from tests.conftest import make_due
from tests.site.test_hidden_roles import lockstep  # noqa: F401 (fixture)
from tests.site.test_query_counts import MOVE_WRITES, statements

pytestmark = pytest.mark.django_db(transaction=True)

BH = get_rules("baohuang")
#: A chained bot turn: no read before the lock (the bump, then the move's
#: writes: one statement on PostgreSQL, two on SQLite).
CHAINED = ["UPDATE games_room", *MOVE_WRITES]
TRANSACTION = {"BEGIN ?", "COMMIT ?", "BEGIN", "COMMIT"}


@pytest.fixture(autouse=True)
def _empty_cache():
    turncache.forget()
    yield
    turncache.forget()


@pytest.fixture
def autoplay_room(bot_room, alice):
    services.set_autoplay(bot_room, alice, True)
    bot_room.refresh_from_db()
    return bot_room


def _due_turn(room: Room) -> str:
    room.refresh_from_db()
    make_due(room)
    return play_turn(room.pk, room.version)


def _turn(room: Room) -> str:
    """The turn due now (bot delay 0: due at once), without touching the row."""
    room.refresh_from_db()
    return play_turn(room.pk, room.version)


def _actions(room: Room) -> list:
    hand = services.current_hand(room)
    return list(hand.actions.order_by("seq").values_list("seq", "seat", "payload"))


def test_a_chained_bot_turn_reads_nothing_before_the_lock(autoplay_room):
    room = autoplay_room
    assert _due_turn(room) == "bot"  # read from the database, then kept
    room.refresh_from_db()
    make_due(room)  # (a deadline change without a bump: the kept room is not due yet)
    turncache.forget()
    assert _due_turn(room) == "bot"
    room.refresh_from_db()
    # A hidden decision (明保/暗保, B4) re-reads the room by design: step past any (the deal is random).
    for _ in range(50):
        if not is_hidden(BH, services.hand_state(services.current_hand(room))):
            break
        assert _turn(room) == "bot"
        room.refresh_from_db()
    assert turncache.kept_version(room.pk) == room.version
    # the kept deadline is the bot delay (0 ms here): due at once
    hits = turncache.stats["hits"]
    with CaptureQueriesContext(connection) as ctx:
        assert play_turn(room.pk, room.version) == "bot"
    assert turncache.stats["hits"] == hits + 1
    assert [s for s in statements(ctx) if s not in TRANSACTION] == CHAINED, statements(ctx)
    # and the move is the one a fresh read gives: the same state, the same log
    assert [seq for seq, _s, _p in _actions(room)] == list(range(len(_actions(room))))


def test_kept_turns_play_the_same_hand_as_fresh_reads(make_user, multipliers):
    """Two tables with the same deal, one with the cache, one without: the
    same actions, seat by seat, to the end of the hand."""
    from games.services import hands as service_hands

    logs = []
    for use_cache in (True, False):
        alice = make_user(f"alice{use_cache}")
        original = service_hands.new_seed
        service_hands.new_seed = lambda: 4242
        try:
            room = services.create_room(alice, "baohuang", "t", turn_seconds=30, bot_delay_ms=0)
            services.fill_bots(room, alice, "heuristic")
            services.set_autoplay(room, alice, True)
            services.set_ready(room, alice, True)
        finally:
            service_hands.new_seed = original
        for _ in range(400):
            if not use_cache:
                turncache.forget()
            if _turn(room) != "bot":
                break
        room.refresh_from_db()
        logs.append([(s, p) for _q, s, p in _actions(room)])
    assert turncache.stats["hits"] > 20
    assert logs[0] == logs[1] and len(logs[0]) > 30


def test_a_change_elsewhere_makes_the_kept_version_stale(autoplay_room, alice):
    room = autoplay_room
    assert _due_turn(room) == "bot"
    room.refresh_from_db()
    kept_version = room.version
    assert turncache.kept_version(room.pk) == kept_version
    before = _actions(room)
    # alice takes over (another process's change: a new version)
    services.set_autoplay(room, alice, False)
    assert play_turn(room.pk, kept_version) == "stale"
    assert _actions(room) == before


def test_an_admin_seat_edit_bumps_the_version_and_is_seen(autoplay_room, admin_user, alice):
    """Django admin writes seats itself: the edit bumps the version
    (``services.room_edited``), so the kept seats are not used any more and
    the next turn treats seat 0 as the human it now is again."""
    room = autoplay_room
    assert _due_turn(room) == "bot"
    room.refresh_from_db()
    kept_version = room.version
    client = Client()
    client.force_login(admin_user)
    seats = list(room.seats.order_by("index"))
    form = {
        "name": room.name, "game": room.game, "owner": room.owner_id, "multiplier": room.multiplier_id
        if hasattr(room, "multiplier_id") else room.multiplier,
        "status": room.status, "turn_seconds": room.turn_seconds, "bot_delay_ms": room.bot_delay_ms,
        "seats-TOTAL_FORMS": "5", "seats-INITIAL_FORMS": "5", "seats-MIN_NUM_FORMS": "0",
        "seats-MAX_NUM_FORMS": "1000",
    }
    for i, seat in enumerate(seats):
        form[f"seats-{i}-id"] = seat.pk
        form[f"seats-{i}-room"] = room.pk
        form[f"seats-{i}-user"] = seat.user_id or ""
        form[f"seats-{i}-bot_policy"] = seat.bot_policy or ""
        if seat.ready:
            form[f"seats-{i}-ready"] = "on"
        if seat.autoplay and i != 0:
            form[f"seats-{i}-autoplay"] = "on"
    page = client.get(f"/admin/games/room/{room.pk}/change/").content.decode()
    for field in ("name", "status", "turn_seconds", "bot_delay_ms"):
        assert f'name="{field}"' in page, field
    response = client.post(f"/admin/games/room/{room.pk}/change/", form)
    assert response.status_code == 302, response.content.decode()[:3000]
    room.refresh_from_db()
    assert room.version == kept_version + 1
    assert not room.seats.get(index=0).autoplay
    assert play_turn(room.pk, kept_version) == "stale"


def test_a_held_hidden_decision_is_applied_after_a_kept_turn(lockstep):
    """保皇's guard decision (B10) of a human is held in ``Room.pending``
    without a visible version bump: the server move before it is
    not kept, so the turn reads the room and applies the human's choice."""
    clock, h, a, _b, observers, hank = lockstep
    for name in ("alice", "carl"):  # their moves too are the server's (托管): kept
        services.set_autoplay(a, observers[name], True)
    held = False
    for _ in range(600):
        a.refresh_from_db()
        hand = services.current_hand(a)
        if hand.complete or held:
            break
        state = services.hand_state(hand)
        seat = BH.to_act(state)
        seat_row = a.seats.get(index=seat)
        if seat_row.user_id is not None and is_hidden(BH, state):
            assert seat_row.user_id == hank.pk
            # the previous bot move led into a decision that may be held: not
            # kept, the turn reads Room.pending from the database
            assert turncache.kept_version(a.pk) is None
            count = services.current_hand_counted(a).n_actions
            action = BH.bot_action(state, seat, "heuristic", services.bot_rng(hand, count)).to_record()
            action.pop("seat")
            clock.t = clock.t + timedelta(seconds=1)
            outcome = services.do_move(a, seat, action, a.version, user=hank)
            assert outcome.reason == "held"
            clock.t = a.deadline
            assert play_turn(a.pk, a.version) == "held"
            last = HandAction.objects.filter(hand=hand).order_by("-seq").first()
            assert last.actor == HandAction.Actor.USER and last.seat == seat
            held = True
        elif seat_row.user_id is not None and not seat_row.autoplay:
            count = services.current_hand_counted(a).n_actions
            action = BH.bot_action(state, seat, "heuristic", services.bot_rng(hand, count)).to_record()
            action.pop("seat")
            clock.t = clock.t + timedelta(milliseconds=800)
            assert services.do_move(a, seat, action, a.version, user=seat_row.user).applied
        else:
            clock.t = a.deadline or timezone.now()
            assert play_turn(a.pk, a.version) in ("bot", "timeout")
    assert held, "hank's hidden decision came up and was held"
