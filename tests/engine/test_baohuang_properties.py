"""Hypothesis properties of the 保皇 engine: hands end, cards are conserved (205, B1)
through 買3, crown, tribute and play, game points sum to 0, the action log rebuilds
the state, and tribute carries over a multi-hand sequence."""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.base import rebuild
from games.engine.baohuang import RULES
from games.engine.baohuang.deal import DECK_COUNTER
from games.engine.baohuang.order import KINDS

seeds = st.integers(0, 2**63 - 1)
policies = st.lists(st.sampled_from(["random", "heuristic", "auto"]), min_size=5, max_size=5)


def cards_now(state):
    c = Counter()
    for hand in state.hands:
        for k, n in enumerate(hand):
            if n:
                c[KINDS[k]] += n
    c.update(state.crown_pile)
    for a in state.log:
        if a.verb == "play":
            c.update(a.arg)
    return c


def play_hand(match, seed, pol, rng, check=None):
    state = RULES.start_hand(match, RULES.deal(match, seed))
    if check:
        check(state)  # after 買3
    steps = 0
    while not RULES.is_complete(state):
        seat = RULES.to_act(state)
        legal = RULES.legal_actions(state, seat)
        assert legal
        action = RULES.bot_action(state, seat, pol[seat], rng)
        assert action in legal  # bots only choose legal actions
        state = RULES.apply(state, action)
        if check:
            check(state)
        steps += 1
        assert steps < 5000, "a hand must end"
    return state


@settings(max_examples=30, deadline=None)
@given(seeds, seeds, policies)
def test_hands_end_conserve_cards_and_sum_to_zero(seed, rseed, pol):
    phases = set()

    def check(state):
        if state.phase not in phases or state.phase == "done":
            phases.add(state.phase)
            assert cards_now(state) == DECK_COUNTER
        assert sum(state.sizes) + len(state.crown_pile) + sum(
            len(a.arg) for a in state.log if a.verb == "play") == 205

    state = play_hand(RULES.new_match(), seed, pol, random.Random(rseed), check)
    summ = RULES.summary(state)
    assert summ["complete"]
    if not summ["voided"]:
        assert sorted(summ["finish_order"]) == [0, 1, 2, 3, 4]
        assert sum(summ["game_points"].values()) == 0
        # everyone but 大落 played all his cards; 大落 still holds his
        assert all(state.sizes[s] == 0 for s in summ["finish_order"][:4])


@settings(max_examples=25, deadline=None)
@given(seeds, seeds, policies)
def test_replaying_the_action_log_rebuilds_the_state(seed, rseed, pol):
    match = RULES.new_match({"multiplier": 2})
    state = play_hand(match, seed, pol, random.Random(rseed))
    again = rebuild(RULES, match, RULES.deal(match, seed), list(RULES.actions(state)))
    assert again == state
    assert RULES.summary(again) == RULES.summary(state)
    for seat in range(5):
        assert RULES.view(again, seat) == RULES.view(state, seat)


def conserved(state):
    if state.phase != "play" or not state.log or state.log[-1].verb in ("solo", "guard"):
        assert cards_now(state) == DECK_COUNTER  # through 買3, crown and tribute


@settings(max_examples=15, deadline=None)
@given(seeds, policies)
def test_multi_hand_sequence_carries_tribute(seed, pol):
    rng = random.Random(seed)
    match = RULES.new_match()
    total = Counter()
    for _ in range(3):
        state = play_hand(match, rng.getrandbits(63), pol, rng, conserved)
        summ = RULES.summary(state)
        if match.previous is not None and not summ["voided"]:
            solo = match.previous.solo
            assert summ["tribute"] or solo  # non-solo tribute always moves cards
            assert all(t["card"] != "BJ*" and t["card"] != "4H*" for t in summ["tribute"])
            if solo:
                assert all(t["card"][0] == "2" for t in summ["tribute"])
        if summ["voided"]:
            assert RULES.next_match(match, state) == match
        match = RULES.next_match(match, state)
        if summ["game_points"]:
            total.update({k: v for k, v in summ["game_points"].items()})
        assert RULES.new_match(**RULES.match_to_json(match)) == match
    assert sum(total.values()) == 0


