"""Following a lead (ruling S9): the suit rule and the format obligation.

Public API (stable names; also re-exported by :mod:`.tricks`):

- :func:`check_follow` ``(hand, lead_cards, cards, ctx, follow="format") -> None``
  raises :class:`~games.engine.base.IllegalAction` (``rule="S9"``) with a message
  saying what is required.
- :func:`follow_hint` ``(hand, lead_cards, ctx, follow="format") -> str``: a short
  text of what the follower must play.
- :func:`requirement` / :func:`satisfies`: the same check split in two, so that
  move generation computes the hand's requirement once and tests many plays.

``follow`` is the room option of S9: ``"format"`` (default: suit rule and format
obligation) or ``"suit"`` (only the suit rule).

The suit rule
-------------
Let *n* be the number of cards led, *s* the led suit of play (all trumps are one
suit, ``"T"``) and *H* the follower's cards of suit *s*.  The play has exactly *n*
cards from the hand.  If ``|H| ≥ n`` every played card is of suit *s*; otherwise
the play contains all of *H* (plus any other cards).

The format obligation (exact algorithm)
---------------------------------------
Only when ``|H| > n`` does it restrict anything (otherwise the suit rule already
fixes the suit-*s* part).  The lead is decomposed by S11's rule
(:func:`~.shapes.decompose`).  A *greedy matcher* run on a multiset *X* of cards
of suit *s* produces a *score*:

1. **Tractors**, strongest first (unit size, then length, then top card): for a
   lead tractor of ``m`` units of size ``k``, look in *X* for ``m`` consecutive
   ordinary ranks (S6 adjacency) each still available ≥ ``k`` times.  Found: score
   flag 1 and those ``k·m`` cards are used (among several such runs the one that
   splits the fewest cards, then the lowest).  Not found: flag 0 and the tractor
   is treated as ``m`` separate units of size ``k`` in step 2.
2. **Units** (the lead's units plus those of unmatched tractors), largest size
   first.  For a unit of size ``d``, while ``d ≥ 2``: let ``g`` be the smaller of
   ``d`` and the largest number of identical cards still available; stop if
   ``g < 2``; otherwise take ``g`` identical cards (from the group with the fewest
   cards that has ≥ ``g``, so a quad or triple is split only when needed, e.g. a
   triple supplies a pair), record ``g`` and continue with ``d − g``.  Whatever
   remains of ``d`` is filled by singles (any cards).  The unit's score entry is
   the tuple of recorded ``g``.

The score is ``(tractor flags, unit entries)`` compared lexicographically.  A
play *P* (its suit-*s* cards) satisfies the obligation iff
``score(P) ≥ score(H)``: it reproduces, step by step, as much of the lead's
structure as the follower's whole holding allows.  Consequences (each tested):

- pair led: a pair if you have one (a triple or quad supplies it);
- triple led, holding only pairs: a pair plus any card of the suit;
- bomb led: a quad if held; else with a triple the triple (+1); with two pairs
  both pairs; with one pair that pair (+2);
- 2-pair tractor led, holding only a triple and a non-adjacent pair: two pairs
  (one taken from the triple);
- triple tractor led: a triple tractor, else as many triples as possible, each
  missing triple supplied by the largest group (a pair, its third card being a
  free single: two triples held against pairs only ask for two pairs);
- a throw of mixed units: its largest unit first, then the others.

**A stronger shape always satisfies (S7).**  When the lead is one unit or one
tractor, a play whose suit-*s* cards form one component of the same number of
cards and a larger unit size (a bomb on a 2-pair tractor, a triple tractor on a
3-pair tractor …) is accepted whatever the score.  (Throws that are followed in
suit are 摔牌 made of units only, where no stronger shape of the same size exists.)

>>> from games.engine.cards import parse_cards as p
>>> from games.engine.shengji.trumps import TrumpContext
>>> ctx = TrumpContext("2", "S")
>>> hand = p("7H 7H 9H QH 3C".split())
>>> check_follow(hand, p(["6H", "6H"]), p(["9H", "QH"]), ctx)
Traceback (most recent call last):
...
games.engine.base.IllegalAction: S9: 必须跟对子：你还有 ♥77 (must follow with a pair: you hold ♥77)
>>> check_follow(hand, p(["6H", "6H"]), p(["7H", "7H"]), ctx) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..base import IllegalAction
from ..cards import SUITS, Card, tally
from .shapes import (UNIT_NAMES, UNIT_NAMES_EN, Component, cards_text, decompose,
                     decompose_counts, keep_last_lead, slot_builder)
from .trumps import SUIT_NAMES, SUIT_NAMES_EN, TrumpContext

FOLLOW_MODES = ("format", "suit")


@dataclass(frozen=True, slots=True)
class Plan:
    """What the greedy matcher looks for: tractors ``(size, length)`` strongest
    first and the lead's unit sizes largest first."""

    suit: str
    count: int
    tractors: tuple[tuple[int, int], ...]
    units: tuple[int, ...]
    single: Component | None  # the lead's only component, if it has one


