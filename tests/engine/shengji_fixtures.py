"""Builders shared by the shengji engine tests (not a test module).

``build_deal`` makes a valid four-deck deal (S1) with chosen cards in chosen
hands; ``play_state`` puts a hand straight into the play phase with small hands,
to test the end of a hand (S16–S18) without playing 50 tricks.
"""

from __future__ import annotations

from collections import Counter

from games.engine.base import Action
from games.engine.cards import parse_cards
from games.engine.shengji.deal import FULL_DECK, Deal
from games.engine.shengji.match import new_match
from games.engine.shengji.state import HandState, Trick
from games.engine.shengji.trumps import TrumpContext, bid_points


def cards(text: str):
    """``cards("AS 5H 2C")`` -> tuple of cards."""
    return parse_cards(text.split())


def build_deal(spec: dict[int, str] | None = None, kitty: str | None = None,
               opener: int = 0, shown: str | None = None, level: str = "2") -> Deal:
    """A valid 216-card deal where seat ``s`` holds the cards ``spec[s]`` (plus
    fillers).  Fillers are non-比牌 (at ``level``) first, in a fixed order, so
    the seats filled first hold no 比牌 they were not given; leftovers go to the
    last seats and the kitty."""
    spec = spec or {}
    rest = Counter(FULL_DECK)
    fixed = {s: list(cards(t)) for s, t in spec.items()}
    kit = list(cards(kitty)) if kitty else []
    for cs in list(fixed.values()) + [kit]:
        rest.subtract(cs)
    assert all(n >= 0 for n in rest.values()), "spec uses a card more than 4 times"
    pool = sorted(rest.elements(), key=lambda c: (bid_points(c, level) > 0, c.suit or "Z", c.rank))
    hands = []
    for s in range(4):
        h = fixed.get(s, [])
        need = 52 - len(h)
        h = h + pool[:need]
        pool = pool[need:]
        hands.append(tuple(h))
    if not kit:
        kit, pool = pool[:8], pool[8:]
    assert not pool and len(kit) == 8
    return Deal(tuple(hands), tuple(kit), opener, cards(shown)[0] if shown else None)


def play_state(hands: dict[int, str], kitty: str, dealer: int = 0, trump: str = "H",
               level: str = "2", leader: int | None = None, tricks=(), match=None) -> HandState:
    """A state in the play phase: ``hands`` by seat, ``kitty`` already buried,
    ``leader`` to lead (default the dealer), ``tricks`` already played."""
    m = match or new_match()
    hs = tuple(cards(hands.get(s, "")) for s in range(4))
    k = cards(kitty)
    lead = dealer if leader is None else leader
    return HandState(
        match=m, deal=Deal(hs, k, dealer), level=level, phase="play", to_act=lead,
        hands=hs, dealer=dealer, trump=trump, ctx=TrumpContext(level, trump),
        kitty=k, buried=True, leader=lead, tricks=tuple(tricks), auction_winner=dealer,
    )


def earlier_trick(winner: int, points: int) -> Trick:
    """A stand-in for tricks already played: ``points`` won by ``winner``."""
    return Trick(leader=winner, plays=(), winner=winner, points=points, failed_throw=False)


def act(seat, verb, arg=True):
    if verb in ("bid", "bury", "play"):
        arg = cards(arg)
    return Action(seat, verb, arg)
