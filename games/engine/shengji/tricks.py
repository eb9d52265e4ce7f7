"""Leads, throws and the winner of a trick (rulings S8, S10, S11, S12); façade of
the trick-taking core.

Public API used by the hand flow (names and signatures are stable)::

    check_lead(hand, cards, ctx) -> Lead                      # S8, raises IllegalAction
    resolve_throw(lead, leader, hands, ctx) -> (stands, played_cards)   # S11/S12
    check_follow(hand, lead_cards, cards, ctx, follow="format") -> None   # S9 (follow.py)
    follow_hint(hand, lead_cards, ctx, follow="format") -> str          # S9 (follow.py)
    trick_winner(plays, ctx) -> seat                          # S10
    current_winner(plays, ctx) -> seat | None                 # S10, an unfinished trick
    winning_follows(plays, cands, ctx) -> list                # S10, the plays that would win next
    candidate_leads(hand, ctx) / candidate_follows(hand, lead_cards, ctx, follow, limit)
    smallest_lead(hand, ctx) / smallest_follow(hand, lead_cards, ctx, follow)   # C5
    (move generation lives in movegen.py and is re-exported here)

Cards are interned :class:`~games.engine.cards.Card` objects; hands and plays are
tuples (any sequence is accepted); ``ctx`` is a :class:`~.trumps.TrumpContext`.

Throws
------
A lead of several components (by S11's decomposition) is a throw.  It is a
**摔牌** (S11) when it is in a side suit and made only of that suit's two highest
ordinary ranks (A and K; K and Q in spades; skipping trump cards: level K makes
♦A and ♦Q the top two of diamonds).  It is a **甩牌** (S12) when it is every card
the leader holds in its suit.  A throw may be both; it then stands if either
rule lets it stand.

**甩牌 in trumps is allowed.**  S9 treats all trumps as one suit, and the text's
花色 for 甩牌 is that suit of play (the S11 text, by contrast, explicitly excludes
trumps: 除了主牌外).  A trump 甩牌 stands only if every other player has no trump
left, so it merely shortens an end game the leader would win trick by trick; if
anyone still holds a trump it fails like any throw (the lowest card is played).
A 摔牌 in trumps is refused (S11 is side suits only).

:func:`resolve_throw` decides a throw against the other hands before anyone
follows.  A failed throw plays only its lowest card (equal cards: C6 order S, H,
D, C) as a single; the rest stays in the hand; no penalty; the result says only
that it failed, never who stopped it.

Trick winner (S10)
------------------
Only plays entirely of the led suit, or entirely of trumps when a side suit was
led, can win.  Unit or tractor led: a play must be one component with the same
number of cards and a unit size at least the lead's; among those, an all-trump
play beats any side-suit play, then the larger unit size, then the higher top
card (S4/S7).  Throw led: only all-trump plays can beat it, and only if their own
largest component (most cards, then unit size, then top) has exactly the shape of
the throw's largest component; two such plays compare by those components' top
cards.  Ties always go to the earlier play (two equal off-suit L cards: the first
played wins).

>>> from games.engine.cards import parse_cards as p
>>> from games.engine.shengji.trumps import TrumpContext
>>> ctx = TrumpContext("4", "H")
>>> lead = p("AC KC 6C 6C 6C 6C 9C 9C".split())
>>> trick_winner([(0, lead), (1, p("7H 8H 9H JH QH QH QH QH".split()))], ctx)
1
>>> trick_winner([(0, lead), (1, p("7H 8H 9H JH QH QH KH KH".split()))], ctx)
0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..base import IllegalAction
from ..cards import SUITS, Card, tally
from .follow import FOLLOW_MODES, check_follow, follow_hint  # noqa: F401  (re-export)
from .movegen import (  # noqa: F401  (re-export)
    candidate_follows,
    candidate_leads,
    smallest_follow,
    smallest_lead,
)
from .shapes import Component, cards_text, decompose, keep_last_lead, largest, tractors_in
from .trumps import SUIT_NAMES, TrumpContext

__all__ = [
    "Lead", "check_lead", "resolve_throw", "trick_winner", "current_winner", "winning_follows", "check_follow", "follow_hint",
    "candidate_leads", "candidate_follows", "smallest_follow", "smallest_lead",
    "FOLLOW_MODES", "top_ranks",
]


@dataclass(frozen=True, slots=True)
class Lead:
    """A legal lead (S8).

    ``cards``: as led; ``suit``: suit of play (``"T"`` for trumps);
    ``components``: its structure, strongest first; ``kind``: ``"unit"``,
    ``"tractor"`` or ``"throw"``; ``throw_rules``: for a throw, which of
    ``"S11"`` (摔牌) and ``"S12"`` (甩牌) it qualifies as (one or both), else ``()``.
    """

    cards: tuple[Card, ...]
    suit: str
    components: tuple[Component, ...]
    kind: str
    throw_rules: tuple[str, ...] = ()

    @property
    def is_throw(self) -> bool:
        return self.kind == "throw"

    @property
    def largest(self) -> Component:
        """The deciding component (S10)."""
        return largest(self.components)


def top_ranks(suit: str, ctx: TrumpContext) -> tuple[str, ...]:
    """The two highest ordinary ranks of a side suit (S11): ``("A", "K")``, in
    spades ``("K", "Q")``; ranks moved into the trumps are skipped."""
    return tuple(reversed(ctx.ordinary_ranks(suit)[-2:]))


def _c6(card: Card) -> int:
    return SUITS.index(card.suit) if card.suit else 4


def check_lead(hand: Sequence[Card], cards: Sequence[Card], ctx: TrumpContext) -> Lead:
    """Return the :class:`Lead` of ``cards`` or raise :class:`IllegalAction`.

    A lead is one unit, one tractor, a 摔牌 (S11) or a 甩牌 (S12) (rule S8); the
    cards must be in ``hand``.  Whether a throw stands is decided afterwards by
    :func:`resolve_throw`.
    """
    cards = tuple(cards)
    if not cards:
        raise IllegalAction("S8: 请选择要出的牌 (choose the cards to lead)", "S8")
    have = tally(hand)
    for c, k in tally(cards).items():
        if have.get(c, 0) < k:
            raise IllegalAction(f"你没有 {cards_text([c] * k)} (you do not hold {c.code} ×{k})",
                                "S8")
    info = ctx._t.info
    suit = info[cards[0]][0]
    if any(info[c][0] != suit for c in cards):
        raise IllegalAction(
            "S8: 首家出牌必须是同一花色（主牌算一门） "
            "(a lead must be of one suit; all trumps count as one suit)", "S8")
    comps = decompose(cards, ctx)
    if len(comps) == 1:
        return Lead(cards, suit, comps, "tractor" if comps[0].is_tractor else "unit")
    rules: list[str] = []
    if suit != "T":
        tops = top_ranks(suit, ctx)
        if all(c.rank in tops for c in cards):
            rules.append("S11")
    held = sum(n for c, n in have.items() if info[c][0] == suit)
    if held == len(cards):
        rules.append("S12")
    if not rules:
        name = SUIT_NAMES[suit]
        if suit != "T":
            tops = "".join("10" if r == "T" else r for r in top_ranks(suit, ctx))
            shuai = f"摔牌只能由{name}最大的两个点数 {tops} 组成 (S11)，"
            shuai_en = f"a 摔牌 uses only the two highest ranks {tops} (S11), "
        else:
            shuai = "主牌不能摔牌 (S11)，"
            shuai_en = "trumps cannot be a 摔牌 (S11), "
        raise IllegalAction(
            f"S8: {cards_text(cards)} 不是一个单位或拖拉机；{shuai}"
            f"甩牌必须出该门的全部 {held} 张 (S12) "
            f"(a lead is one unit, one tractor, a 摔牌 or a 甩牌: {shuai_en}"
            f"a 甩牌 is every card you hold in the suit, here {held})", "S8")
    return Lead(cards, suit, comps, "throw", tuple(rules))


def resolve_throw(lead: Lead, leader: int, hands: Mapping[int, Sequence[Card]],
                  ctx: TrumpContext) -> tuple[bool, tuple[Card, ...]]:
    """Decide whether a throw stands (S11/S12): ``(stands, played_cards)``.

    ``hands`` maps every seat (the leader's own entry is ignored) to its current
    cards.  Not a throw: ``(True, lead.cards)``.  A 摔牌 stands if no other player
    holds, in the suit, a unit (or tractor) of the same shape as one of its
    components and higher than it (holding more identical cards than the unit
    counts: a triple of A holds a pair of A).  A 甩牌 stands if every other player
    is void in the suit.  Failure: ``(False, (lowest,))`` — the lowest card by S4,
    equal ones in C6 order S, H, D, C.  Who stopped it is not returned.
    """
    if not lead.is_throw:
        return True, lead.cards
    info = ctx._t.info
    s = lead.suit
    others = [h for seat, h in hands.items() if seat != leader]
    stands = False
    if "S12" in lead.throw_rules:
        stands = all(all(info[c][0] != s for c in h) for h in others)
    if not stands and "S11" in lead.throw_rules:
        stands = True
        for h in others:
            counts = Counter(c for c in h if info[c][0] == s)
            if counts and _beats_a_component(counts, lead.components, ctx):
                stands = False
                break
    if stands:
        return True, lead.cards
    lowest = min(lead.cards, key=lambda c: (info[c][1], _c6(c)))
    return False, (lowest,)


def _beats_a_component(counts: Counter, comps: Sequence[Component], ctx: TrumpContext) -> bool:
    info = ctx._t.info
    for comp in comps:
        if comp.length == 1:
            for c, n in counts.items():
                if n >= comp.size and info[c][1] > comp.top:
                    return True
        else:
            for tr in tractors_in(counts, ctx, comp.size, comp.length):
                if info[tr[0]][1] > comp.top:
                    return True
    return False


def trick_winner(plays: Sequence[tuple[int, Sequence[Card]]], ctx: TrumpContext) -> int:
    """The seat that wins the trick (S10).

    ``plays``: ``(seat, cards)`` in playing order, the lead first (a failed throw
    appears as the single card actually played).  Returns one of the seats.
    """
    if not plays:
        raise ValueError("a trick needs at least the lead")
    key_of, best = _trick_keys(plays[0][1], ctx)
    winner = plays[0][0]
    for seat, cards in plays[1:]:
        key = key_of(cards)
        if key is not None and (best is None or key > best):
            winner, best = seat, key
    return winner


def winning_follows(plays: Sequence[tuple[int, Sequence[Card]]],
                    cands: Sequence[Sequence[Card]], ctx: TrumpContext) -> list:
    """The candidates of ``cands`` that would win the trick (S10) if played
    next, after ``plays`` (lead first, at most three plays): those ``c`` for
    which :func:`trick_winner` of ``plays`` plus ``(seat, c)`` is that seat,
    the plays so far compared once rather than once per candidate."""
    if not plays:
        raise ValueError("a trick needs at least the lead")
    key_of, best = _trick_keys(plays[0][1], ctx)
    for _seat, cards in plays[1:]:
        key = key_of(cards)
        if key is not None and (best is None or key > best):
            best = key
    out = []
    for cards in cands:
        key = key_of(cards)
        if key is not None and (best is None or key > best):
            out.append(cards)
    return out


@keep_last_lead
def _trick_keys(lead_cards, ctx: TrumpContext):
    """S10 as keys: ``(key_of, best)`` for a trick led with ``lead_cards``.
    ``key_of(cards)`` is a later play's key, or None when it cannot win; a play
    takes the trick when its key is greater than the best so far (ties go to the
    earlier play); ``best`` is the lead's own key (None: any key beats it).

    The last tuple lead's answer is kept (:func:`.shapes.keep_last_lead`): the followers'
    decisions and the engine's trick winner ask for the same trick's keys."""
    info = ctx._t.info
    s = info[lead_cards[0]][0]
    lead_comps = decompose(lead_cards, ctx)
    if len(lead_comps) == 1:
        lc = lead_comps[0]
        count, size = lc.count, lc.size

        def key_of(cards):
            single = len(cards) == 1
            if single:
                ps, o, _a = info[cards[0]]
            else:
                ps = _suit(cards, info)
            if ps == s:
                flag = 0
            elif ps == "T":
                flag = 1
            else:
                return None
            if single:
                # a single (the commonest play): its one component is itself;
                # size 1, length 1: only a single lead matches
                return (flag, 1, o) if count == 1 else None
            pcs = decompose(cards, ctx)
            if len(pcs) != 1:
                return None
            pc = pcs[0]
            if pc.count != count or pc.size < size:
                return None
            return (flag, pc.size, pc.top)

        return key_of, (0, size, lc.top)
    if s == "T":
        return _no_key, None
    shape = largest(lead_comps).shape

    def key_of(cards):
        if _suit(cards, info) != "T":
            return None
        pl = largest(decompose(cards, ctx))
        if pl.shape != shape:
            return None
        return pl.top

    return key_of, None


def _no_key(cards):
    return None


def current_winner(plays: Sequence[tuple[int, Sequence[Card]]], ctx: TrumpContext) -> int | None:
    """The seat whose play wins the trick on the table so far (S10), or None
    before the lead.

    ``plays``: the ``(seat, cards)`` played so far, lead first (any number,
    1 to 4).  S10 compares each play with the best one before it and ties go
    to the earlier play, so the winner of the plays so far is the seat the
    remaining plays must beat: a completed trick's answer is
    :func:`trick_winner`'s.  Built only from cards on the table and the
    public trump context: it reveals nothing hidden.
    """
    if not plays:
        return None
    return trick_winner(plays, ctx)


def _suit(cards, info) -> str | None:
    s = None
    for c in cards:
        cs = info[c][0]
        if s is None:
            s = cs
        elif cs != s:
            return None
    return s


def describe_lead(lead: Lead) -> str:
    """Human text of a lead, e.g. ``摔牌 ♣AA KKK (throw)``."""
    names = {"unit": "", "tractor": "拖拉机 ", "throw": "摔牌 " if "S11" in lead.throw_rules
             else "甩牌 "}
    return names[lead.kind] + " ".join(c.describe() for c in lead.components)

