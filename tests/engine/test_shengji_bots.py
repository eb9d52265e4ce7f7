"""Bots: always legal, decide from the seat's view only, heuristic beats random."""

import random
import statistics
from dataclasses import replace

import pytest

from games.engine.shengji import RULES, bots
from games.engine.shengji import view as view_mod
from games.engine.shengji.rules import _Legal
from games.engine.shengji.bots import trump_score, void_bury
from games.engine.shengji.trumps import TrumpContext, card_points

from .shengji_fixtures import cards


def _play_hand(match, seed, policies, rng, check=None):
    s = RULES.start_hand(match, RULES.deal(match, seed))
    while not RULES.is_complete(s):
        seat = RULES.to_act(s)
        a = RULES.bot_action(s, seat, policies[seat], rng)
        if check:
            check(s, seat, a)
        s = RULES.apply(s, a)  # raises if the bot chose an illegal action
    return s


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_bots_finish_hands_with_legal_actions(policy):
    rng = random.Random(3)
    m = RULES.new_match()
    for seed in (1, 2):
        s = _play_hand(m, seed, [policy] * 4, rng)
        m = RULES.next_match(m, s)


def test_unknown_policy_is_refused():
    m = RULES.new_match()
    s = RULES.start_hand(m, RULES.deal(m, 1))
    with pytest.raises(ValueError, match="unknown"):
        RULES.bot_action(s, s.to_act, "oracle", random.Random(1))


def test_random_bot_picks_among_the_legal_actions():
    m = RULES.new_match()
    rng = random.Random(11)

    def check(s, seat, a):
        if s.phase in ("auction", "trump", "give", "bury", "play"):
            assert a in RULES.legal_actions(s, seat)

    _play_hand(m, 5, ["random"] * 4, rng, check)


def test_heuristic_decides_from_its_view_only():
    """Two states differing only in cards hidden from seat s give the same decision."""
    m = RULES.new_match()
    rng = random.Random(8)
    s = RULES.start_hand(m, RULES.deal(m, 77))
    checked = 0
    while not RULES.is_complete(s) and checked < 60:
        seat = RULES.to_act(s)
        if s.phase == "play":
            a, b = (seat + 1) % 4, (seat + 2) % 4
            ha, hb = s.hands[a], s.hands[b]
            i = next((i for i, c in enumerate(ha) if c not in hb), None)
            j = next((j for j, c in enumerate(hb) if c not in ha), None)
            if i is not None and j is not None:
                na = ha[:i] + (hb[j],) + ha[i + 1:]
                nb = hb[:j] + (ha[i],) + hb[j + 1:]
                hands = list(s.hands)
                hands[a], hands[b] = na, nb
                other = replace(s, hands=tuple(hands))
                assert RULES.view(other, seat) == RULES.view(s, seat)
                x = RULES.bot_action(s, seat, "heuristic", random.Random(1))
                y = RULES.bot_action(other, seat, "heuristic", random.Random(1))
                assert x == y
                checked += 1
        s = RULES.apply(s, RULES.bot_action(s, seat, "heuristic", rng))
    assert checked >= 30


def test_void_bury_keeps_trumps_and_points_and_voids_a_short_suit():
    ctx = TrumpContext("2", "H")
    hand = cards(
        "AS 5H BJ SJ 2C 2D 3H 4H 6H 7H 8H 9H JH QH KH AH "       # 16 trumps
        "3C 4C 6C "                                                 # short clubs
        "KS QS JS 9S 8S 7S 6S 4S 3S "
        "AD KD QD JD TD 9D 8D 7D 6D 4D 3D 3D 4D 6D 7D 8D 9D JD QD "
        "AC KC TC 5C 9C 9C 8C 7C JC QC "
        "5S TS 5D"
    )
    b = void_bury(hand, ctx)
    assert len(b) == 8
    assert not any(ctx.is_trump(c) for c in b)
    assert not any(card_points(c) for c in b)
    assert {"3C", "4C", "6C"} <= {c.code for c in b}


def test_trump_choice_prefers_the_long_suit():
    hand = cards("3D 4D 6D 7D 8D 9D JD QD AD 4S 6C")
    assert max("SHDC", key=lambda s: trump_score(hand, "2", s)) == "D"


def test_heuristic_team_gains_more_levels_than_random_team():
    """40 seeded hands, heuristic seats 0+2 against random seats 1+3 (deterministic)."""
    rng = random.Random(42)
    m = RULES.new_match()
    gained = {0: [], 1: []}
    for _ in range(40):
        s = _play_hand(m, rng.getrandbits(63), ["heuristic", "random"] * 2, rng)
        out = RULES.summary(s)
        for t in (0, 1):
            gained[t].append(out["levels_gained"][str(t)])
        m = RULES.next_match(m, s)
        if RULES.match_winner(m) is not None:
            m = RULES.new_match()
    assert statistics.fmean(gained[0]) > statistics.fmean(gained[1]) + 0.3


def test_higher_unseen_counts_match_a_plain_count():
    """``_higher_unseen`` (a table per suit and unit size, bisected) equals
    counting the unseen cards of the suit above the order held ``size`` times,
    for every order and size at each decision of two hands."""
    asked = 0

    def check(s, seat, _a):
        nonlocal asked
        if s.phase != "play":
            return
        v = view_mod.seat_view(s, seat)
        h = bots.Heuristic(v, _Legal(RULES, s, seat), random.Random(0))
        unseen = h._unseen()
        for suit in "SHDCT":
            for size in (1, 2, 3, 4):
                for top in range(0, 60, 3):
                    plain = sum(n for o, n in unseen.get(suit, ()) if n >= size and o > top)
                    assert h._higher_unseen(suit, size, top) == plain
                    asked += plain > 0

    rng = random.Random(9)
    m = RULES.new_match()
    for seed in (21, 22):
        s = _play_hand(m, seed, ["heuristic"] * 4, rng, check)
        m = RULES.next_match(m, s)
    assert asked > 1000


