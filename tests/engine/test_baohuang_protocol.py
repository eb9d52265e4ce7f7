"""RULES satisfies the GameRules protocol method by method (base.py)."""

import inspect
import random

from games.engine import get_rules
from games.engine.base import Action, GameRules
from games.engine.baohuang import RULES


def test_protocol_and_registry():
    assert isinstance(RULES, GameRules)
    assert get_rules("baohuang") is RULES
    assert RULES.game == "baohuang" and RULES.seats == 5
    for name, member in inspect.getmembers(GameRules, inspect.isfunction):
        if name.startswith("_"):
            continue
        mine = getattr(RULES, name)
        assert callable(mine), name
        want = list(inspect.signature(member).parameters)[1:]
        got = list(inspect.signature(mine).parameters)
        assert got[: len(want)] == want, (name, got, want)


def test_life_of_a_hand_as_in_base_docstring():
    rules = RULES
    match = rules.new_match({"multiplier": 1})
    assert rules.default_options() == {"multiplier": 1}
    assert rules.match_winner(match) is None
    deal = rules.deal(match, 20261122)
    state = rules.start_hand(match, deal)
    rng = random.Random(5)
    while not rules.is_complete(state):
        seat = rules.to_act(state)
        assert rules.legal_verbs(state, seat)
        assert rules.legal_actions(state, seat)
        assert isinstance(rules.auto_action(state, seat), Action)
        state = rules.apply(state, rules.bot_action(state, seat, "heuristic", rng))
    summary = rules.summary(state)
    assert summary["complete"] and rules.to_act(state) is None
    assert rules.phase(state) in ("done", "voided")
    assert rules.view(state, 0)["result"] == summary
    match2 = rules.next_match(match, state)
    assert rules.new_match(**rules.match_to_json(match2)) == match2
    assert rules.match_winner(match2) is None
