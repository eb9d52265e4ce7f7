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


def test_a_unit_leads_win_chance_is_the_general_ones():
    """The lead loop's shortcut for one-unit candidates (``_unit_win_chance``)
    gives exactly what ``_lead_win_chance`` gives, cut threats and all."""
    compared = cut = 0

    def check(s, seat, _a):
        nonlocal compared, cut
        if s.phase != "play" or s.plays:
            return
        v = view_mod.seat_view(s, seat)
        h = bots.Heuristic(v, _Legal(RULES, s, seat), random.Random(0))
        info = s.ctx._t.info
        for cards in h._play_args():
            if len(set(cards)) != 1:
                continue
            suit, top, _ = info[cards[0]]
            fresh = bots.Heuristic(v, _Legal(RULES, s, seat), random.Random(0))
            assert h._unit_win_chance(suit, len(cards), top) == fresh._lead_win_chance(cards)
            compared += 1
        cut += any(h._cut.values())

    rng = random.Random(5)
    m = RULES.new_match()
    for seed in (11, 12, 13):
        s = _play_hand(m, seed, ["heuristic"] * 4, rng, check)
        m = RULES.next_match(m, s)
    assert compared > 100 and cut > 0