def _plain_lead_score(h, cards):
    """The lead score of ``cards`` written plainly (the general chance
    ``_lead_win_chance`` for every candidate, a Counter of the hand's suits)."""
    from collections import Counter

    from games.engine.shengji.trumps import CARD_POINTS

    v = h.v
    info = v.ctx._t.info
    suit, _top, _ = info[cards[0]]
    n = len(cards)
    pts = sum(CARD_POINTS[c] for c in cards)
    hand_trumps = sum(1 for c in v.hand if info[c][0] == "T")
    trump_rich = hand_trumps * 2 >= h._unseen_in("T")
    lengths = Counter(info[c][0] for c in v.hand)
    p = h._lead_win_chance(cards)
    if suit != "T" and suit in v.voids[(h.seat + 2) % 4] and p < 0.5:
        p = max(p, 0.5)
    score = p * (8 + 3 * n + pts) - (1 - p) * (pts * 1.5 + 2 * n)
    if suit == "T":
        score -= (0.5 if trump_rich else 2.0) * n * (0.3 + (1 - p))
        if p < 1 and any(info[c][1] >= 44 for c in cards):
            score -= 4
    else:
        score += 0.2 * max(0, 8 - lengths[suit]) * (1 - p)
    return score


def test_lead_scores_equal_the_plain_formula():
    """``_lead_scores`` (one-unit chances inline from the bisected tables) gives
    exactly the plain score through ``_lead_win_chance`` for every candidate
    lead of three hands' leads, cut threats, partner voids and trumps included."""
    compared = units = 0

    def check(s, seat, a):
        nonlocal compared, units
        if s.phase != "play" or s.plays:
            return
        v = view_mod.seat_view(s, seat)
        h = bots.Heuristic(v, _Legal(RULES, s, seat), random.Random(0))
        cands = h._play_args()
        fast = h._lead_scores(cands)
        plain = bots.Heuristic(v, _Legal(RULES, s, seat), random.Random(0))
        assert fast == [_plain_lead_score(plain, c) for c in cands]
        best = max(range(len(cands)), key=lambda i: (fast[i], -i))
        assert a.arg == tuple(cands[best])
        compared += len(cands)
        units += sum(len(set(c)) == 1 for c in cands)

    rng = random.Random(6)
    m = RULES.new_match()
    for seed in (31, 32, 33):
        s = _play_hand(m, seed, ["heuristic"] * 4, rng, check)
        m = RULES.next_match(m, s)
    assert compared > 500 and compared > units > 300


def test_unseen_equals_a_plain_count_of_the_deck():
    """``_unseen`` (one Counter of the seen cards over the deck table) equals
    the plain count: every kind's copies in the deck minus those in the hand,
    the trick so far, the kitty if known and the completed tricks, by suit of
    play highest order first; at every play decision of two hands."""
    from collections import Counter

    from games.engine.shengji.deal import FULL_COUNTS

    asked = 0

    def check(s, seat, _a):
        nonlocal asked
        if s.phase != "play":
            return
        v = view_mod.seat_view(s, seat)
        h = bots.Heuristic(v, _Legal(RULES, s, seat), random.Random(0))
        info = s.ctx._t.info
        seen = Counter(v.hand)
        for _s, cs in v.plays:
            seen.update(cs)
        if v.kitty is not None:
            seen.update(v.kitty)
        seen.update(v.played)
        plain = {su: [] for su in "SHDCT"}
        for c in sorted(FULL_COUNTS, key=lambda c: -info[c][1]):
            k = FULL_COUNTS[c] - seen[c]
            if k > 0:
                plain[info[c][0]].append((info[c][1], k))
        got = h._unseen()
        assert {su: sorted(x) for su, x in got.items()} == {su: sorted(x) for su, x in plain.items()}
        assert all([o for o, _k in x] == sorted((o for o, _k in x), reverse=True) for x in got.values())
        assert h._unseen_n == {su: sum(k for _o, k in x) for su, x in plain.items()}
        asked += 1

    rng = random.Random(12)
    m = RULES.new_match()
    for seed in (41, 42):
        s = _play_hand(m, seed, ["heuristic"] * 4, rng, check)
        m = RULES.next_match(m, s)
    assert asked > 60


def test_deck_by_suit_splits_the_deck_table_by_suit_of_play():
    """``_deck_by_suit`` (what ``_unseen`` walks) holds every kind of the deck
    table once, under its suit of play (S3: the level cards, 比牌 and 參謀 under
    T), with its copies and order, each suit highest order first in the deck
    table's order; the same object for the same trump context."""
    for level, trump in (("2", "S"), ("7", "H"), ("T", "D"), ("K", "C")):
        ctx = TrumpContext(level, trump)
        deck = bots._deck(ctx)
        split = bots._deck_by_suit(ctx)
        assert [s for s, _k in split] == list("SHDCT")
        for s, kinds in split:
            assert list(kinds) == [(c, n, o) for c, n, cs, o in deck if cs == s]
            orders = [o for _c, _n, o in kinds]
            assert orders == sorted(orders, reverse=True)
        assert sum(len(k) for _s, k in split) == len(deck) == 54
        assert sum(n for _s, k in split for _c, n, _o in k) == 216
        assert bots._deck_by_suit(ctx) is split
