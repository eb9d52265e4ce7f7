"""買3 (ruling B7), done automatically right after the deal.

Each player without a 3 buys one, buyers in seat order from seat 0, each from
the lowest seat that has a spare 3 (more than one) at that moment.  He pays a 2,
or without a 2 a SJ, or without one a plain BJ (never ``BJ*`` or ``4H*``);
holding none of these he gets the 3 free.  Equal cards are taken in the C6
suit order S, H, D, C: the cheapest 2 is ♠2 if held, and the seller hands over
his 3s in the order ♠, ♥, ♦, ♣.  Afterwards every seat holds exactly one 3 (B6).

>>> from .order import KIND_OF
>>> from ..cards import Card
>>> hands = [[0] * 56 for _ in range(5)]
>>> for s, codes in enumerate([["3S", "3S", "3H"], ["2D", "2S"], ["3D"], ["SJ"], ["3C"]]):
...     for c in codes: hands[s][KIND_OF[Card.parse(c)]] += 1
>>> [(b, s, p and p.code, t.code) for b, s, p, t in buy_threes(hands)]
[(1, 0, '2S', '3S'), (3, 0, 'SJ', '3S')]
"""

from __future__ import annotations

from .order import KIND_BJ, KIND_SJ, KINDS, THREE_KINDS, TWO_KINDS

PAYMENT_KINDS = TWO_KINDS + (KIND_SJ, KIND_BJ)
"""What a buyer pays, in order of preference (B7, C6): ♠2 ♥2 ♦2 ♣2, SJ, plain BJ."""


def threes_of(hand) -> int:
    return sum(hand[k] for k in THREE_KINDS)


def buy_threes(hands: list[list[int]]) -> list[tuple]:
    """Carry out 買3 on ``hands`` (five lists of 56 counts, changed in place).

    Returns the purchases as ``(buyer, seller, paid card or None, the 3 card)``
    in the order they happened.
    """
    out = []
    for buyer in range(5):
        if threes_of(hands[buyer]):
            continue
        seller = next(s for s in range(5) if threes_of(hands[s]) > 1)
        three = next(k for k in THREE_KINDS if hands[seller][k])
        hands[seller][three] -= 1
        hands[buyer][three] += 1
        paid = next((k for k in PAYMENT_KINDS if hands[buyer][k]), None)
        if paid is not None:
            hands[buyer][paid] -= 1
            hands[seller][paid] += 1
        out.append((buyer, seller, KINDS[paid] if paid is not None else None, KINDS[three]))
    return out