@keep_last_lead
def lead_plan(lead_cards: Sequence[Card], ctx: TrumpContext) -> Plan:
    """The :class:`Plan` of a lead; raises ``ValueError`` for mixed suits.

    The last plan of a tuple lead is kept (:func:`.shapes.keep_last_lead`: the
    three followers of a trick ask for the same one)."""
    comps = decompose(lead_cards, ctx)
    if not comps:
        raise ValueError("empty lead")
    tr = sorted((c for c in comps if c.is_tractor), key=lambda c: (c.size, c.length, c.top),
                reverse=True)
    units = sorted((c.size for c in comps if not c.is_tractor), reverse=True)
    return Plan(comps[0].suit, len(lead_cards), tuple((c.size, c.length) for c in tr),
                tuple(units), comps[0] if len(comps) == 1 else None)


@dataclass(frozen=True, slots=True)
class Step:
    """One recorded step of the greedy matcher: ``kind`` ``"tractor"`` or
    ``"unit"``, the unit ``size`` and the ``cards`` it used (highest first)."""

    kind: str
    size: int
    cards: tuple[Card, ...]


#: ``Step(kind, size, cards)`` through :func:`.shapes.slot_builder`.
_step = slot_builder(Step)


def _take_tractors(counts: dict[Card, int], info, plan: Plan, high: bool):
    """The matcher's first stage (S9): each tractor ``(k, m)`` of ``plan`` in
    turn matched by :func:`_find_run` and its cards taken out of ``counts``
    (changed in place).  Returns ``(flags, demands, runs)``: 1 or 0 per
    tractor (matched or not), the unit demands (``plan.units`` plus ``m``
    units of ``k`` per unmatched tractor), largest first, and the matched
    ``(k, run)`` in order."""
    flags: list[int] = []
    demands = list(plan.units)
    runs: list[tuple[int, list[Card]]] = []
    for k, m in plan.tractors:
        run = _find_run(counts, info, k, m, high)
        if run is None:
            flags.append(0)
            demands.extend([k] * m)
        else:
            flags.append(1)
            runs.append((k, run))
            for card in run:
                counts[card] -= k
    demands.sort(reverse=True)
    return flags, demands, runs


def greedy(counts: dict[Card, int], plan: Plan, ctx: TrumpContext, high: bool = False):
    """Run the matcher of the module docstring on ``counts`` (cards of the led
    suit → multiplicity).  Returns ``(score, steps, left)`` where ``left`` is the
    multiset not used by the structural steps.  ``high`` picks the highest
    candidates instead of the lowest (move generation only; the score is the same).
    """
    info = ctx._t.info
    counts = {c: n for c, n in counts.items() if n > 0}
    flags, demands, runs = _take_tractors(counts, info, plan, high)
    steps: list[Step] = [_step("tractor", k, tuple(card for card in run for _ in range(k)))
                         for k, run in runs]
    entries: list[tuple[int, ...]] = []
    # (order, C6) or (-order, C6) per card: the key (n, -o if high else o,
    # C6) compared as (n, that pair), the same order
    okey = _greedy_keys(ctx)[1 if high else 0]
    for d in demands:
        rem = d
        got: list[int] = []
        while rem >= 2:
            mx = max(counts.values(), default=0)  # counts are never negative
            g = rem if rem < mx else mx
            if g < 2:
                break
            # the least (n, okey[card]) with n >= g, without a tuple per card
            best = None
            bn = 99
            bo = None
            for card, n in counts.items():
                if n >= g:
                    if n < bn:
                        best, bn, bo = card, n, okey[card]
                    elif n == bn:
                        o = okey[card]
                        if o < bo:
                            best, bo = card, o
            counts[best] -= g
            rem -= g
            got.append(g)
            steps.append(_step("unit", g, (best,) * g))
        entries.append(tuple(got))
    return (tuple(flags), tuple(entries)), steps, counts


