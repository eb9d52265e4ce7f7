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
    winning_follows,
)
from games.engine.shengji.shapes import decompose
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


def _seeded_positions(count):
    """``count`` seeded positions (trump context, four hands), half drawn from
    one or two suits of play (pairs, tractors, throws), half from the whole deck."""
    rnd = random.Random(20261127)
    for i in range(count):
        ctx = TrumpContext(rnd.choice(LEVELS), rnd.choice("SHDC"))
        if i % 2:
            suits = rnd.sample("SHDCT", rnd.choice((1, 2)))
            pool = [c for c in DECK if ctx.suit_of(c) in suits]
            if len(pool) < 4:
                pool = list(DECK)
            size = max(1, min(rnd.randint(4, 30), len(pool) // 4))
        else:
            pool = list(DECK)
            size = rnd.randint(4, 52)
        pool = shuffled(pool, rnd.getrandbits(32))
        yield ctx, [tuple(pool[s * size:(s + 1) * size]) for s in range(4)]


def test_follows_built_legal_equal_the_engine_checked_follows():
    """The candidates returned without the S9 check (legal by construction) are
    exactly those the engine's checker keeps when it checks every generated
    variant, in the same order; and each one passes check_follow.  Every lead
    candidate of 160 seeded positions (units, tractors, throws) against three
    followers, in both follow modes."""
    kinds = Counter()
    for ctx, hands in _seeded_positions(160):
        for lead in candidate_leads(hands[0], ctx):
            if len(lead) == 1:
                continue
            comps = decompose(lead, ctx)
            kinds["throw" if len(comps) > 1 else
                  "tractor" if comps[0].is_tractor else "unit"] += 1
            for seat in (1, 2, 3):
                if len(hands[seat]) < len(lead):
                    continue
                for follow in ("format", "suit"):
                    fast = candidate_follows(hands[seat], lead, ctx, follow)
                    checked = candidate_follows(hands[seat], lead, ctx, follow, _check_all=True)
                    assert fast == checked, (ctx, hands[seat], lead, follow)
                    for c in fast:
                        check_follow(hands[seat], lead, c, ctx, follow)
    assert kinds["throw"] > 300 and kinds["tractor"] > 80 and kinds["unit"] > 300, kinds


def test_winning_follows_equal_trick_winner_per_candidate():
    """winning_follows (the plays so far compared once) keeps exactly the
    candidates that trick_winner makes the winner when played next, after one,
    two or three plays, over every lead of 60 seeded positions."""
    rnd = random.Random(5)
    found = Counter()
    for ctx, hands in _seeded_positions(60):
        for lead in candidate_leads(hands[0], ctx):
            if any(len(h) < len(lead) for h in hands[1:]):
                continue
            plays = [(0, lead)]
            for seat in (1, 2, 3):
                cands = candidate_follows(hands[seat], lead, ctx)
                if len(lead) == 1:
                    cands += [(c,) for c in set(hands[seat])]
                expect = [c for c in cands if trick_winner(plays + [(seat, c)], ctx) == seat]
                assert winning_follows(plays, cands, ctx) == expect, (ctx, plays, cands)
                found["wins" if expect else "none"] += 1
                plays.append((seat, rnd.choice(cands)))
    assert found["wins"] > 500 and found["none"] > 500, found


def test_take_lowest_is_the_sorted_prefix():
    """_take_lowest (a min for one card, a sort for more) gives the first k
    cards of the multiset sorted by the key, zero counts ignored."""
    from games.engine.shengji.movegen import _keys, _take_lowest

    rnd = random.Random(3)
    for ctx, hands in _seeded_positions(20):
        keys = _keys(ctx)
        counts = Counter(hands[1])
        for c in list(counts)[:2]:
            counts[c] = 0
        for key in (keys.low.__getitem__, keys.high.__getitem__, keys.points.__getitem__):
            ordered = sorted(counts.elements(), key=key)
            for k in (0, 1, 2, rnd.randint(3, 60)):
                assert _take_lowest(counts, k, key) == ordered[:k]


def test_candidate_lead_tractors_equal_the_whole_hand_scan():
    """S6: ``candidate_leads`` scans for tractors of a unit size only up to the
    most copies held of one card; its list equals the units, then
    ``tractors_in`` of the whole hand for sizes 2, 3, 4 in order, then the
    throws — for 300 random 52-card hands of the four decks (half of them
    crowded, with many triples and quads) at random levels and trumps."""
    from games.engine.shengji.deal import FULL_DECK
    from games.engine.shengji.shapes import tractors_in

    rnd = random.Random(9)
    tractors = big = 0
    for i in range(300):
        deck = list(FULL_DECK)
        rnd.shuffle(deck)
        hand = deck[:52] if i % 2 else sorted(deck[:120], key=lambda c: c.code)[:52]
        ctx = TrumpContext(rnd.choice(LEVELS), rnd.choice("SHDC"))
        counts = Counter(hand)
        got = candidate_leads(hand, ctx)
        units = sum(counts.values())
        want = [t for k in (2, 3, 4) for t in tractors_in(counts, ctx, k)]
        assert got[units:units + len(want)] == want
        assert all(len(decompose(t, ctx)) > 1 for t in got[units + len(want):])  # throws
        tractors += len(want)
        big += sum(1 for t in want if t.count(t[0]) >= 3)
    assert tractors > 1000 and big > 50
