"""The fast 升級 play-out of the search bot (games/engine/shengji/fast.py).

Every play it makes is replayed through the engine's ``apply``, which refuses
anything illegal (S8 leads, S9 follows with the format obligation), and the
engine's settlement of those plays (S10 winners, S16 kitty multiplier, S17
table, S18 ♠A penalty, S2 levels) must equal the play-out's own result."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.base import Action
from games.engine.shengji import RULES, fast
from games.engine.shengji import state as state_mod


def boundary(seed: int, tricks: int, policy: str = "heuristic", match=None, inside: int = 0):
    """A hand played by ``policy`` bots up to the start of trick ``tricks`` (or
    the last trick boundary before the end), then ``inside`` plays into that
    trick while its lead is a unit (what :func:`fast.unit_lead` accepts)."""
    match = match or RULES.new_match()
    state = RULES.start_hand(match, RULES.deal(match, seed))
    rng = random.Random(seed)
    last = None
    seen = 0
    while not RULES.is_complete(state):
        if state.phase == "play" and not state.plays:
            last = state
            if seen == tricks:
                break
            seen += 1
        state = RULES.apply(state, RULES.bot_action(state, RULES.to_act(state), policy, rng))
    state = last
    for _ in range(inside):
        step = RULES.apply(state, RULES.bot_action(state, RULES.to_act(state), policy, rng))
        if step.phase != "play" or not step.plays or not fast.unit_lead(step):
            break
        state = step
    return state


def replay(state, trace):
    for seat, cards in trace:
        state = state_mod.apply(state, Action(seat, "play", cards))
    return state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), tricks=st.integers(0, 45), inside=st.integers(0, 3),
       policy=st.sampled_from(["heuristic", "random"]), rollout_seed=st.integers(0, 2**32))
def test_playout_is_legal_and_settles_as_the_engine(seed, tricks, inside, policy, rollout_seed):
    """From a trick boundary or inside a trick led with a unit."""
    state = boundary(seed, tricks, policy, inside=inside)
    assert fast.unit_lead(state)
    trace: list = []
    result = fast.playout(state, random.Random(rollout_seed), trace)
    end = replay(state, trace)  # raises IllegalAction on any illegal play
    assert end.phase == "done"
    assert end.result == result
    assert sum(len(cards) for _seat, cards in trace) == sum(len(h) for h in state.hands)


def test_later_hand_with_levels_and_penalties_settles_as_the_engine():
    """A match in progress (levels not 2, another dealer) settles the same way."""
    match = RULES.new_match(None, {"levels": {"0": "9", "1": "Q"}, "dealer": 3})
    for seed in range(8):
        state = boundary(1000 + seed, 0, match=match)
        assert state.dealer is not None and state.level in ("9", "Q")
        trace: list = []
        result = fast.playout(state, random.Random(seed), trace)
        assert replay(state, trace).result == result


def test_playout_is_reproducible_for_a_seed():
    state = boundary(7, 3)
    a, b = [], []
    fast.playout(state, random.Random(5), a)
    fast.playout(state, random.Random(5), b)
    assert a == b


def _tractor_in(state):
    """Two adjacent pairs of one suit in the leader's hand (an S6 tractor), or None."""
    hand = list(state.hands[state.to_act])
    info = state.ctx._t.info
    for c in set(hand):
        if info[c][2] is None or hand.count(c) < 2:
            continue
        for d in set(hand):
            if (hand.count(d) >= 2 and info[d][0] == info[c][0] and info[d][2] is not None
                    and info[d][2] == info[c][2] + 1):
                return (d, d, c, c)
    return None


def test_refuses_a_trick_led_with_a_tractor_and_other_phases():
    """A lead that is not one unit (a tractor, S6) is left to the engine."""
    for seed in range(40):
        state = boundary(seed, 0)
        tractor = _tractor_in(state)
        if tractor is not None:
            break
    assert tractor is not None
    led = RULES.apply(state, Action(state.to_act, "play", tractor))
    assert led.plays and not fast.unit_lead(led)
    with pytest.raises(ValueError):
        fast.playout(led, random.Random(0))
    with pytest.raises(ValueError):
        fast.playout(RULES.start_hand(RULES.new_match(), RULES.deal(RULES.new_match(), 1)),
                     random.Random(0))