def suit_table(ctx: TrumpContext) -> dict[Card, str]:
    """Card -> its suit of play (``"T"`` for every trump, else the suit
    letter; S3, S4) in ``ctx``, built once per trump context (kept in
    ``ctx._t.memo``): one dict lookup per card where the hot loops of S9
    filter a hand by suit."""
    memo = ctx._t.memo
    got = memo.get("follow.suit_of")
    if got is None:
        got = memo["follow.suit_of"] = {c: v[0] for c, v in ctx._t.info.items()}
    return got


def _c6(card: Card) -> int:
    return SUITS.index(card.suit) if card.suit else 4


def _greedy_keys(ctx: TrumpContext) -> tuple[dict, dict]:
    """The matcher's per-card tie keys of a trump context, built once (kept in
    ``ctx._t.memo``): ``({card: (order, C6)}, {card: (-order, C6)})``, low
    and high."""
    memo = ctx._t.memo
    got = memo.get("follow.greedy_keys")
    if got is None:
        info = ctx._t.info
        got = memo["follow.greedy_keys"] = (
            {c: (info[c][1], _c6(c)) for c in info},
            {c: (-info[c][1], _c6(c)) for c in info})
    return got


def _find_run(counts, info, k, m, high):
    """The run of ``m`` consecutive ordinary ranks each available ≥ k times that
    splits the fewest cards (then lowest, or highest with ``high``); None if none."""
    items = sorted((info[c][2], c, n) for c, n in counts.items()
                   if n >= k and info[c][2] is not None)
    if len(items) < m:
        return None
    best = None
    bkey = None
    start = 0
    for i in range(len(items)):
        if i > 0 and items[i][0] != items[i - 1][0] + 1:
            start = i
        if i - start + 1 >= m:
            window = items[i - m + 1:i + 1]
            excess = sum(n - k for _a, _c, n in window)
            top = window[-1][0]
            key = (-top, excess) if high else (excess, top)
            if bkey is None or key < bkey:
                best, bkey = window, key
    if best is None:
        return None
    return [c for _a, c, _n in reversed(best)]


@dataclass(frozen=True, slots=True)
class Requirement:
    """What a follower's holding demands (see :func:`requirement`)."""

    plan: Plan
    count: int
    suit: str
    held: int  # cards of the led suit in the hand
    suit_cards: tuple[tuple[Card, int], ...]  # the led-suit holding
    score: tuple
    steps: tuple[Step, ...]
    follow: str
    #: :func:`satisfies`' answers so far, by the play's card tuple: the
    #: engine's check of a follow the bot already checked asks again
    verdicts: dict = field(default_factory=dict, compare=False, repr=False)


def requirement(hand: Sequence[Card], lead_cards: Sequence[Card], ctx: TrumpContext,
                follow: str = "format", hand_counts: dict | None = None) -> Requirement:
    """The S9 requirement of ``hand`` against ``lead_cards`` (computed once).

    ``hand_counts``, if given, is ``tally(hand)`` (or ``Counter(hand)``).  The
    last requirement of a tuple hand and lead is kept: a bot's move generation
    and the engine's check of the follow it chose (S9) ask for the same one, on
    the same objects."""
    global _LAST_REQ
    if follow not in FOLLOW_MODES:
        raise ValueError(f"follow must be 'format' or 'suit', got {follow!r}")
    last = _LAST_REQ
    if hand is last[0] and lead_cards is last[1] and ctx is last[2] and follow == last[3]:
        return last[4]
    plan = lead_plan(lead_cards, ctx)
    info = ctx._t.info
    s = plan.suit
    if hand_counts is not None:
        suit_counts = {c: n for c, n in hand_counts.items() if n > 0 and info[c][0] == s}
    else:
        # the same dict as filtering tally(hand): keys in first-seen order
        suit_of = suit_table(ctx)
        suit_counts = tally([c for c in hand if suit_of[c] == s])
    held = sum(suit_counts.values())
    if follow == "format" and held > plan.count:
        score, steps, _left = greedy(suit_counts, plan, ctx)
    else:
        score, steps = None, []
    req = Requirement(plan, plan.count, s, held, tuple(suit_counts.items()), score,
                      tuple(steps), follow)
    if type(hand) is tuple and type(lead_cards) is tuple:
        # immutable, and held here: the same objects always mean the same holding
        _LAST_REQ = (hand, lead_cards, ctx, follow, req)
    return req


