"""Test helpers for 保皇: crafted deals (through ``deal_from_record``) and states.

``make_deal(spec, fill)`` builds a B1-valid deal: ``spec`` maps a seat to cards
it must hold; every seat is then filled to 41 cards from the rest of the deck,
seats with a ``fill`` rank string first (lowest allowed cards), the others
round-robin from low to high.  All five 3s, ``BJ*`` and ``4H*`` must be placed by
``spec`` so tests control them.
"""

from __future__ import annotations

from collections import Counter

from games.engine.base import Action
from games.engine.baohuang import RULES
from games.engine.baohuang.deal import DECK_COUNTER
from games.engine.baohuang.order import KIND_OF, rank_counts
from games.engine.baohuang.state import Match, Previous, new_state
from games.engine.cards import Card, parse_cards

SPECIAL = {"3S", "3H", "3D", "3C", "BJ*", "4H*"}


def make_deal(spec: dict[int, list[str]], fill: dict[int, str] | None = None):
    fill = fill or {}
    hands = {s: list(parse_cards(spec.get(s, []))) for s in range(5)}
    placed = Counter(c for h in hands.values() for c in h)
    assert placed[Card.parse("3S")] + placed[Card.parse("3H")] + placed[Card.parse("3D")] + placed[Card.parse("3C")] == 5
    assert placed[Card.parse("BJ*")] == 1 and placed[Card.parse("4H*")] == 1
    pool = DECK_COUNTER - placed
    assert not (placed - DECK_COUNTER), f"more than the deck holds: {placed - DECK_COUNTER}"
    cards = sorted(pool.elements(), key=lambda c: -KIND_OF[c])  # low to high
    for s, ranks in fill.items():
        need = 41 - len(hands[s])
        allowed = [c for c in cards if c.rank in ranks]
        take = allowed[:need]
        assert len(take) == need, f"not enough {ranks} cards for seat {s}"
        for c in take:
            cards.remove(c)
        hands[s] += take
    open_seats = [s for s in range(5) if s not in fill]
    i = 0
    while cards:
        s = open_seats[i % len(open_seats)]
        if len(hands[s]) < 41:
            hands[s].append(cards.pop(0))
        i += 1
        assert i < 10000
    for s in range(5):
        assert len(hands[s]) == 41, (s, len(hands[s]))
    record = {"deal": {str(s): [c.code for c in hands[s]] for s in range(5)}}
    return RULES.deal_from_record(RULES.new_match(), record)


def act(st, seat, verb, arg=True):
    """Apply one action built from plain values (cards as codes)."""
    if verb == "play":
        arg = parse_cards(arg)
    return RULES.apply(st, Action(seat, verb, arg))


def play_state(hands: dict[int, list[str]], emperor=0, guard=1, leader=None, solo=None,
               guard_declared="secret", multiplier=1, finished=()):
    """A state in the play phase with small crafted hands (seats not given: empty)."""
    hs, rcs, sizes = [], [], []
    for s in range(5):
        h = [0] * 56
        for c in parse_cards(hands.get(s, [])):
            h[KIND_OF[c]] += 1
        hs.append(tuple(h))
        rcs.append(rank_counts(h))
        sizes.append(sum(h))
    leader = emperor if leader is None else leader
    return new_state(
        match=Match(multiplier, None), deal=None, hands=tuple(hs), rcs=tuple(rcs),
        sizes=tuple(sizes), phase="play", to_act=leader, leader=leader, emperor=emperor,
        guard=None if solo else guard, solo=solo,
        guard_declared=None if solo else guard_declared, finished=tuple(finished),
    )


def hand_codes(st, seat):
    return RULES.view(st, seat)["hand"]


def prev(emperor, guard, order, solo=None, declared="secret"):
    return Previous(emperor, guard, solo, None if solo else declared, tuple(order))


def all_cards(st):
    """Every card in hands and in the crown pile, as a Counter of codes."""
    out = Counter()
    for s in range(5):
        for c in RULES.view(st, s)["hand"]:
            out[c] += 1
    for c in st.crown_pile:
        out[c.code] += 1
    return out


def played_cards(st):
    out = Counter()
    for a in st.log:
        if a.verb == "play":
            for c in a.arg:
                out[c.code] += 1
    return out


def make_record(seed: int, hands: int = 1, policies=("heuristic",) * 5, options=None,
                start=None):
    """A hand-record fixture: seeded bot hands exported with deal_to_record + actions.

    Returns ``(record, summaries)``; voided deals are included as hands (B8).
    """
    import random

    rng = random.Random(seed)
    match = RULES.new_match(options, start)
    out_hands, summaries = [], []
    for _ in range(hands):
        deal = RULES.deal(match, rng.getrandbits(63))
        st = RULES.start_hand(match, deal)
        while not RULES.is_complete(st):
            seat = RULES.to_act(st)
            st = RULES.apply(st, RULES.bot_action(st, seat, policies[seat], rng))
        hand = RULES.deal_to_record(deal)
        hand["actions"] = [a.to_record() for a in RULES.actions(st)]
        out_hands.append(hand)
        summaries.append(RULES.summary(st))
        match = RULES.next_match(match, st)
    record = {"format": "hand-record/1", "game": "baohuang", "options": options or {"multiplier": 1},
              "hands": out_hands}
    if start is not None:
        record["start"] = start
    return record, summaries
