"""A search bot's move arrives after the same time whether or not it had a
choice (hidden information: a forced move answered at once told the table
the bot could not beat the cards on it).  games.services.turns.paced_decision."""

from __future__ import annotations

import random

import pytest

from games import services
from games.engine import get_rules
from games.engine.search import SearchConfig
from games.models import Seat
from games.services import turns
from tests.conftest import make_due

pytestmark = pytest.mark.django_db
RULES = get_rules("baohuang")


class FakeClock:
    """``turns._clock`` that advances by ``think`` seconds during the decision;
    ``turns._sleep`` that records what it was asked to wait."""

    def __init__(self, think: float):
        self.now, self.think, self.slept = 100.0, think, []
        self.calls = 0

    def clock(self) -> float:
        self.calls += 1
        if self.calls == 2:  # the call after the decision
            self.now += self.think
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def _state(room):
    hand = services.current_hand(room)
    return services.hand_state(hand)


@pytest.mark.parametrize("think, waits", [(0.004, 0.026), (0.0, 0.030), (0.031, None), (0.2, None)])
def test_a_quick_search_decision_waits_out_its_budget(bot_room, monkeypatch, think, waits):
    fake = FakeClock(think)
    monkeypatch.setattr(turns, "_clock", fake.clock)
    monkeypatch.setattr(turns, "_sleep", fake.sleep)
    state = _state(bot_room)
    seat = RULES.to_act(state)
    action = turns.paced_decision(RULES, state, seat, "search", random.Random(1),
                                  SearchConfig(budget_ms=30))
    assert action in RULES.legal_actions(state, seat)
    if waits is None:
        assert fake.slept == []
    else:
        assert fake.slept == [pytest.approx(waits)]
        assert fake.now - 100.0 == pytest.approx(0.030)  # the move is ready at the budget


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_other_policies_are_not_paced(bot_room, monkeypatch, policy):
    fake = FakeClock(0.001)
    monkeypatch.setattr(turns, "_clock", fake.clock)
    monkeypatch.setattr(turns, "_sleep", fake.sleep)
    state = _state(bot_room)
    turns.paced_decision(RULES, state, RULES.to_act(state), policy, random.Random(1),
                         SearchConfig(budget_ms=30))
    assert fake.slept == []


def test_the_servers_turn_of_a_search_bot_is_paced(bot_room, monkeypatch, settings):
    """play_turn for a 高手 seat goes through the pacing: its move is stored
    after the wait, as a bot move."""
    settings.GAMES_SEARCH_BUDGET_MS = 30
    state = _state(bot_room)
    seat_index = RULES.to_act(state)
    Seat.objects.filter(room=bot_room).exclude(index=0).update(bot_policy="search")
    Seat.objects.filter(room=bot_room, index=0).update(autoplay=False)
    if seat_index == 0:  # alice first: the test needs a bot to act
        pytest.skip("the deal put alice (a human) first")
    services.room_edited(bot_room)
    bot_room.refresh_from_db()
    fake = FakeClock(0.0)
    monkeypatch.setattr(turns, "_clock", fake.clock)
    monkeypatch.setattr(turns, "_sleep", fake.sleep)
    make_due(bot_room)
    assert turns.play_turn(bot_room.pk, bot_room.version) == "bot"
    assert fake.slept == [pytest.approx(0.030)]  # (the fake clock saw no thinking time)