#: ``(hand, lead_cards, ctx, follow, requirement)`` of the last tuple hand
#: and lead (:func:`requirement`); replaced as a whole, so a reader on another
#: thread sees one consistent entry.
_LAST_REQ: tuple = (None, None, None, None, None)


def satisfies(req: Requirement, cards: Sequence[Card], ctx: TrumpContext) -> str | None:
    """None if ``cards`` (already known to be held) meets ``req``; else the
    IllegalAction message.  The answer is kept in ``req.verdicts`` by the card
    tuple (the same requirement and cards always get the same answer)."""
    if type(cards) is tuple:
        verdicts = req.verdicts
        got = verdicts.get(cards, verdicts)
        if got is not verdicts:
            return got
        got = verdicts[cards] = _satisfies(req, cards, ctx)
        return got
    return _satisfies(req, cards, ctx)


def _satisfies(req: Requirement, cards: Sequence[Card], ctx: TrumpContext) -> str | None:
    n = req.count
    if len(cards) != n:
        return f"S9: 必须出 {n} 张牌 (play exactly {n} cards)"
    suit_of = suit_table(ctx)
    s = req.suit
    in_suit = [c for c in cards if suit_of[c] == s]
    if req.held >= n:
        if len(in_suit) != n:
            return (f"S9: 必须跟{SUIT_NAMES[s]}：你还有 {req.held} 张 "
                    f"(must follow {SUIT_NAMES_EN[s]}: you hold {req.held})")
    else:
        if len(in_suit) != req.held:
            return (f"S9: {SUIT_NAMES[s]}不足 {n} 张，必须全部出完 {req.held} 张，再补其他牌 "
                    f"(you hold only {req.held} {SUIT_NAMES_EN[s]}: play them all, then any)")
        return None
    if req.score is None:
        return None
    pc = tally(in_suit)
    score = _score(pc, req.plan, ctx._t.info)
    if score >= req.score:
        return None
    # stronger shape of the same size always satisfies (S7); asked only when
    # the score falls short (the verdict is the same in either order)
    single = req.plan.single
    if single is not None:
        comps = decompose_counts(pc, ctx)
        if len(comps) == 1 and comps[0].size > single.size:
            return None
    return _explain(req, score)


def _score(counts: dict[Card, int], plan: Plan, info) -> tuple:
    """The score :func:`greedy` gives ``counts`` (positive counts of cards of
    the led suit; not changed) with ``high=False``, without its steps (S9).

    The tractors are matched as there (the same runs, so the same cards are
    left); the units then depend only on the counts left, not on which cards
    carry them: each step takes ``g`` from the smallest count ``≥ g``, and
    counts below 2 never supply a unit."""
    if plan.tractors:
        counts = dict(counts)
        flags, demands, _runs = _take_tractors(counts, info, plan, False)
        ftuple = tuple(flags)
    else:
        demands = list(plan.units)  # a plan's units come largest first
        ftuple = ()
    vals = [n for n in counts.values() if n >= 2]
    entries: list[tuple[int, ...]] = []
    for d in demands:
        if d < 2 or not vals:
            entries.append(())
            continue
        rem = d
        got: list[int] = []
        while rem >= 2 and vals:
            mx = max(vals)
            g = rem if rem < mx else mx
            # the smallest count that supplies g (any of equal ones: the
            # counts left are the same)
            bi = -1
            bn = 5 * g + 99
            for i, n in enumerate(vals):
                if g <= n < bn:
                    bi, bn = i, n
            if bn - g >= 2:
                vals[bi] = bn - g
            else:
                del vals[bi]
            rem -= g
            got.append(g)
        entries.append(tuple(got))
    return (ftuple, tuple(entries))


