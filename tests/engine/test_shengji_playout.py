"""The 升級 heuristic play-out (shengji/playout.py, ShengjiRules.bot_playout)
plays the play phase exactly as stepping bot_action("heuristic") and apply one
card play at a time: the same decision from the same seat knowledge at every
turn, the same actions (failed throws logged as attempted, S11/S12), the same
tricks and winners (S10), the same end state and result (S15–S17); and
simulate's records are the same with and without it."""

import random

import pytest

from games.engine.shengji import RULES
from games.engine.shengji.playout import heuristic_playout
from games.engine.shengji.view import seat_view
from games.engine.simulate import random_start

HANDS = 60


def _step_once(st, rng):
    seat = RULES.to_act(st)
    return RULES.apply(st, RULES.bot_action(st, seat, "heuristic", rng))


def _to_play(match, seed, rng):
    st = RULES.start_hand(match, RULES.deal(match, seed))
    while st.phase != "play":
        st = _step_once(st, rng)
    return st


def _knows(v):
    """What the heuristic reads of a seat's view in play."""
    return (v.seat, v.phase, tuple(v.hand), tuple(v.plays), v.kitty,
            dict(v.played or {}), tuple(v.voids))


def _stepped(st, rng):
    """The end state by stepping, and the decisions: (knowledge, action)."""
    seen = []
    while not RULES.is_complete(st):
        seat = st.to_act
        action = RULES.bot_action(st, seat, "heuristic", rng)
        seen.append((_knows(seat_view(st, seat)), action))
        st = RULES.apply(st, action)
    return st, seen


def _played_out(st):
    seen = []
    got = heuristic_playout(st, lambda v, action: seen.append((_knows(v), action)))
    return got, seen


def _hands():
    """(start of play, a state some plays into it) for HANDS seeded hands from
    random match starts (levels, dealer), both follow rules."""
    rng = random.Random(20261129)
    for i in range(HANDS):
        start = random_start("shengji", rng)
        if i % 2:
            start = RULES.new_match({"follow": "suit"}, RULES.match_to_json(start)["start"])
        st = _to_play(start, rng.getrandbits(63), random.Random(i))
        mid = st
        for _ in range(rng.randrange(1, 100)):
            if RULES.is_complete(mid):
                break
            mid = _step_once(mid, rng)
        yield st, mid


def _reached(start, end):
    """The situations this hand's play reached: a throw led (stood or failed),
    a tractor or a trump lead, kitty points at the end."""
    ctx = start.ctx
    out = set()
    for t in end.tricks[len(start.tricks):]:
        lead = t.plays[0][1]
        if t.failed_throw:
            out.add("failed_throw")
        elif len(set(lead)) > 1 and len(lead) > 1:
            from games.engine.shengji.shapes import decompose
            comps = decompose(lead, ctx)
            if len(comps) > 1:
                out.add("throw_stood")
            elif comps[0].is_tractor:
                out.add("tractor")
        if ctx.is_trump(lead[0]):
            out.add("trump_lead")
    if end.result.kitty_points:
        out.add("kitty_points")
    return out


def test_playout_equals_stepping_from_the_start_and_from_the_middle_of_play():
    reached = {"failed_throw": 0, "throw_stood": 0, "tractor": 0, "trump_lead": 0,
               "kitty_points": 0, "mid_trick": 0, "follow_suit": 0, "hands": 0}
    for start, mid in _hands():
        reached["hands"] += 1
        if start.match.follow == "suit":
            reached["follow_suit"] += 1
        for st in (start, mid):
            if RULES.is_complete(st):
                assert RULES.bot_playout(st, random.Random(0)) is None
                continue
            want, want_seen = _stepped(st, random.Random(0))
            got, got_seen = _played_out(st)
            assert len(got_seen) == len(want_seen)
            for g, w in zip(got_seen, want_seen):
                assert g == w
            assert RULES.actions(got) == RULES.actions(want)
            assert got == want
            assert RULES.summary(got) == RULES.summary(want)
            assert RULES.bot_playout(st, random.Random(0)) == want
            if st.plays:
                reached["mid_trick"] += 1
            for name in _reached(st, want):
                reached[name] += 1
    assert reached["hands"] == HANDS
    for name, n in reached.items():
        assert n > 0, f"no hand reached the {name} case: {reached}"


def test_playout_refuses_a_state_before_play():
    match = RULES.new_match()
    st = RULES.start_hand(match, RULES.deal(match, 5))
    assert RULES.bot_playout(st, random.Random(0)) is None
    with pytest.raises(ValueError):
        heuristic_playout(st)


def test_playout_leaves_its_input_unchanged():
    st = _to_play(RULES.new_match(), 99, random.Random(3))
    st = _step_once(_step_once(st, random.Random(4)), random.Random(5))
    before = (st.hands, st.plays, st.tricks, dict(st.played or {}), st.voids, st.log,
              st.lead_attempt, st.leader, st.to_act)
    heuristic_playout(st)
    assert (st.hands, st.plays, st.tricks, dict(st.played or {}), st.voids, st.log,
            st.lead_attempt, st.leader, st.to_act) == before
