"""Shengji move generation (bots, C5 auto-play) and property tests of the
trick-taking core (S8–S12)."""

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.base import IllegalAction
from games.engine.cards import parse_cards, shuffled, standard_deck
from games.engine.shengji.tricks import (
    candidate_follows,
    candidate_leads,
    check_follow,
    check_lead,
    smallest_follow,
    smallest_lead,
    trick_winner,
)
from games.engine.shengji.trumps import LEVELS, TrumpContext

L2H = TrumpContext("2", "H")


def p(text):
    return parse_cards(text.split())


def key(cards):
    return sorted(c.code for c in cards)


# --- examples -------------------------------------------------------------------

def test_candidate_leads_list_every_unit_tractor_and_throw():
    hand = p("AC AC KC KC KC 9C 9C 8C 8C 8C 4C 4H 4H 6H 6H BJ")
    leads = {tuple(key(l)) for l in candidate_leads(hand, L2H)}
    for text in ["AC", "AC AC", "KC", "KC KC", "KC KC KC", "9C 9C 8C 8C", "8C 8C 8C",
                 "4H 4H 6H 6H", "BJ",
                 "AC AC KC KC",                     # tractor of the top ranks
                 "AC AC KC KC KC",                  # 摔牌
                 "AC AC KC KC KC 9C 9C 8C 8C 8C 4C",  # 甩牌 of all clubs
                 "4H 4H 6H 6H BJ"]:                 # 甩牌 of all trumps
        assert tuple(key(p(text))) in leads, text
    assert len(leads) == len(candidate_leads(hand, L2H))   # no duplicates
    assert tuple(key(p("AC 9C"))) not in leads


def test_smallest_lead_is_the_lowest_side_card_then_lowest_trump():
    assert smallest_lead(p("AC 3D 5S BJ 2H"), L2H) == p("5S")   # ♦3 is the 副參謀 (trump)
    assert smallest_lead(p("AC 4D 4S BJ 2H"), L2H) == p("4S")   # C6: ♠ before ♦
    assert smallest_lead(p("BJ 6H 2C"), L2H) == p("6H")


def test_smallest_follow_examples():
    # pair led: the lowest pair, not the lowest two cards
    assert key(smallest_follow(p("9C 9C 4C 5C JC JC KS"), p("6C 6C"), L2H)) == key(p("9C 9C"))
    # void: the lowest cards, side suits before trumps
    assert key(smallest_follow(p("3S 9D BJ 6H"), p("6C 6C"), L2H)) == key(p("3S 9D"))
    # short: all clubs plus the lowest other
    assert key(smallest_follow(p("9C 3S 9D"), p("6C 6C"), L2H)) == key(p("9C 3S"))
    # suit only: the two lowest clubs
    assert key(smallest_follow(p("9C 9C 4C 5C KS"), p("6C 6C"), L2H, "suit")) == key(p("4C 5C"))


def test_trumping_candidates_can_win():
    hand = p("3S 4S 8H 8H 9H 9H QH BJ")
    lead = p("6C 6C 7C 7C")
    cands = candidate_follows(hand, lead, L2H)
    winners = [c for c in cands if trick_winner([(0, lead), (1, c)], L2H) == 1]
    assert winners and key(winners[0]) == key(p("8H 8H 9H 9H"))


def test_beating_candidates_in_suit():
    hand = p("9C 9C QC QC AC AC 3S")
    cands = candidate_follows(hand, p("JC JC"), L2H)
    assert key(cands[0]) == key(p("9C 9C"))            # smallest first
    tops = [trick_winner([(0, p("JC JC")), (1, c)], L2H) for c in cands]
    assert 1 in tops
    assert {tuple(key(c)) for c in cands} >= {tuple(key(p("QC QC"))), tuple(key(p("AC AC")))}


def test_limit():
    hand = p("9C 9C QC QC AC AC 3S 5C 5C KC")
    assert len(candidate_follows(hand, p("JC JC"), L2H, limit=2)) == 2


# --- properties ---------------------------------------------------------------

DECK = standard_deck() * 4


