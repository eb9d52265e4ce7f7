"""The heuristic play-out (playout.py, GameRules.bot_playout) plays the play
phase (B5, B6, B9–B11) exactly as stepping bot_action("heuristic") and
apply one action at a time: the same actions, the same decisions from the
same knowledge at every seat, the same end state; and simulate's records are
the same with and without it."""

import random

import pytest

from games.engine.baohuang import RULES
from games.engine.baohuang import bots
from games.engine.baohuang.playout import heuristic_playout
from games.engine.baohuang.view import knowledge
from games.engine.simulate import random_start

HANDS = 120


def _step_once(st, rng):
    seat = RULES.to_act(st)
    return RULES.apply(st, RULES.bot_action(st, seat, "heuristic", rng))


def _to_play(match, seed, rng):
    st = RULES.start_hand(match, RULES.deal(match, seed))
    while st.phase in ("crown", "declare"):
        st = _step_once(st, rng)
    return st


def _stepped(st, rng):
    """The end state by stepping, and the decisions: (seat, knowledge dict, verb, arg)."""
    seen = []
    while not RULES.is_complete(st):
        seat = st.to_act
        kn = knowledge(st, seat)
        verb, arg = bots.heuristic(kn, rng)
        seen.append((seat, kn.as_dict(), verb, arg))
        st = RULES.apply(st, RULES.bot_action(st, seat, "heuristic", rng))
    return st, seen


def _played_out(st):
    seen = []

    def observe(kn, verb, arg):
        d = kn.as_dict()
        d["sizes"] = tuple(d["sizes"])
        seen.append((kn.seat, d, verb, arg))

    return heuristic_playout(st, observe), seen


def _hands():
    """(start of play, a state some actions into play) for HANDS seeded hands
    from random match starts (tribute, previous solos and guards)."""
    rng = random.Random(20261129)
    for _ in range(HANDS):
        match = random_start("baohuang", rng)
        st = _to_play(match, rng.getrandbits(63), random.Random(1))
        if st.phase != "play":
            continue  # voided by the crown (B8)
        mid = st
        for _ in range(rng.randrange(1, 60)):
            if RULES.is_complete(mid):
                break
            mid = _step_once(mid, rng)
        yield st, mid


def test_playout_equals_stepping_from_the_start_and_from_the_middle_of_play():
    cases = {"solo": 0, "secret_guard_revealed": 0, "open_guard": 0, "mid_round": 0, "hands": 0}
    for start, mid in _hands():
        cases["hands"] += 1
        for st in (start, mid):
            if RULES.is_complete(st):
                assert RULES.bot_playout(st, random.Random(0)) is None
                continue
            want, want_seen = _stepped(st, random.Random(0))
            got, got_seen = _played_out(st)
            assert got_seen == want_seen
            assert RULES.actions(got) == RULES.actions(want)
            assert got == want
            assert RULES.summary(got) == RULES.summary(want)
            assert RULES.bot_playout(st, random.Random(0)) == want
            if st.top is not None:
                cases["mid_round"] += 1
        if start.solo is not None:
            cases["solo"] += 1
        elif start.guard_declared == "secret":
            # 暗保 revealed to the others when 4H* is played before the end
            end = heuristic_playout(start)
            if any(a.verb == "play" and any(c.code == "4H*" for c in a.arg)
                   for a in end.log[len(start.log):]):
                cases["secret_guard_revealed"] += 1
        elif start.guard_declared == "open":
            cases["open_guard"] += 1
    assert cases["hands"] >= 100
    for name, n in cases.items():
        assert n > 0, f"no hand reached the {name} case: {cases}"


def test_playout_refuses_a_state_before_play():
    match = RULES.new_match()
    st = RULES.start_hand(match, RULES.deal(match, 5))
    assert RULES.bot_playout(st, random.Random(0)) is None
    with pytest.raises(ValueError):
        heuristic_playout(st)


def test_playout_leaves_its_input_unchanged():
    rng = random.Random(3)
    st = _to_play(RULES.new_match(), 99, rng)
    before = (st.hands, st.rcs, st.sizes, st.log, st.top, st.trick_log, st.finished)
    heuristic_playout(st)
    assert (st.hands, st.rcs, st.sizes, st.log, st.top, st.trick_log, st.finished) == before
