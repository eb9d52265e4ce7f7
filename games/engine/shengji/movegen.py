"""Move generation for bots and auto-play (C5); re-exported by :mod:`.tricks`.

Public API (stable names)::

    candidate_leads(hand, ctx) -> list[tuple[Card, ...]]
    candidate_follows(hand, lead_cards, ctx, follow="format", limit=None) -> list[tuple[Card, ...]]
    smallest_lead(hand, ctx) -> tuple[Card, ...]
    smallest_follow(hand, lead_cards, ctx, follow="format") -> tuple[Card, ...]

Everything is built structurally from the hand's groups of identical cards and
its tractors (per suit of play), never from subsets of the hand, so a 52-card
hand costs a few dozen dictionary operations.

- **Leads**: every unit (a single, pair, triple or quad of each distinct card,
  including a pair taken from a triple), every tractor (every sub-run of every
  unit size), the 摔牌 of each side suit's two top ranks when it has several
  components (S11), and each suit's whole holding when it has several
  components (甩牌, S12).  Throws are legal leads but may fail (resolve_throw).
- **Follows**: a handful of sensible legal plays — the smallest (first), the
  format structure taken high, point-feeding fills, beating units/tractors of
  the led suit, and when void in a side suit trump plays shaped to win (lowest
  and highest) besides plain discards.  Those legal by construction (the suit
  rule's plays, one component of the lead's shape) are returned as built; the
  others (the format structure with its fills) are checked with the S9 checker
  (:func:`.follow.satisfies`) first.
- **Smallest** (C5 timeouts): the lead is the lowest single card (side suits
  before trumps; equal cards in C6 order); the follow is the S9 structure taken
  lowest, filled with the lowest remaining cards (lowest S4 order, side suits
  before trumps, C6 between equal cards).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..cards import SUITS, Card, tally
from .follow import greedy, requirement, satisfies, suit_table
from .shapes import decompose_counts, tractors_in, units_in
from .trumps import TrumpContext, card_points


def _c6(card: Card) -> int:
    return SUITS.index(card.suit) if card.suit else 4


class _Keys:
    """Sort keys of every card of one trump context, as dicts (so sorting uses
    ``dict.__getitem__`` instead of a Python lambda per card): ``low`` (S4
    order, C6), ``high`` (order high first, C6), ``nopoints`` (point cards
    last, then low), ``points`` (most points first, then low)."""

    __slots__ = ("low", "high", "nopoints", "points")

    def __init__(self, tables):
        info = tables.info
        self.low = {c: (info[c][1], _c6(c)) for c in info}
        self.high = {c: (-info[c][1], _c6(c)) for c in info}
        self.nopoints = {c: (card_points(c) > 0, info[c][1], _c6(c)) for c in info}
        self.points = {c: (-card_points(c), info[c][1], _c6(c)) for c in info}


def _keys(ctx: TrumpContext) -> _Keys:
    """The context's :class:`_Keys`, built once per trump context (kept in
    ``ctx._t.memo``)."""
    memo = ctx._t.memo
    k = memo.get("keys")
    if k is None:
        k = memo["keys"] = _Keys(ctx._t)
    return k


def _expand(counts: dict[Card, int], key) -> list[Card]:
    out: list[Card] = []
    for c in sorted((c for c, n in counts.items() if n > 0), key=key):
        out.extend((c,) * counts[c])
    return out


def _display(cards, ctx: TrumpContext) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=ctx._t.sort_keys.__getitem__))


def smallest_lead(hand: Sequence[Card], ctx: TrumpContext) -> tuple[Card, ...]:
    """The C5 lead: the lowest single card (a side card before any trump; equal
    cards in C6 order).  Raises ``ValueError`` on an empty hand."""
    if not hand:
        raise ValueError("empty hand")
    return (min(hand, key=_keys(ctx).low.__getitem__),)


def candidate_leads(hand: Sequence[Card], ctx: TrumpContext) -> list[tuple[Card, ...]]:
    """Every unit and tractor of ``hand`` plus the sensible throws (see module
    docstring); each one passes :func:`.tricks.check_lead`.  Cards of each lead
    are in display order (:func:`.trumps.sort_key`)."""
    info = ctx._t.info
    keys = ctx._t.sort_keys
    suit_of = suit_table(ctx)
    counts = tally(hand)
    out: list[tuple[Card, ...]] = []
    # each suit's cards in display order, the suits in the order their first
    # card comes in the hand (the order the throws are listed in)
    by_suit: dict[str, dict[Card, int]] = {}
    for s in map(suit_of.__getitem__, counts):
        if s not in by_suit:
            by_suit[s] = {}
    most = 0
    for card in sorted(counts, key=keys.__getitem__):
        n = counts[card]
        for k in range(1, n + 1):
            out.append((card,) * k)
        by_suit[suit_of[card]][card] = n
        if n > most:
            most = n
    for k in (2, 3, 4):
        if k > most:
            break  # no unit of this size, so no tractor of it (S6)
        out.extend(tractors_in(counts, ctx, k))
    for s, sc in by_suit.items():
        whole = None
        if _several_components(sc, info):
            # the suit's cards are in display order already: no sort
            w: list[Card] = []
            for c, n in sc.items():
                w += (c,) * n
            whole = tuple(w)
        if s != "T":
            tops = ctx.ordinary_ranks(s)[-2:]
            tc = {c: n for c, n in sc.items() if c.rank in tops}
            if tc and _several_components(tc, info):
                w = []
                for c, n in tc.items():
                    w += (c,) * n
                throw = tuple(w)
                if throw != whole:
                    out.append(throw)
        if whole is not None:
            out.append(whole)
    return out


def _several_components(counts: dict[Card, int], info) -> bool:
    """``len(decompose_counts(counts, ctx)) > 1`` for positive counts of one
    suit of play, without building the components: every unjoinable unit
    (比牌/參謀/L or a single) is one component, and the other units join into
    runs of equal size and consecutive adjacency ranks (S6, S11)."""
    k = 0
    ords = []
    for c, n in counts.items():
        a = info[c][2]
        if a is None or n == 1:
            k += 1
            if k > 1:
                return True
        else:
            ords.append((a, n))
    if not ords:
        return k > 1
    if k:
        return True
    ords.sort()
    prev_a, prev_n = ords[0]
    for a, n in ords[1:]:
        if a != prev_a + 1 or n != prev_n:
            return True
        prev_a, prev_n = a, n
    return False


def _take_lowest(counts: dict[Card, int], k: int, key) -> list[Card]:
    """The ``k`` lowest cards of a multiset by ``key`` (fewer if it holds fewer;
    the keys of distinct cards differ, so the lowest is unique)."""
    if k <= 1:
        if k <= 0:
            return []
        live = [c for c, n in counts.items() if n > 0]
        return [min(live, key=key)] if live else []
    out: list[Card] = []
    need = k
    for c in sorted(counts, key=key):  # the empty entries are skipped below
        n = counts[c]
        if n <= 0:
            continue
        if n < need:
            out += (c,) * n
            need -= n
        else:
            out += (c,) * need
            break
    return out


def _minus(counts: dict[Card, int], cards) -> dict[Card, int]:
    left = dict(counts)
    for c in cards:
        left[c] -= 1
    return left


def _follow_variants(hand, lead_cards, ctx, follow, counts, req):
    """Yield candidate follows ``(cards, proven)``, the smallest first.

    ``proven`` is True when the cards (if there are ``req.count`` of them) meet
    S9 by construction, so :func:`candidate_follows` need not run the checker:

    - fewer led-suit cards than the lead (or exactly as many): every one of them
      plus other cards (the suit rule is all S9 asks);
    - the ``"suit"`` follow mode: ``n`` cards of the led suit;
    - one component of the lead's own shape (its unit size and length) from the
      led suit: the matcher's best possible score, or a stronger shape of the
      same size (S7); so is the format structure when it is such a component
      (the holding's score is the best one, :func:`_best_score`).

    Otherwise the format structure plus fills is not proven (the matcher may choose other
    runs once the fill cards are added): :func:`candidate_follows` checks it.

    ``counts`` is ``tally(hand)`` or None (then the cards not of the led suit
    are counted from ``hand`` only when needed)."""
    info = ctx._t.info
    n, s = req.count, req.suit
    plan = req.plan
    keys = _keys(ctx)
    low = keys.low.__getitem__
    high = keys.high.__getitem__
    nopoints = keys.nopoints.__getitem__
    points = keys.points.__getitem__
    suit_counts = dict(req.suit_cards)
    if req.held > n:
        if follow == "format":
            # the requirement already ran the matcher on this holding (same
            # dict, same order): its steps, and what they leave
            steps = req.steps
            left = {c: k for c, k in suit_counts.items() if k > 0}
            for st in steps:
                for c in st.cards:
                    left[c] -= 1
            struct = [c for st in steps for c in st.cards]
            rest = n - len(struct)
            # a one-component lead matched in full is one component of its
            # own shape (no fill): the best score, legal by construction
            best = _best_score(plan.single)
            whole = best is not None and req.score == best
            yield struct + _take_lowest(left, rest, low), whole
            yield struct + _take_lowest(left, rest, nopoints), whole
            yield struct + _take_lowest(left, rest, points), whole
            score_h, steps_h, left_h = greedy(suit_counts, plan, ctx, high=True)
            struct_h = [c for st in steps_h for c in st.cards]
            whole = best is not None and score_h == best
            yield struct_h + _take_lowest(left_h, n - len(struct_h), low), whole
            yield struct_h + _take_lowest(left_h, n - len(struct_h), high), whole
        else:
            yield _take_lowest(suit_counts, n, low), True
            yield _take_lowest(suit_counts, n, nopoints), True
            yield _take_lowest(suit_counts, n, points), True
            yield _take_lowest(suit_counts, n, high), True
        single = plan.single
        if single is not None:
            comps = _shaped(suit_counts, ctx, single.size, single.length, n)
            if comps:
                # the lowest one that beats the lead, and the highest
                for comp in comps:
                    if len(set(comp)) * single.size < n or info[comp[0]][1] > single.top:
                        yield list(comp), True
                        break
                yield list(comps[-1]), True
    else:
        base = []
        for c, k in req.suit_cards:
            base.extend((c,) * k)
        rest = n - req.held
        if rest == 0:
            yield base, True
            return
        if counts is None:
            # the same dict as filtering tally(hand): keys in first-seen order
            suit_of = suit_table(ctx)
            others = tally([c for c in hand if suit_of[c] != s])
        else:
            others = {c: k for c, k in counts.items() if info[c][0] != s and k > 0}
        yield base + _take_lowest(others, rest, low), True
        yield base + _take_lowest(others, rest, nopoints), True
        side = {c: k for c, k in others.items() if info[c][0] != "T"}
        if sum(side.values()) >= rest:
            yield base + _take_lowest(side, rest, points), True
        if req.held == 0 and s != "T":
            trumps = {c: k for c, k in others.items() if info[c][0] == "T"}
            if sum(trumps.values()) >= n:
                yield _take_lowest(trumps, n, low), True
                if plan.single is not None:
                    comps = _shaped(trumps, ctx, plan.single.size, plan.single.length, n)
                else:
                    d = max(decompose_counts(Counter(lead_cards), ctx),
                            key=lambda c: (c.count, c.size, c.top))
                    comps = [tuple(x) for x in _shaped(trumps, ctx, d.size, d.length, d.count,
                                                       stronger=False)]
                if comps:
                    picks = [comps[0], comps[-1]] if len(comps) > 1 else [comps[0]]
                    for comp in picks:
                        left = _minus(trumps, comp)
                        if len(comp) < n:
                            # fill with the lowest trumps that do not join the component
                            left_no = {c: k for c, k in left.items() if c not in comp}
                            fill = _take_lowest(left_no, n - len(comp), low)
                            if len(fill) < n - len(comp):
                                fill = _take_lowest(left, n - len(comp), low)
                            yield list(comp) + fill, True
                        else:
                            yield list(comp), True


def _best_score(single) -> tuple | None:
    """The matcher's best score (:func:`.follow.greedy`, S9) against a lead of
    one component ``single`` (None for a throw: None): the tractor found, or
    the unit supplied by one group of identical cards.  A play scoring it on
    a holding of more cards than the lead is exactly that component."""
    if single is None:
        return None
    if single.length > 1:
        return ((1,), ())
    return ((), ((single.size,),))


def _shaped(counts, ctx, size, length, n, stronger=True):
    """Components of ``counts`` with ``n`` cards and unit size ``size`` (and,
    with ``stronger``, any larger unit size with ``n`` cards), lowest first by
    (size, top)."""
    info = ctx._t.info
    out = []
    sizes = [size] + ([z for z in (2, 3, 4) if z > size and n % z == 0] if stronger else [])
    for z in sizes:
        ln = n // z if z != size else length
        if ln == 1:
            comps = units_in(counts, z)
        else:
            comps = tractors_in(counts, ctx, z, ln)
        out.extend((z, info[comp[0]][1], comp) for comp in comps)
    out.sort(key=lambda t: (t[0], t[1]))
    return [comp for _z, _t, comp in out]


def candidate_follows(hand: Sequence[Card], lead_cards: Sequence[Card], ctx: TrumpContext,
                      follow: str = "format", limit: int | None = None,
                      _check_all: bool = False) -> list[tuple[Card, ...]]:
    """A few legal follows, the smallest (C5) first, all distinct (as multisets)
    and each passing :func:`.follow.check_follow`; never empty for a hand holding
    at least ``len(lead_cards)`` cards.  ``limit`` caps the number returned.

    Only the candidates that are not legal by construction (see
    :func:`_follow_variants`) are run through the S9 checker; ``_check_all``
    checks every one (the reference the tests compare this with)."""
    if len(lead_cards) == 1:
        out = _single_follows(hand, lead_cards[0], ctx)
        return out[:limit] if limit is not None else out
    keys = ctx._t.sort_keys
    if len(hand) == len(lead_cards):
        # the last trick: the whole hand is the only follow (S9's suit rule);
        # every variant is this multiset, and the first is kept
        return [tuple(sorted(hand, key=keys.__getitem__))]
    req = requirement(hand, lead_cards, ctx, follow)
    seen = set()
    raw_seen = set()
    out: list[tuple[Card, ...]] = []
    for cand, proven in _follow_variants(hand, lead_cards, ctx, follow, None, req):
        if len(cand) != req.count:
            continue
        # the same cards in the same order sort to a play already seen
        raw = tuple(cand)
        if raw in raw_seen:
            continue
        raw_seen.add(raw)
        play = tuple(sorted(cand, key=keys.__getitem__))
        if play in seen:
            continue
        seen.add(play)
        if (proven and not _check_all) or satisfies(req, play, ctx) is None:
            out.append(play)
            if limit is not None and len(out) >= limit:
                break
    if not out:
        raise RuntimeError("no legal follow generated (engine bug)")
    return out


def _single_follows(hand, lead_card, ctx):
    """Follows to a single card (the commonest trick): any card of the led suit,
    or any card when void; built directly (legal by construction)."""
    if not hand:
        raise RuntimeError("no legal follow generated (engine bug)")
    info = ctx._t.info
    s, lead_order, _a = info[lead_card]
    pool = {c for c in hand if info[c][0] == s}
    void = not pool
    if void:
        pool = set(hand)
    ordered = sorted(pool, key=_keys(ctx).low.__getitem__)
    picks = [ordered[0]]
    picks.append(min(ordered, key=lambda c: card_points(c) > 0))   # lowest without points
    pts = [c for c in ordered if card_points(c) and info[c][0] != "T"]
    if pts:
        picks.append(max(pts, key=lambda c: (card_points(c), -info[c][1])))
    if void:
        if s != "T":
            trumps = [c for c in ordered if info[c][0] == "T"]
            if trumps:
                picks.append(trumps[0])
                picks.append(trumps[-1])
    else:
        for c in ordered:
            if info[c][1] > lead_order:
                picks.append(c)           # the lowest card that beats the lead
                break
        picks.append(ordered[-1])
    out: list[tuple[Card, ...]] = []
    for c in picks:
        if (c,) not in out:
            out.append((c,))
    return out


def smallest_follow(hand: Sequence[Card], lead_cards: Sequence[Card], ctx: TrumpContext,
                    follow: str = "format") -> tuple[Card, ...]:
    """The C5 follow: the S9 structure taken lowest, filled with the lowest
    remaining cards (see module docstring).  Always legal."""
    return candidate_follows(hand, lead_cards, ctx, follow, limit=1)[0]