@st.composite
def situations(draw):
    seed = draw(st.integers(0, 2**32))
    ctx = TrumpContext(draw(st.sampled_from(LEVELS)), draw(st.sampled_from("SHDC")))
    size = draw(st.integers(1, 52))
    deck = shuffled(DECK, seed)
    hands = [tuple(deck[i * 52:i * 52 + size]) for i in range(4)]
    return ctx, hands, draw(st.randoms(use_true_random=False))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_every_generated_move_is_legal(situation):
    ctx, hands, rnd = situation
    leads = candidate_leads(hands[0], ctx)
    assert leads and tuple(smallest_lead(hands[0], ctx)) in {tuple(l) for l in leads}
    for lead in leads:
        check_lead(hands[0], lead, ctx)                     # raises if illegal
    lead = rnd.choice(leads)
    plays = [(0, lead)]
    for seat in (1, 2, 3):
        for follow in ("format", "suit"):
            cands = candidate_follows(hands[seat], lead, ctx, follow)
            assert cands
            for c in cands:
                check_follow(hands[seat], lead, c, ctx, follow)
                assert len(c) == len(lead)
            small = smallest_follow(hands[seat], lead, ctx, follow)
            check_follow(hands[seat], lead, small, ctx, follow)
            assert small == cands[0]
        plays.append((seat, rnd.choice(candidate_follows(hands[seat], lead, ctx))))
    assert trick_winner(plays, ctx) in (0, 1, 2, 3)


@st.composite
def dense_situations(draw):
    """Hands drawn from one or two suits of play only: many pairs, triples,
    bombs and tractors, so the format obligation has work to do."""
    seed = draw(st.integers(0, 2**32))
    ctx = TrumpContext(draw(st.sampled_from(LEVELS)), draw(st.sampled_from("SHDC")))
    suits = draw(st.sets(st.sampled_from("SHDCT"), min_size=1, max_size=2))
    pool = [c for c in DECK if ctx.suit_of(c) in suits]
    if len(pool) < 4:                      # a lone side suit that is the trump suit
        pool = list(DECK)
    pool = shuffled(pool, seed)
    size = max(1, min(draw(st.integers(1, 30)), len(pool) // 4))
    hands = [tuple(pool[i * size:(i + 1) * size]) for i in range(4)]
    return ctx, hands, draw(st.randoms(use_true_random=False))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dense_situations())
def test_generated_follows_are_legal_in_structure_rich_hands(situation):
    ctx, hands, rnd = situation
    lead = rnd.choice(candidate_leads(hands[0], ctx))
    plays = [(0, lead)]
    for seat in (1, 2, 3):
        for follow in ("format", "suit"):
            cands = candidate_follows(hands[seat], lead, ctx, follow)
            for c in cands:
                check_follow(hands[seat], lead, c, ctx, follow)
            assert smallest_follow(hands[seat], lead, ctx, follow) == cands[0]
        plays.append((seat, rnd.choice(candidate_follows(hands[seat], lead, ctx))))
    assert trick_winner(plays, ctx) in (0, 1, 2, 3)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_accepted_follows_obey_the_suit_rule(situation):
    """Random plays: whatever check_follow accepts obeys the S9 suit rule, and
    every play accepted with the format obligation is accepted with "suit"."""
    ctx, hands, rnd = situation
    lead = rnd.choice(candidate_leads(hands[0], ctx))
    n = len(lead)
    suit = ctx.suit_of(lead[0])
    hand = hands[1]
    held = sum(1 for c in hand if ctx.suit_of(c) == suit)
    suit_cards = [c for c in hand if ctx.suit_of(c) == suit]
    for _ in range(20):
        if rnd.random() < 0.7 and len(suit_cards) >= n:
            play = rnd.sample(suit_cards, n)
        else:
            play = rnd.sample(list(hand), n)
        in_suit = sum(1 for c in play if ctx.suit_of(c) == suit)
        ok = {}
        for follow in ("format", "suit"):
            try:
                check_follow(hand, lead, play, ctx, follow)
                ok[follow] = True
            except IllegalAction as exc:
                assert exc.rule == "S9" and exc.message
                ok[follow] = False
        expect_suit = in_suit == n if held >= n else in_suit == held
        assert ok["suit"] == expect_suit
        if ok["format"]:
            assert ok["suit"]


def test_trick_winner_full_deals_deterministic():
    """Play complete random-but-legal hands: every trick has a seat as winner."""
    rnd = random.Random(7)
    ctx = TrumpContext("8", "S")
    deck = shuffled(DECK, 99)
    hands = [list(deck[i * 52:(i + 1) * 52]) for i in range(4)]
    leader = 0
    for _trick in range(60):
        if not hands[leader]:
            break
        lead = rnd.choice(candidate_leads(hands[leader], ctx))
        lead_obj = check_lead(hands[leader], lead, ctx)
        if lead_obj.is_throw:
            lead = smallest_lead(hands[leader], ctx)
        plays = [(leader, tuple(lead))]
        for i in (1, 2, 3):
            seat = (leader + i) % 4
            plays.append((seat, rnd.choice(candidate_follows(hands[seat], lead, ctx))))
        for seat, cards in plays:
            left = Counter(hands[seat])
            left.subtract(cards)
            assert min(left.values(), default=0) >= 0
            hands[seat] = list(left.elements())
        leader = trick_winner(plays, ctx)
        assert leader in (0, 1, 2, 3)
    assert all(len(h) == len(hands[0]) for h in hands)
