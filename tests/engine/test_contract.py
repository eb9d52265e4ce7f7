"""Conformance of every registered game's rules to the engine contract
(:class:`games.engine.base.GameRules`), the test-only third game included.

For each game: match and deal round-trip through their JSON forms; a whole
hand played by the bots is legal at every step (``to_act``, ``legal_verbs``,
``legal_actions``, ``bot_action``, ``auto_action``, the ``hint`` hook); views
are JSON and show a seat no card it does not hold; ``actions`` rebuilds the
state; the hand record replays to the same summary; the optional hooks keep
their declared types.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from games import registry
from games.engine import get_rules
from games.engine.base import Action, GameRules, IllegalAction, rebuild
from games.engine.records import FORMAT, replay_record
from tests.thirdgame.spec import SPEC as THIRD

CODE = re.compile(r"(?:[2-9TJQKA][SHDC]|SJ|BJ)\*?")
GAMES = [s.code for s in registry.specs()] + [THIRD.code]


@pytest.fixture(params=GAMES)
def rules(request):
    """The rules of one game (the third game registered for the test)."""
    if request.param == THIRD.code:
        registry.register(THIRD)
        yield get_rules(THIRD.code)
        registry.unregister(THIRD.code)
    else:
        yield registry.get(request.param).rules


def codes(x) -> Counter:
    out = Counter()
    if isinstance(x, dict):
        for v in x.values():
            out += codes(v)
    elif isinstance(x, list):
        for v in x:
            out += codes(v)
    elif isinstance(x, str) and CODE.fullmatch(x):
        out[x.rstrip("*")] += 1
    return out


def test_builtin_games_are_registered():
    assert {"shengji", "baohuang"} <= set(registry.codes())
    for spec in registry.specs():
        assert spec.rules is get_rules(spec.code) and spec.seats == spec.rules.seats


def test_identity_and_match_round_trip(rules):
    assert isinstance(rules, GameRules)
    assert isinstance(rules.game, str) and 2 <= rules.seats <= 8
    for slot in rules.partner_slots:
        assert len(slot) >= 2 and all(0 <= s < rules.seats for s in slot)
    options = rules.default_options()
    assert options.get("multiplier") == 1
    match = rules.new_match(options)
    as_json = rules.match_to_json(match)
    assert json.loads(json.dumps(as_json)) == as_json
    assert rules.match_to_json(rules.new_match(**as_json)) == as_json


def test_deal_is_seeded_and_round_trips(rules):
    match = rules.new_match(rules.default_options())
    one, two = rules.deal(match, 7), rules.deal(match, 7)
    record = rules.deal_to_record(one)
    assert record == rules.deal_to_record(two)
    assert rules.deal_to_record(rules.deal_from_record(match, record)) == record


@pytest.mark.parametrize("seed, policy", [(11, "heuristic"), (12, "random")])
def test_a_bot_hand_is_legal_at_every_step_and_replays(rules, seed, policy):
    match = rules.new_match(rules.default_options())
    deal = rules.deal(match, seed)
    start = state = rules.start_hand(match, deal)
    rng = random.Random(seed)
    steps = 0
    while not rules.is_complete(state):
        seat = rules.to_act(state)
        assert seat is not None and 0 <= seat < rules.seats
        assert rules.legal_verbs(state, seat)
        for other in range(rules.seats):
            if other != seat:
                assert not rules.legal_verbs(state, other)
                assert not rules.legal_actions(state, other)
                with pytest.raises(IllegalAction):
                    rules.apply(state, Action(other, next(iter(rules.legal_verbs(state, seat))),
                                              rules.legal_actions(state, seat)[0].arg))
        legal = rules.legal_actions(state, seat)
        assert legal and all(a.seat == seat and a.verb in rules.legal_verbs(state, seat) for a in legal)
        rules.apply(state, rules.auto_action(state, seat))  # the C5 move is legal
        hint = rules.hint(state, seat)
        if hint is not None:
            rules.apply(state, hint)
        assert isinstance(rules.carry_in_pending(state), bool)
        for viewer in (None, *range(rules.seats)):
            view = rules.view(state, viewer)
            assert json.loads(json.dumps(view)) == view
            assert view.get("to_act") in (seat, None)
        action = rules.bot_action(state, seat, policy, rng)
        assert Action.from_record(action.to_record(), rules.seats) == action
        state = rules.apply(state, action)
        steps += 1
        assert steps < 2000
    assert rules.to_act(state) is None
    summary = rules.summary(state)
    assert summary["complete"] is True and json.loads(json.dumps(summary)) == summary
    assert rebuild(rules, match, deal, list(rules.actions(state))) == state
    assert rules.actions(start) == ()
    record = {
        "format": FORMAT,
        "game": rules.game,
        "options": rules.default_options(),
        "start": rules.match_to_json(match).get("start"),
        "hands": [{**rules.deal_to_record(deal), "actions": [a.to_record() for a in rules.actions(state)]}],
    }
    out, status = replay_record(json.loads(json.dumps(record)))
    assert status == 0 and out["hands"] == [summary]
    following = rules.next_match(match, state)
    assert rules.match_to_json(rules.new_match(**rules.match_to_json(following)))
    rules.match_winner(following)  # a team or None, never raises


def test_views_hide_the_other_hands(rules):
    """A spectator's view holds no hand; a seat's view holds its own hand and
    never the whole hand of another seat (per-game tests check every card a
    view may show, e.g. B10 and S13-S15)."""
    match = rules.new_match(rules.default_options())
    state = rules.start_hand(match, rules.deal(match, 3))
    assert not rules.view(state, None).get("hand")
    hands = [Counter(c.rstrip("*") for c in rules.view(state, s)["hand"]) for s in range(rules.seats)]
    assert all(hands)
    for seat in range(rules.seats):
        seen = codes(rules.view(state, seat))
        for other in range(rules.seats):
            if other != seat:
                assert hands[other] - seen - hands[seat], (seat, other)


def test_optional_hooks_have_their_declared_types(rules):
    match = rules.new_match(rules.default_options())
    owed = rules.leave_settlement(match, 0)
    assert isinstance(owed, dict) and all(isinstance(v, int) for v in owed.values())
    after = rules.match_after_leave(match)
    assert isinstance(rules.match_to_json(after), dict)
