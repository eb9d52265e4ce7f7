"""Cross-cutting audit properties of the shengji trick rules (S9, S10, S11, C5).

Brute force over small holdings of one suit of play: the S9 format obligation
never leaves a follower without a legal play, the C5 smallest follow is always
legal, and the S10 winner is always an eligible play.
"""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.base import IllegalAction
from games.engine.cards import Card
from games.engine.shengji.follow import requirement, satisfies
from games.engine.shengji.shapes import decompose
from games.engine.shengji.tricks import (
    check_follow,
    check_lead,
    smallest_follow,
    trick_winner,
)
from games.engine.shengji.trumps import TrumpContext

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

CONTEXTS = [TrumpContext("7", "H"), TrumpContext("K", "S"), TrumpContext("2", "D"),
            TrumpContext("Q", "C")]


def _pool(ctx, suit):
    """Distinct cards of one suit of play (``"T"``: a sample of the trumps)."""
    cards = [Card.parse(r + s) for s in "SHDC" for r in "23456789TJQKA"]
    cards += [Card.parse("SJ"), Card.parse("BJ")]
    pool = [c for c in cards if ctx.suit_of(c) == suit]
    return pool[:9]


@st.composite
def follow_case(draw):
    ctx = draw(st.sampled_from(CONTEXTS))
    suit = draw(st.sampled_from(["S", "H", "D", "C", "T"]))
    if suit == ctx.trump:
        suit = "T"
    pool = _pool(ctx, suit)
    lead_hand = Counter()
    for c in draw(st.lists(st.sampled_from(pool), min_size=1, max_size=8)):
        if lead_hand[c] < 4:
            lead_hand[c] += 1
    # a lead: one of the lead hand's units, or its whole holding (a 甩牌)
    units = [(c,) * k for c, n in lead_hand.items() for k in range(1, n + 1)]
    lead = draw(st.sampled_from(units + [tuple(lead_hand.elements())]))
    follower = Counter()
    for c in draw(st.lists(st.sampled_from(pool), min_size=0, max_size=10)):
        if follower[c] + lead_hand[c] < 4:
            follower[c] += 1
    # eight cards of another suit of play, so that every lead can be followed
    other = ["BJ", "SJ"] if suit != "T" else (["4S", "6S"] if ctx.trump != "S" else ["4C", "6C"])
    filler = [Card.parse(code) for code in other for _ in range(4)]
    hand = tuple(follower.elements()) + tuple(filler)
    return ctx, tuple(lead_hand.elements()), lead, hand


def _plays(counts, n):
    items = list(counts.items())

    def rec(i, left):
        if left == 0:
            yield ()
            return
        if i == len(items):
            return
        c, k = items[i]
        for t in range(min(k, left), -1, -1):
            for rest in rec(i + 1, left - t):
                yield (c,) * t + rest

    yield from rec(0, n)


@SETTINGS
@given(follow_case())
def test_s9_a_legal_follow_always_exists_and_c5_finds_one(case):
    ctx, lead_hand, lead, hand = case
    check_lead(lead_hand, lead, ctx)                 # a legal lead (S8)
    n = len(lead)
    play = smallest_follow(hand, lead, ctx)
    check_follow(hand, lead, play, ctx)              # C5: always legal
    req = requirement(hand, lead, ctx)
    assert any(satisfies(req, p, ctx) is None for p in _plays(Counter(hand), n))


@SETTINGS
@given(follow_case(), st.data())
def test_s10_the_winner_is_an_eligible_play(case, data):
    ctx, lead_hand, lead, hand = case
    if len(decompose(lead, ctx)) > 1:
        return                                       # throws: see test_shengji_throws
    n = len(lead)
    plays = [(0, lead)]
    counts = Counter(hand)
    options = list(_plays(counts, n))
    for seat in (1, 2, 3):
        plays.append((seat, data.draw(st.sampled_from(options))))
    w = trick_winner(plays, ctx)
    if w == 0:
        return
    cards = dict(plays)[w]
    led = ctx.suit_of(lead[0])
    suits = {ctx.suit_of(c) for c in cards}
    assert suits in ({led}, {"T"})
    comps = decompose(cards, ctx)
    assert len(comps) == 1 and comps[0].size >= decompose(lead, ctx)[0].size


@pytest.mark.parametrize("ctx", CONTEXTS)
def test_s9_every_play_refused_names_s9(ctx):
    """A pair led, a pair held: two loose cards are refused under rule S9."""
    lead = (Card.parse("4" + ("C" if ctx.trump != "C" else "D")),) * 2
    assert ctx.suit_of(lead[0]) != "T"
    s = lead[0].suit
    hand = tuple(Card.parse(r + s) for r in "9 9 J Q".split()) + (Card.parse("BJ"),)
    with pytest.raises(IllegalAction) as exc:
        check_follow(hand, lead, (Card.parse("J" + s), Card.parse("Q" + s)), ctx)
    assert exc.value.rule == "S9"
