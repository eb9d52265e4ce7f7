"""``GameRules.bot_playout`` for every game: absent (None), or the same hand as
stepping ``bot_action("heuristic")`` and ``apply`` one action at a time; and
``simulate``'s records are the same with and without it.  Each game's own
play-out is compared decision by decision in tests/engine/test_<game>_playout.py."""

import random

import pytest

from games.engine import GAMES, get_rules
from games.engine.base import GameRules
from games.engine.simulate import run_simulation


@pytest.mark.parametrize("game", GAMES)
def test_every_games_bot_playout_is_absent_or_agrees_with_stepping(game):
    rules = get_rules(game)
    offered = 0
    for seed in range(6):
        match = rules.new_match(None, None)
        st = rules.start_hand(match, rules.deal(match, seed))
        rng = random.Random(seed)
        while not rules.is_complete(st):
            done = rules.bot_playout(st, random.Random(seed))
            if done is not None:
                offered += 1
                want = st
                step_rng = random.Random(seed)
                while not rules.is_complete(want):
                    seat = rules.to_act(want)
                    want = rules.apply(want, rules.bot_action(want, seat, "heuristic", step_rng))
                assert rules.actions(done) == rules.actions(want)
                assert rules.summary(done) == rules.summary(want)
            seat = rules.to_act(st)
            st = rules.apply(st, rules.bot_action(st, seat, "heuristic", rng))
    if type(rules).bot_playout is not GameRules.bot_playout:
        assert offered > 0, f"{game} has a play-out that never played"


@pytest.mark.parametrize("game, hands", [("baohuang", 12), ("shengji", 6)])
def test_simulate_records_are_the_same_with_and_without_the_playout(monkeypatch, game, hands):
    rules = get_rules(game)

    def records():
        out = []
        run_simulation(game, hands, 4, ["heuristic"] * rules.seats,
                       on_record=lambda n, rec: out.append(rec))
        return out

    with_playout = records()
    monkeypatch.setattr(type(rules), "bot_playout", lambda self, state, rng: None)
    without = records()
    assert len(with_playout) == hands
    assert with_playout == without