@settings(max_examples=20, deadline=None)
@given(seeds, st.integers(0, 400))
def test_every_listed_action_is_legal_and_verbs_match(seed, stop):
    rng = random.Random(seed)
    state = RULES.start_hand(RULES.new_match(), RULES.deal(RULES.new_match(), seed))
    for _ in range(stop):
        if RULES.is_complete(state):
            return
        state = RULES.apply(state, RULES.bot_action(state, RULES.to_act(state), "random", rng))
    if RULES.is_complete(state):
        return
    seat = RULES.to_act(state)
    legal = RULES.legal_actions(state, seat)
    assert {a.verb for a in legal} == RULES.legal_verbs(state, seat)
    assert len(set(legal)) == len(legal)
    for a in rng.sample(legal, min(len(legal), 25)):
        RULES.apply(state, a)  # never raises
    for other in range(5):
        if other != seat:
            assert RULES.legal_actions(state, other) == []
            assert RULES.legal_verbs(state, other) == frozenset()


@settings(max_examples=20, deadline=None)
@given(seeds, st.integers(0, 300), policies)
def test_bot_knowledge_is_exactly_what_the_view_shows(seed, stop, pol):
    from games.engine.baohuang.view import knowledge, knowledge_from_view

    rng = random.Random(seed)
    match = RULES.new_match()
    state = RULES.start_hand(match, RULES.deal(match, seed))
    for i in range(stop + 1):
        if RULES.is_complete(state):
            break
        if i % 7 == 0 or RULES.phase(state) != "play":
            for seat in range(5):
                assert knowledge(state, seat) == knowledge_from_view(RULES.view(state, seat))
        state = RULES.apply(state, RULES.bot_action(state, RULES.to_act(state), pol[RULES.to_act(state)], rng))


@settings(max_examples=25, deadline=None)
@given(seeds, seeds, policies)
def test_turn_order_follows_b5_by_an_independent_model(seed, rseed, pol):
    """B5/B6/B11 re-derived from the action log alone: who acts next, when a round
    ends, who leads (the top player, else 接風), 讓 once per round, leader never
    讓/過, every finish by leading the 3 (each seat keeps exactly one 3, B6)."""
    rng = random.Random(rseed)
    match = RULES.new_match()
    state = RULES.start_hand(match, RULES.deal(match, seed))
    while RULES.phase(state) in ("crown", "declare"):
        state = RULES.apply(state, RULES.bot_action(state, RULES.to_act(state), pol[RULES.to_act(state)], rng))
    if RULES.is_complete(state):
        return
    sizes = list(state.sizes)
    assert RULES.to_act(state) == state.emperor  # the emperor leads the first round
    top, passed, yielded, finished = None, set(), set(), []
    while not RULES.is_complete(state):
        seat = RULES.to_act(state)
        a = RULES.bot_action(state, seat, pol[seat], rng)
        if top is None:
            assert a.verb == "play"
        if a.verb == "yield":
            assert seat not in yielded
            yielded.add(seat)
        elif a.verb == "pass":
            passed.add(seat)
        else:
            sizes[seat] -= len(a.arg)
            top = seat
            if sizes[seat] == 0:
                assert [c.rank for c in a.arg] == ["3"] and state.top is None  # B6
                finished.append(seat)
            else:
                assert all(c.rank != "3" for c in a.arg)
        state = RULES.apply(state, a)
        if len(finished) == 4:
            assert RULES.is_complete(state)
            break
        nxt = next((p for p in ((seat + i) % 5 for i in range(1, 6))
                    if sizes[p] and p != top and p not in passed), None)
        if nxt is None:  # round over
            lead = top
            while not sizes[lead]:
                lead = (lead + 1) % 5
            assert RULES.to_act(state) == lead and state.top is None
            top, passed, yielded = None, set(), set()
        else:
            assert RULES.to_act(state) == nxt and state.top[0] == top
    assert list(state.finished[:4]) == finished
