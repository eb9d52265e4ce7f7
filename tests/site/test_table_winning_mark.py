"""The play winning the trick is marked on the felt, and a trick
just won stays there for one state, marked with its winner, so that the page
slides it to the winner.  What each seat shows comes from the game's
``seat_plays`` over the engine's view (public plays only, the same for every
seat and a spectator): 升级's S10 comparison (``current_winner``), 保皇's set
to beat (B4; the round's winner, B5)."""

from __future__ import annotations

import random

from games import registry
from games.engine.shengji.tricks import current_winner


def run(rules, seed, until, limit=2000):
    rng = random.Random(seed)
    match = rules.new_match()
    state = rules.start_hand(match, rules.deal(match, seed))
    for _ in range(limit):
        if until(state):
            return state
        seat = rules.to_act(state)
        if seat is None:  # (保皇's guard declares when he likes)
            seat = next(s for s in range(rules.seats) if rules.legal_actions(state, s))
        state = rules.apply(state, rules.bot_action(state, seat, "heuristic", rng))
    raise AssertionError("never reached")


def views(rules, state):
    return [rules.view(state, seat) for seat in (None, *range(rules.seats))]


def test_shengji_mid_trick_marks_the_engines_winner_only():
    spec = registry.get("shengji")
    for seed in (1, 2, 3):
        state = run(spec.rules, seed, lambda s: s.phase == "play" and len(s.tricks) >= 1 and len(s.plays) == 3)
        want = current_winner(state.plays, state.ctx)
        for v in views(spec.rules, state):
            plays = spec.seat_plays(v)
            assert sorted(plays) == sorted(s for s, _ in state.plays)
            assert [s for s, p in plays.items() if p["winning"]] == [want]
            assert all(p["won_by"] is None for p in plays.values())


def test_shengji_trick_just_won_stays_with_its_winner_until_the_lead():
    spec = registry.get("shengji")
    state = run(spec.rules, 4, lambda s: s.phase == "play" and len(s.tricks) == 2 and not s.plays)
    last = state.tricks[-1]
    for v in views(spec.rules, state):
        plays = spec.seat_plays(v)
        assert sorted(plays) == [0, 1, 2, 3]  # all four, the last card too
        assert {p["won_by"] for p in plays.values()} == {last.winner}
        assert [s for s, p in plays.items() if p["winning"]] == [last.winner]
    led = spec.rules.apply(state, spec.rules.auto_action(state, state.to_act))
    plays = spec.seat_plays(spec.rules.view(led, None))
    assert list(plays) == [state.to_act] and plays[state.to_act]["won_by"] is None


def test_baohuang_marks_the_set_to_beat_and_a_won_round():
    spec = registry.get("baohuang")
    state = run(spec.rules, 5, lambda s: s.phase == "play" and s.top is not None and len(s.trick_log) >= 2)
    for v in views(spec.rules, state):
        plays = spec.seat_plays(v)
        assert [s for s, p in plays.items() if p["winning"]] == [state.top[0]]
        assert all(p["won_by"] is None for p in plays.values())
    state = run(spec.rules, 5, lambda s: s.phase == "play" and s.last_round and not s.trick_log)
    sets = [seat for seat, verb, _ in state.last_round if verb == "play"]
    for v in views(spec.rules, state):
        plays = spec.seat_plays(v)
        assert plays and {p["won_by"] for p in plays.values()} == {sets[-1]}
        assert [s for s, p in plays.items() if p["winning"]] == [sets[-1]]
