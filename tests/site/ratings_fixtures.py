"""Helpers for the ratings tests: a room seated from a list of users and bot
levels, dealt with a chosen seed, and a hand played out with the heuristic
bot's decisions for every seat (so a seed gives a known kind of hand: solo,
guard …), completed through the real services."""

from __future__ import annotations

import random

import pytest
from games import services
from games.engine import get_rules
from games.models import Hand, HandAction, Room, Seat


@pytest.fixture
def make_user(django_user_model):
    """Overrides the shared fixture: users without a password (no PBKDF2,
    about a second each on this machine); these tests never log in."""
    return lambda name: django_user_model.objects.create(username=name)


def seated_room(game: str, seats: list, seed: int, monkeypatch) -> Room:
    """A room of ``game`` whose seat i is ``seats[i]``: a user, or a bot level
    (``"random"``/``"heuristic"``); every human ready, so hand 1 is dealt
    with shuffle seed ``seed``.  The first entry must be a user (the owner)."""
    monkeypatch.setattr(services.hands, "new_seed", lambda: seed)
    owner = seats[0]
    room = services.create_room(owner, game, f"ratings {seed}", turn_seconds=30, bot_delay_ms=0)
    for index, who in enumerate(seats[1:], start=1):
        if isinstance(who, str):
            Seat.objects.filter(room=room, index=index).update(bot_policy=who)
        else:
            services.take_seat(room, who, index)
    for who in seats:
        if not isinstance(who, str):
            services.set_ready(room, who, True)
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    return room


def play_out(room: Room, max_actions: int = 5000) -> Hand:
    """Play the room's current hand to its end: every seat makes the heuristic
    bot's move (random source fixed by the hand's seed and the action count),
    decided by the engine from the stored deal; all actions but the last are
    stored directly, the last goes through ``services.do_move``, so the hand
    completes through the real services (summary, ledger, ``hand_scored``).
    Returns the completed hand."""
    rules = get_rules(room.game)
    room.refresh_from_db()
    hand = services.current_hand(room)
    state = services.hand_state(hand)
    count = services.action_count(hand)
    rows = []
    while True:
        seat = rules.to_act(state)
        action = rules.bot_action(state, seat, "heuristic", random.Random(hand.seed * 7 + count))
        after = rules.apply(state, action)
        if rules.is_complete(after):
            break
        rows.append(HandAction(hand=hand, seq=count, seat=seat, payload=action.to_record(),
                               actor=HandAction.Actor.BOT))
        state, count = after, count + 1
        assert count < max_actions
    HandAction.objects.bulk_create(rows)
    record = {k: v for k, v in action.to_record().items() if k != "seat"}
    outcome = services.do_move(room, seat, record, room.version, actor=HandAction.Actor.BOT)
    assert outcome.applied
    hand.refresh_from_db()
    assert hand.complete
    room.refresh_from_db()
    return hand