def _explain(req: Requirement, score) -> str:
    flags_h, entries_h = req.score
    flags_p, entries_p = score
    tractor_steps = [st for st in req.steps if st.kind == "tractor"]
    unit_steps = [st for st in req.steps if st.kind == "unit"]
    if flags_p < flags_h:
        for i, (fh, fp) in enumerate(zip(flags_h, flags_p)):
            if fh > fp:
                # the i-th matched tractor of the hand
                idx = sum(flags_h[:i])
                st = tractor_steps[idx]
                shown = cards_text(st.cards)
                return (f"S9: 必须跟拖拉机：你还有 {shown} "
                        f"(must follow the tractor with a tractor: you hold {shown})")
    # same flags: walk the unit entries
    pos = 0
    for eh, ep in zip(entries_h, entries_p):
        for j, g in enumerate(eh):
            st = unit_steps[pos + j]
            if j >= len(ep) or ep[j] < g:
                name, name_en = UNIT_NAMES[g], UNIT_NAMES_EN[g]
                return (f"S9: 必须跟{name}：你还有 {cards_text(st.cards)} "
                        f"(must follow with a {name_en}: you hold {cards_text(st.cards)})")
            if ep[j] > g:
                break
        pos += len(eh)
    return "S9: 出牌不符合首家的牌型 (the play does not follow the lead's format)"


def check_follow(hand: Sequence[Card], lead_cards: Sequence[Card], cards: Sequence[Card],
                 ctx: TrumpContext, follow: str = "format") -> None:
    """Check a follow (S9); return None if legal, else raise
    :class:`IllegalAction` with ``rule="S9"`` whose message says what is required,
    e.g. ``S9: 必须跟对子：你还有 ♥77 (must follow with a pair: you hold ♥77)``.

    ``hand`` is the follower's hand before the play, ``lead_cards`` the cards of
    the trick's lead as played (after a failed throw: the single card played),
    ``cards`` the proposed play; ``follow`` is ``"format"`` or ``"suit"``.
    """
    if follow not in FOLLOW_MODES:
        raise ValueError(f"follow must be 'format' or 'suit', got {follow!r}")
    if len(lead_cards) == 1 and len(cards) == 1:
        # fast path for the commonest trick: a single led, a single played
        card = cards[0]
        if card not in hand:
            raise IllegalAction(f"你没有 {cards_text([card])} (you do not hold {card.code})", "S9")
        info = ctx._t.info
        s = info[lead_cards[0]][0]
        if info[card][0] != s:
            held = sum(1 for c in hand if info[c][0] == s)
            if held:
                raise IllegalAction(
                    f"S9: 必须跟{SUIT_NAMES[s]}：你还有 {held} 张 "
                    f"(must follow {SUIT_NAMES_EN[s]}: you hold {held})", "S9")
        return None
    if type(hand) is not tuple and type(hand) is not list:
        hand = list(hand)
    for c, k in tally(cards).items():
        if hand.count(c) < k:
            raise IllegalAction(f"你没有 {cards_text([c] * k)} (you do not hold {c.code} ×{k})",
                                "S9")
    # the hand's counts only if the requirement is not the one just computed
    req = requirement(hand, lead_cards, ctx, follow)
    msg = satisfies(req, cards, ctx)
    if msg is not None:
        raise IllegalAction(msg, "S9")


def follow_hint(hand: Sequence[Card], lead_cards: Sequence[Card], ctx: TrumpContext,
                follow: str = "format") -> str:
    """A short text of what the follower must play, e.g.
    ``跟红桃 4 张，须含：拖拉机 ♥6655`` or ``红桃只有 1 张：全部出完，另补 1 张``."""
    req = requirement(hand, lead_cards, ctx, follow)
    s, n = req.suit, req.count
    name = SUIT_NAMES[s]
    if req.held == 0:
        extra = "，可以用主牌杀" if s != "T" else ""
        return f"没有{name}：任出 {n} 张{extra} (void in {SUIT_NAMES_EN[s]}: any {n} cards)"
    if req.held <= n:
        rest = n - req.held
        tail = f"，另补 {rest} 张" if rest else ""
        more = f" and {rest} more" if rest else ""
        return f"{name}只有 {req.held} 张：全部出完{tail} (play all your {SUIT_NAMES_EN[s]}{more})"
    parts = []
    for st in req.steps:
        label = "拖拉机" if st.kind == "tractor" else UNIT_NAMES[st.size]
        parts.append(f"{label} {cards_text(st.cards)}")
    if parts:
        return (f"跟{name} {n} 张，须含：" + "，".join(parts)
                + f" (follow {SUIT_NAMES_EN[s]} with {n} cards including the shown structure)")
    return f"跟{name} {n} 张 (follow {SUIT_NAMES_EN[s]} with {n} cards)"
