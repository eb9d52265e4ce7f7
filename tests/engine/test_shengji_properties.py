"""Property tests (hypothesis): random legal hands end, conserve 216 cards, score 400,
and rebuild exactly from deal + action log."""

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.base import Action, rebuild
from games.engine.shengji import RULES
from games.engine.shengji.deal import FULL_COUNTS

SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _all_cards(s):
    """Every card of the state: hands, 比牌 piles until the auction ends, the kitty
    (except while the dealer holds it to bury), the tricks and the current trick."""
    total = Counter()
    for h in s.hands:
        total.update(h)
    if s.auction_winner is None:
        for p in s.piles:
            total.update(p)
    if s.phase != "bury":
        total.update(s.kitty)
    for t in s.tricks:
        for _seat, cards in t.plays:
            total.update(cards)
    for _seat, cards in s.plays:
        total.update(cards)
    return total


def _random_hand(seed, policy_bits, multiplier=1, follow="format", start=None):
    rng = random.Random(seed)
    match = RULES.new_match({"multiplier": multiplier, "follow": follow}, start)
    deal = RULES.deal(match, rng.getrandbits(63))
    s = RULES.start_hand(match, deal)
    policies = ["heuristic" if policy_bits >> i & 1 else "random" for i in range(4)]
    states = [s]
    steps = 0
    while not RULES.is_complete(s):
        steps += 1
        assert steps < 2000, "the hand does not end"
        seat = RULES.to_act(s)
        s = RULES.apply(s, RULES.bot_action(s, seat, policies[seat], rng))
        states.append(s)
    return match, deal, s, states


@SETTINGS
@given(seed=st.integers(0, 2**63 - 1), bits=st.integers(0, 15),
       follow=st.sampled_from(["format", "suit"]))
def test_random_legal_hands_end_conserve_cards_and_score_400(seed, bits, follow):
    match, deal, s, states = _random_hand(seed, bits, follow=follow)
    for x in states:
        assert _all_cards(x) == FULL_COUNTS
    assert s.phase == "done" and all(len(h) == 0 for h in s.hands)
    out = RULES.summary(s)
    trick_points = sum(t["points"] for t in out["tricks"])
    assert trick_points + out["kitty_points"] == 400
    # every trick: four plays of the same size, the winner among them
    for t in out["tricks"]:
        sizes = {len(c) for c in t["plays"].values()}
        assert len(t["plays"]) == 4 and len(sizes) == 1
        assert str(t["winner"]) in t["plays"]
    assert sum(out["game_points"].values()) == 0


@SETTINGS
@given(seed=st.integers(0, 2**63 - 1), bits=st.integers(0, 15),
       mult=st.integers(1, 5))
def test_rebuilding_from_deal_and_log_reproduces_the_state(seed, bits, mult):
    match, deal, s, states = _random_hand(
        seed, bits, multiplier=mult, start={"levels": {"0": "7", "1": "Q"}, "dealer": seed % 4})
    log = list(RULES.actions(s))
    assert rebuild(RULES, match, deal, log) == s
    # through the record form too
    deal2 = RULES.deal_from_record(match, RULES.deal_to_record(deal))
    log2 = [Action.from_record(a.to_record(), 4) for a in log]
    assert rebuild(RULES, match, deal2, log2).result == s.result
    # a prefix rebuilds the intermediate state
    k = len(log) // 2
    assert rebuild(RULES, match, deal, log[:k]) == states[k]


@SETTINGS
@given(seed=st.integers(0, 2**63 - 1))
def test_legal_actions_are_never_empty_and_always_legal(seed):
    rng = random.Random(seed)
    match = RULES.new_match()
    s = RULES.start_hand(match, RULES.deal(match, seed))
    while not RULES.is_complete(s):
        seat = RULES.to_act(s)
        acts = RULES.legal_actions(s, seat)
        assert acts
        for a in rng.sample(acts, min(3, len(acts))):
            RULES.apply(s, a)
        auto = RULES.auto_action(s, seat)
        s = RULES.apply(s, auto if rng.random() < 0.5 else rng.choice(acts))


def test_states_survive_pickling_mid_hand():
    """A site may cache states: unpickled cards are equal but not the interned
    objects, and the hand must go on exactly the same (♠A penalties included)."""
    import pickle

    def run(through_pickle):
        rng = random.Random(21)
        match = RULES.new_match()
        s = RULES.start_hand(match, RULES.deal(match, 1234))
        while not RULES.is_complete(s):
            if through_pickle:
                s = pickle.loads(pickle.dumps(s))
            seat = RULES.to_act(s)
            s = RULES.apply(s, RULES.bot_action(s, seat, "heuristic", rng))
        return RULES.summary(s)

    assert run(True) == run(False)


@SETTINGS
@given(seed=st.integers(0, 2**63 - 1), cut=st.floats(0, 1), shuffle_seed=st.integers(0, 999))
def test_a_view_never_depends_on_cards_hidden_from_its_seat(seed, cut, shuffle_seed):
    """Redeal every card a seat cannot see (the others' hands, and the kitty
    unless it may see it) at random, keeping counts: its view is unchanged."""
    from dataclasses import replace

    _match, _deal, _final, states = _random_hand(seed, 0b0101)
    s = states[int(cut * (len(states) - 1))]
    rng = random.Random(shuffle_seed)
    for seat in range(4):
        sees_kitty = s.phase == "done" or (seat == s.dealer and s.phase in ("bury", "play"))
        others = [o for o in range(4) if o != seat]
        pool = [c for o in others for c in s.hands[o]]
        if not sees_kitty and s.phase != "bury":
            pool += list(s.kitty)
        rng.shuffle(pool)
        hands = list(s.hands)
        for o in others:
            hands[o], pool = tuple(pool[: len(s.hands[o])]), pool[len(s.hands[o]):]
        kitty = tuple(pool) if pool else s.kitty
        other = replace(s, hands=tuple(hands), kitty=kitty)
        assert RULES.view(other, seat) == RULES.view(s, seat)
        assert RULES.view(other, None) == RULES.view(s, None)
