"""Fixtures and helpers for the 升级 (shengji) site tests.

``sj_humans``: four human players (seat i = users[i]) all ready, hand 1 dealt.
``sj_bot_room``: alice at seat 0 and three heuristic bots, hand 1 dealt.
:func:`act` applies one decision through ``services.do_move`` as the seat's
user; :func:`to_phase` plays C5/scripted moves until a phase is reached;
:func:`auction_with_give` runs an auction where the winner takes a loser's
shown cards, so the 还牌 phase (S14) occurs.
"""

from __future__ import annotations

import pytest

from games import services
from games.engine import get_rules
from games.engine.shengji import auction as sj_auction
from games.models import HandAction, Room, Seat

RULES = get_rules("shengji")


@pytest.fixture
def sj_humans(make_user, multipliers):
    users = [make_user(f"sj{i}") for i in range(4)]
    room = services.create_room(users[0], "shengji", "升级房", multiplier=2, turn_seconds=30, bot_delay_ms=0)
    for i, user in enumerate(users[1:], start=1):
        services.take_seat(room, user, i)
    for user in users:
        services.set_ready(room, user, True)
    room.refresh_from_db()
    return room, users


@pytest.fixture
def sj_bot_room(alice, multipliers):
    room = services.create_room(alice, "shengji", "升级机器人房", multiplier=2, turn_seconds=30, bot_delay_ms=0)
    services.fill_bots(room, alice, "heuristic")
    services.set_ready(room, alice, True)
    room.refresh_from_db()
    return room


def state_of(room):
    hand = services.current_hand(room)
    return services.hand_state(hand)


def snapshot(room):
    """Everything a refused request must leave unchanged."""
    room.refresh_from_db()
    hand = services.current_hand(room)
    return (
        room.version,
        room.status,
        list(HandAction.objects.filter(hand=hand).values_list("seq", "payload")),
        list(Seat.objects.filter(room=room).values_list("index", "user", "bot_policy", "ready", "autoplay")),
    )


def act(room, users, record: dict, seat: int | None = None):
    """``record`` (without seat) by the seat to act (or ``seat``) at the
    current version; returns the Outcome."""
    room.refresh_from_db()
    state = state_of(room)
    seat = RULES.to_act(state) if seat is None else seat
    return services.do_move(room.pk, seat, record, room.version, user=users[seat])


def auto(room, users):
    """The C5 move of the seat to act, through the service."""
    state = state_of(room)
    seat = RULES.to_act(state)
    rec = RULES.auto_action(state, seat).to_record()
    rec.pop("seat")
    return act(room, users, rec, seat)


def auction_with_give(room, users) -> int:
    """The opener shows its cheapest bid, the next seat outbids it, everybody
    else passes: the next seat wins and owes the opener 还牌.  Returns the
    auction winner."""
    state = state_of(room)
    opener = RULES.to_act(state)
    for _ in range(2):
        state = state_of(room)
        seat = RULES.to_act(state)
        bid = sj_auction.cheapest_bid(state.hands[seat], state.piles[seat], state.highest, state.level)
        assert bid, "no bid possible (unexpected with 52 cards)"
        act(room, users, {"bid": [c.code for c in bid]})
    winner = (opener + 1) % 4
    while RULES.phase(state_of(room)) == "auction":
        act(room, users, {"pass": True})
    assert state_of(room).auction_winner == winner
    return winner


def to_phase(room, users, phase: str, max_steps: int = 400) -> None:
    """C5 moves until the hand is in ``phase``."""
    for _ in range(max_steps):
        if RULES.phase(state_of(room)) == phase:
            return
        auto(room, users)
    raise AssertionError(f"phase {phase} not reached")


def room_row(room) -> Room:
    return Room.objects.get(pk=room.pk)
