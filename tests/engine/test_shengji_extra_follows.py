"""The heuristic's extra single follows come in hand order (deterministic ties).

Cards hash by identity, so walking a set of them orders the extra follows by
memory address: the same decision could then break a tie between equal follows
differently from one run to the next.  The extras must follow the hand's order.
"""

import random
from dataclasses import replace

from games.engine.shengji import RULES, bots
from games.engine.shengji import view as view_mod
from games.engine.shengji.rules import _Legal


def _single_lead_follows(seed, wanted):
    """Up to ``wanted`` (state, seat) pairs where ``seat`` follows a single
    lead, from all-heuristic hands starting at deal ``seed``."""
    rng = random.Random(seed)
    m = RULES.new_match()
    found = []
    while len(found) < wanted:
        s = RULES.start_hand(m, RULES.deal(m, seed))
        while not RULES.is_complete(s):
            seat = RULES.to_act(s)
            if s.phase == "play" and s.plays and len(s.plays[0][1]) == 1 and len(found) < wanted:
                found.append((s, seat))
            s = RULES.apply(s, RULES.bot_action(s, seat, "heuristic", rng))
        m = RULES.next_match(m, s)
        seed += 1
    return found


def _distinct(cards):
    out = []
    for c in cards:
        if c not in out:
            out.append(c)
    return out


def test_extra_follows_are_the_distinct_cards_in_hand_order():
    """For a hand and the same hand reversed, the extras are the distinct
    cards of the led suit (or, when void, of the whole hand) in that order:
    a set's order would be the same for both orders of the hand."""
    checked = void = long = 0
    for s, seat in _single_lead_follows(5, 120):
        v = view_mod.seat_view(s, seat)
        info = v.ctx._t.info
        led = info[v.plays[0][1][0]][0]
        for hand in (tuple(v.hand), tuple(reversed(v.hand))):
            h = bots.Heuristic(replace(v, hand=hand), _Legal(RULES, s, seat), random.Random(0))
            same = [c for c in hand if info[c][0] == led]
            expected = _distinct(same) if same else _distinct(hand)
            assert h._extra_follows(v.plays[0][1]) == [(c,) for c in expected]
            void += not same
            long += len(expected) >= 3
            checked += 1
    assert checked == 240 and void > 0 and long > 40


def test_extra_follows_only_for_a_single_lead():
    s, seat = _single_lead_follows(5, 1)[0]
    v = view_mod.seat_view(s, seat)
    h = bots.Heuristic(v, _Legal(RULES, s, seat), random.Random(0))
    lead = v.plays[0][1]
    assert h._extra_follows(lead)
    assert h._extra_follows(lead + lead) == []
