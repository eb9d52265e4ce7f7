"""Bot policies for 升級: ``random`` and ``heuristic``.

A policy sees only a :class:`~games.engine.shengji.view.SeatView` (what its seat
may know) and the legal actions (``RULES.legal_actions``, a representative legal
set for card verbs), and returns one of them or another legal action built from
its own cards.  ``decide(policy, view, legal, rng)`` dispatches; ``legal`` is a
zero-argument callable so a policy that does not need the list does not pay for it
(it may also offer ``legal.play_args()``: the cards of the play actions, without
building :class:`~games.engine.base.Action` objects).

``random`` picks uniformly among the legal actions (for plays: among the
candidates).  ``heuristic``:

- auction (S13): never outbids its partner; otherwise bids the cheapest bid
  that exceeds, as long as the pile stays within its budget (``BID_SHARE`` of
  the 比牌 points it holds: measured against random bidders, competing with all
  of them gains the most levels, since the winner takes every shown card);
- trumps: the suit giving the most trumps (pairs and tractors counted extra);
- 還牌 and burying: keeps trumps, points, pairs and high cards, gives or buries
  low side singles, and buries whole short side suits to make voids;
- leads: each candidate lead scores its rough chance to hold the trick (no
  unseen card can beat it; fewer higher unseen cards; an opponent known void
  may trump; throws only when they must stand) times its value, minus what a
  lost trick gives away; trumps are spared unless trump-rich;
- follows: points to a partner who is winning safely, no points to an opponent,
  wins (or trumps) a trick when it has points or when it is cheap, with the
  cheapest sure winning play.  For a single led it also considers every
  distinct card it may legally play, not only the representative set.

Card counting uses only public information kept in the view: the cards of the
completed tricks (``played``), the voids shown (``voids``), its own hand and the
kitty if it buried it.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Callable

from ..base import Action
from ..cards import Card, tally
from .auction import cheapest_bid, pile_total
from .deal import FULL_COUNTS
from .follow import suit_table
from .give import choose_give
from .match import team_of
from .shapes import decompose
from .trumps import CARD_POINTS, TrumpContext, card_points
from .tricks import trick_winner, winning_follows

POLICIES = ("random", "heuristic")
#: Share of its 比牌 points the heuristic is willing to show in the auction.
BID_SHARE = 1.0


def decide(policy: str, view, legal: Callable[[], list[Action]], rng) -> Action:
    """The action of ``policy`` for ``view.seat``; ``ValueError`` for an unknown policy."""
    if policy == "random":
        return rng.choice(legal())
    if policy == "heuristic":
        return Heuristic(view, legal, rng).decide()
    raise ValueError(f"unknown shengji bot policy {policy!r}; known: {', '.join(POLICIES)}")


# --------------------------------------------------------------------- helpers


def void_bury(hand, ctx: TrumpContext) -> tuple[Card, ...]:
    """8 cards to bury that keep control: whole short side suits without points
    or high cards first (voids), then low side singles, then other low side
    cards; trumps and point cards only when nothing else is left."""
    info = ctx._t.info
    counts = tally(hand)
    by_suit: dict[str, list[Card]] = {}
    for c in hand:
        s = info[c][0]
        if s != "T":
            by_suit.setdefault(s, []).append(c)
    chosen: list[Card] = []
    # voids: shortest side suits first, only if every card is a low non-point single-ish
    for s in sorted(by_suit, key=lambda s: len(by_suit[s])):
        cards = by_suit[s]
        if len(chosen) + len(cards) > 8:
            continue
        if any(card_points(c) or info[c][1] >= 13 for c in cards):
            continue
        chosen.extend(cards)
    left = tally(hand)  # what is left to choose from, by card
    for c in chosen:
        left[c] -= 1
    pool = [c for c in hand]

    def filler_key(c: Card):
        s, o, _ = info[c]
        return (
            s == "T",
            card_points(c) > 0,
            o >= 13 and s != "T",  # keep aces and kings of side suits
            counts[c] >= 2,  # keep pairs
            o,
        )

    for c in sorted(pool, key=filler_key):
        if len(chosen) == 8:
            break
        if left[c] > 0:
            left[c] -= 1
            chosen.append(c)
    return tuple(chosen)


def _deck(ctx: TrumpContext) -> tuple[tuple[Card, int, str, int], ...]:
    """``(card, copies in the deck, suit of play, order)`` for every kind of
    card, highest order first (equal orders in :data:`.deal.FULL_COUNTS`
    order); built once per trump context (kept in ``ctx._t.memo``)."""
    memo = ctx._t.memo
    got = memo.get("bots.deck")
    if got is None:
        info = ctx._t.info
        got = memo["bots.deck"] = tuple(sorted(
            ((c, n, info[c][0], info[c][1]) for c, n in FULL_COUNTS.items()),
            key=lambda e: -e[3]))
    return got


def _deck_by_suit(ctx: TrumpContext) -> tuple[tuple[str, tuple[tuple[Card, int, int], ...]], ...]:
    """:func:`_deck` split by suit of play, in the order S, H, D, C, T:
    ``(suit, ((card, copies, order), ...))``, each suit highest order first;
    built once per trump context (kept in ``ctx._t.memo``)."""
    memo = ctx._t.memo
    got = memo.get("bots.deck_by_suit")
    if got is None:
        deck = _deck(ctx)
        got = memo["bots.deck_by_suit"] = tuple(
            (s, tuple((c, n, o) for c, n, cs, o in deck if cs == s)) for s in "SHDCT")
    return got


def trump_score(hand, level: str, suit: str) -> float:
    """How good ``suit`` is as trumps for ``hand``: trumps held, pairs counted extra."""
    ctx = TrumpContext(level, suit)
    info = ctx._t.info
    counts = tally(c for c in hand if info[c][0] == "T")
    score = 0.0
    for c, n in counts.items():
        o = info[c][1]
        score += n * (1.0 + (o - 20) / 40.0 if o > 20 else 1.0)
        if n >= 2:
            score += 1.5 * (n - 1)
    # side-suit aces still count a little
    return score


def _unit_chance(higher: int, size: int, unseen_suit: int) -> float:
    """The chance that a lead of one unit (``size`` copies of one card) holds,
    before trumping: sure with no ``higher`` unit unseen; a pair or more 0.55
    shrinking with each higher one; a single by the share of the suit's
    ``unseen_suit`` cards that are not higher, squared (two opponents)."""
    if higher == 0:
        return 1.0
    if size > 1:
        return 0.55 / (1 + higher / 4)
    return max(0.05, 1 - higher / max(unseen_suit, 1)) ** 2


class Heuristic:
    """The heuristic policy for one decision."""

    def __init__(self, view, legal, rng):
        self.v = view
        self.legal = legal
        self.rng = rng
        self.seat = view.seat
        self._unseen_cache = None
        self._unseen_n: dict[str, int] = {}  # filled by _unseen
        self._higher: dict[tuple[str, int], tuple[list, list]] = {}
        self._cut: dict[str, bool] = {}

    def _play_args(self) -> list:
        """The cards of the legal plays: ``legal.play_args()`` when the caller
        offers it (no :class:`Action` objects built), else from ``legal()``."""
        fast = getattr(self.legal, "play_args", None)
        if fast is not None:
            return fast()
        return [a.arg for a in self.legal()]

    def decide(self) -> Action:
        phase = self.v.phase
        if phase == "auction":
            return self.auction()
        if phase == "trump":
            return self.trump()
        if phase == "give":
            return self.give()
        if phase == "bury":
            return Action(self.seat, "bury", void_bury(self.v.hand, self.v.ctx))
        return self.play()

    # ---------------------------------------------------------- auction
    def auction(self) -> Action:
        v = self.v
        seat = self.seat
        level = v.level
        piles = v.piles
        totals = [pile_total(p, level) for p in piles]
        leader = max(range(4), key=lambda s: totals[s]) if v.highest else None
        if leader is not None and team_of(leader) == team_of(seat):
            return Action(seat, "pass", True)
        mine = pile_total(v.hand, level)  # the same sum as bid_points card by card
        budget = totals[seat] + mine * BID_SHARE
        bid = cheapest_bid(v.hand, piles[seat], v.highest, level)
        if bid is None or totals[seat] + pile_total(bid, level) > budget:
            return Action(seat, "pass", True)
        return Action(seat, "bid", bid)

    # ------------------------------------------------------------ trump
    def trump(self) -> Action:
        v = self.v
        best = max("SHDC", key=lambda s: trump_score(v.hand, v.level, s))
        return Action(self.seat, "trump", best)

    # ------------------------------------------------------------- give
    def give(self) -> Action:
        v = self.v
        ctx = v.ctx
        info = ctx._t.info
        counts = tally(v.hand)
        lengths = tally(info[c][0] for c in v.hand)

        def key(c: Card):
            s, o, _ = info[c]
            return (s == "T", counts[c] >= 2, o >= 13, lengths[s], o)

        g = choose_give(v.hand, dict(v.owed), ctx, low_key=key)
        return Action(self.seat, "give", tuple(sorted(g.items())))

    # ------------------------------------------------------------- play
    def _unseen(self) -> dict[str, list[tuple[int, int]]]:
        """Cards this seat has not seen (the deck minus its hand, every played
        card, the kitty if it knows it), by suit of play: ``[(order, count)]``,
        highest order first.
        Also fills the per-suit totals of :meth:`_unseen_in`."""
        if self._unseen_cache is not None:
            return self._unseen_cache
        v = self.v
        seen = list(v.hand)
        for _s, cards in v.plays:
            seen += cards
        if v.kitty is not None:
            seen += v.kitty
        kget = tally(seen).get
        pget = v.played.get
        out: dict[str, list[tuple[int, int]]] = {}
        totals: dict[str, int] = {}
        for s, kinds in _deck_by_suit(v.ctx):
            got: list[tuple[int, int]] = []
            total = 0
            for c, n, o in kinds:
                k = n - kget(c, 0) - pget(c, 0)
                if k > 0:
                    got.append((o, k))
                    total += k
            out[s] = got
            totals[s] = total
        self._unseen_cache = out
        self._unseen_n = totals
        return out

    def _higher_unseen(self, suit: str, size: int, top: int) -> int:
        """How many unseen cards of ``suit`` are higher than ``top`` and held
        unseen at least ``size`` times (so could form a beating unit).  One
        table per (suit, size) and decision: the orders ascending and, for each
        position, the count at and above it (a bisection per question)."""
        tab = self._higher.get((suit, size))
        if tab is None:
            orders: list[int] = []
            above = [0]
            total = 0
            # each suit's unseen list is highest order first (_deck)
            for o, n in (self._unseen_cache or self._unseen()).get(suit, ()):
                if n >= size:
                    total += n
                    orders.append(o)
                    above.append(total)
            orders.reverse()
            above.reverse()
            tab = self._higher[(suit, size)] = (orders, above)
        orders, above = tab
        return above[bisect_right(orders, top)]

    def _suit_table(self, stabs: list, suit: str, size: int) -> tuple:
        """The ``(orders, above)`` table of :meth:`_higher_unseen` for ``suit``
        and unit ``size`` (built on first use), kept in ``stabs[size]`` for
        sizes below 5: the lead scoring's per-suit tables, looked up by
        ``stabs[size]`` first and through here on a miss."""
        tab = self._higher.get((suit, size))
        if tab is None:
            self._higher_unseen(suit, size, 0)
            tab = self._higher[(suit, size)]
        if size < 5:
            stabs[size] = tab
        return tab

    def _shape(self, cards):
        """``(suit, components)`` of a one-suit play (S11 decomposition)."""
        comps = decompose(cards, self.v.ctx)
        return comps[0].suit, comps

    def _beatable(self, cards) -> bool:
        """Could an unseen holding beat this play (same suit of play, same unit
        size with a higher card)?  Trump cuts are judged separately."""
        info = self.v.ctx._t.info
        if len(cards) == 1:
            suit, top, _ = info[cards[0]]
            return self._higher_unseen(suit, 1, top) > 0
        suit, comps = self._shape(cards)
        big = max(comps, key=lambda c: (c.count, c.size, c.top))
        return self._higher_unseen(suit, big.size, big.top) > 0

    def _unseen_in(self, suit: str) -> int:
        """How many cards of ``suit`` (of play) this seat has not seen."""
        if self._unseen_cache is None:
            self._unseen()
        return self._unseen_n[suit]

    def play(self) -> Action:
        v = self.v
        if not v.plays:
            return self.lead()
        return self.follow()

    # ------------------------------------------------------------- leads
    def _lead_win_chance(self, cards) -> float:
        """Rough chance that a lead holds the trick against the unseen cards."""
        if len(cards) == 1:
            suit, top, _ = self.v.ctx._t.info[cards[0]]
            unseen_suit = self._unseen_in(suit)
            p = _unit_chance(self._higher_unseen(suit, 1, top), 1, unseen_suit)
        else:
            suit, comps = self._shape(cards)
            unseen_suit = self._unseen_in(suit)
            if len(comps) > 1:
                # a throw: it must stand (S11/S12); a failed one plays its lowest card
                if unseen_suit == 0:
                    return 1.0
                for comp in comps:
                    if self._higher_unseen(suit, comp.size, comp.top):
                        return 0.0
                p = 1.0
            else:
                comp = comps[0]
                p = _unit_chance(self._higher_unseen(suit, comp.size, comp.top), comp.size, unseen_suit)
        return p * self._cut_factor(suit, unseen_suit, len(cards))

    def _cut_factor(self, suit: str, unseen_suit: int, n_cards: int) -> float:
        """What an opponent's trumping leaves of a side-suit lead's chance: ×0.25
        when an opponent is void in ``suit`` and trumps are unseen (memoized per
        suit), ×0.7 when fewer than 6 × ``n_cards`` of the suit are unseen (it
        is running out: someone may trump), else 1 (trumps: always 1)."""
        if suit == "T":
            return 1.0
        cut = self._cut.get(suit)
        if cut is None:
            me = self.seat
            voids = self.v.voids
            cut = self._cut[suit] = (
                (suit in voids[(me + 1) % 4] or suit in voids[(me + 3) % 4])
                and self._unseen_in("T") > 0)
        if cut:
            return 0.25
        return 0.7 if unseen_suit < 6 * n_cards else 1.0

    def lead(self) -> Action:
        cands = self._play_args()
        scores = self._lead_scores(cands)
        best, best_score = cands[0], None
        for cards, score in zip(cands, scores):
            if best_score is None or score > best_score:
                best, best_score = cards, score
        return Action(self.seat, "play", tuple(best))

    def _lead_scores(self, cands) -> list[float]:
        """The score of each candidate lead (card tuples, as ``_play_args``
        gives them), in order: its chance to hold the trick times what it
        wins, minus what a lost trick gives away; trumps spared unless
        trump-rich; a short side suit's low lead pays a little.

        Every candidate takes its chance inline from the per-(suit, size)
        tables of :meth:`_higher_unseen` with the formulas of
        :func:`_unit_chance` and :meth:`_cut_factor`, in the same float
        operations as :meth:`_lead_win_chance` (tested equal per candidate):
        a unit from its card and size, a tractor (S6) from its one
        component, a throw (S11/S12) from its components of the memoized
        :func:`.shapes.decompose` (it must stand: 0 when an unseen unit beats
        one of them, 1 when nothing of its suit is unseen).  The values of a
        suit of play (its unseen count, trumps or not, its cut memo, the
        partner's void, the short-suit factor, its tables by unit size) are
        set once per run of candidates of that suit.  ``cands`` must be
        non-empty tuples of one suit of play each (``ValueError`` from
        :func:`.shapes.decompose` otherwise)."""
        v = self.v
        info = v.ctx._t.info
        partner = (self.seat + 2) % 4
        # cards held per suit of play, counted in C (card -> suit table)
        lengths: dict[str, int] = tally(map(suit_table(v.ctx).__getitem__, v.hand))
        hand_trumps = lengths.get("T", 0)
        unseen_trumps = self._unseen_in("T")
        unseen_n = self._unseen_n
        trump_rich = hand_trumps * 2 >= unseen_trumps
        partner_voids = v.voids[partner]
        cut_of = self._cut
        left_voids = v.voids[(self.seat + 1) % 4]  # the opponents' (for the cut memo)
        right_voids = v.voids[(self.seat + 3) % 4]
        points = CARD_POINTS
        scores: list[float] = []
        push = scores.append
        # per suit of play, set when the suit changes (candidates come grouped
        # by suit): its unseen count, whether it is trumps, the partner's void
        # in it, its short-suit bonus factor and its cut memo
        cur = None
        unseen_suit = denom = 0
        is_t = pvoid = cut = False
        bonus = 0.0
        stabs: list = []  # the suit's (orders, above) tables by unit size
        t1o = t1a = None  # the suit's size-1 table
        ctx = v.ctx
        for cards in cands:
            c0 = cards[0]
            suit, top, _ = info[c0]
            if suit != cur:
                cur = suit
                unseen_suit = unseen_n[suit]
                denom = unseen_suit if unseen_suit > 1 else 1  # max(unseen_suit, 1)
                is_t = suit == "T"
                if not is_t:
                    cut = cut_of.get(suit)
                    if cut is None:  # _cut_factor's memo, filled the same way
                        cut = cut_of[suit] = (
                            (suit in left_voids or suit in right_voids)
                            and unseen_trumps > 0)
                    pvoid = suit in partner_voids
                    bonus = 0.2 * max(0, 8 - lengths.get(suit, 0))
                stabs = [None, None, None, None, None]
                t1o = None
            n = len(cards)
            throw = None  # a throw's components (S11/S12)
            if n == 1:
                # a single (the commonest lead): the size-1 table kept in locals
                pts = points[c0]
                if t1o is None:
                    t1o, t1a = self._suit_table(stabs, suit, 1)
                higher = t1a[bisect_right(t1o, top)]
                if higher == 0:
                    p = 1.0
                else:
                    q = 1 - higher / denom
                    p = (q if q > 0.05 else 0.05) ** 2  # max(0.05, q) ** 2, no call
                jokers = top >= 44
            else:
                # a unit of n copies, a tractor (S6) or a throw (S11/S12):
                # _lead_win_chance's formulas inline, on the same tables
                if cards.count(c0) == n:
                    pts = points[c0] * n
                    jokers = top >= 44
                    size, ctop = n, top
                else:
                    pts = 0
                    for c in cards:
                        pts += points[c]
                    jokers = None
                    comps = decompose(cards, ctx)
                    if len(comps) > 1:
                        throw = comps
                    else:
                        size, ctop = comps[0].size, comps[0].top
                if throw is None:
                    # _unit_chance(higher, size, unseen_suit) of a unit of two or more
                    tab = stabs[size] if size < 5 else None
                    if tab is None:
                        tab = self._suit_table(stabs, suit, size)
                    higher = tab[1][bisect_right(tab[0], ctop)]
                    p = 1.0 if higher == 0 else 0.55 / (1 + higher / 4)
                else:
                    # a throw must stand: 0 when an unseen unit beats one of its
                    # components (a failed one plays its lowest card)
                    p = 1.0
                    if unseen_suit:
                        for comp in throw:
                            size = comp.size
                            tab = stabs[size] if size < 5 else None
                            if tab is None:
                                tab = self._suit_table(stabs, suit, size)
                            if tab[1][bisect_right(tab[0], comp.top)]:
                                p = 0.0
                                break
            # times _cut_factor(suit, unseen_suit, n) (1 for trumps); a throw
            # with nothing of its suit unseen has no cut factor
            if not is_t and (unseen_suit or throw is None):
                p = p * (0.25 if cut else 0.7 if unseen_suit < 6 * n else 1.0)
            win_value = 8 + 3 * n + pts
            loss = pts * 1.5 + 2 * n
            if is_t:
                r = 1 - p  # the chance to lose it, computed once
                score = p * win_value - r * loss
                score -= (0.5 if trump_rich else 2.0) * n * (0.3 + r)
                if p < 1:
                    if jokers is None:  # any joker or 比牌 (a loop: no closure once compiled)
                        jokers = False
                        for c in cards:
                            if info[c][1] >= 44:
                                jokers = True
                                break
                    if jokers:
                        score -= 4  # keep jokers and 比牌 unless they win
            else:
                if pvoid and p < 0.5:
                    p = 0.5  # max(p, 0.5): the partner can trump it
                r = 1 - p
                score = p * win_value - r * loss
                score += bonus * r
            push(score)
        return scores

    # ----------------------------------------------------------- follows
    def _extra_follows(self, lead_cards) -> list[tuple[Card, ...]]:
        """More legal single follows than the representative set: every
        distinct card of the led suit, or when void every distinct card of the
        hand (S9: any card may follow a single when void in the led suit); each
        as a 1-tuple, in hand order, first copy of each card.

        Hand order, not a set: cards hash by identity, so a set's order follows
        memory addresses and would break ties between equal follows
        differently from one run to the next (the play must be deterministic)."""
        v = self.v
        info = v.ctx._t.info
        if len(lead_cards) != 1:
            return []
        led = info[lead_cards[0]][0]
        same = dict.fromkeys(c for c in v.hand if info[c][0] == led)
        if same:
            return [(c,) for c in same]
        return [(c,) for c in dict.fromkeys(v.hand)]

    def follow(self) -> Action:
        v = self.v
        ctx = v.ctx
        info = ctx._t.info
        me = self.seat
        plays = list(v.plays)
        cands = self._play_args()
        if len(plays[0][1]) == 1:
            seen = set(cands)
            cands += [c for c in self._extra_follows(plays[0][1]) if c not in seen]
        if len(cands) == 1:
            return Action(me, "play", tuple(cands[0]))
        current = trick_winner(plays, ctx) if len(plays) > 1 else plays[0][0]
        partner_wins = team_of(current) == team_of(me)
        n_after = 3 - len(plays)
        trick_pts = sum(CARD_POINTS[c] for _s, cs in plays for c in cs)
        led = info[plays[0][1][0]][0]
        costs: dict = {}
        points: dict = {}
        for cards in cands:
            total = 0.0
            p = 0
            for c in cards:
                s, o, _ = info[c]
                total += o + (25 if s == "T" else 0) + (15 if o >= 44 else 0)
                p += CARD_POINTS[c]
            costs[cards] = total
            points[cards] = p
        cost = costs.__getitem__
        pts = points.__getitem__

        if partner_wins:
            safe = n_after == 0
            if not safe:
                win_cards = next(cs for s, cs in plays if s == current)
                all_trump = all(info[c][0] == "T" for c in win_cards)
                if not self._beatable(win_cards):
                    safe = all_trump or led == "T" or not self._may_cut(led)
            if safe:
                choice = max(cands, key=lambda cs: (pts(cs), -cost(cs)))
            else:
                choice = min(cands, key=lambda cs: (pts(cs), cost(cs)))
            return Action(me, "play", tuple(choice))

        winning = winning_follows(plays, cands, ctx)
        if winning:
            if n_after == 0:
                choice = min(winning, key=lambda cs: cost(cs) - 6 * pts(cs))
                cheap = all(info[c][0] != "T" or info[c][1] < 40 for c in choice)
                if trick_pts + pts(choice) > 0 or cheap:
                    return Action(me, "play", tuple(choice))
            else:
                sure = [cs for cs in winning
                        if not self._beatable(cs) and (led == "T" or not self._may_cut(led)
                                                       or all(info[c][0] == "T" for c in cs))]
                if sure:
                    choice = min(sure, key=lambda cs: cost(cs) - 4 * pts(cs))
                    cheap = all(info[c][0] != "T" or info[c][1] < 40 for c in choice)
                    if trick_pts >= 5 or cheap:
                        return Action(me, "play", tuple(choice))
                if trick_pts >= 15:
                    choice = max(winning, key=cost)
                    return Action(me, "play", tuple(choice))
        choice = min(cands, key=lambda cs: (pts(cs), cost(cs)))
        return Action(me, "play", tuple(choice))

    def _may_cut(self, led: str) -> bool:
        """Might an opponent still to play trump the led side suit?  True when
        one has shown void in it, or when few of its cards are left unseen."""
        v = self.v
        me = self.seat
        after = [(me + i) % 4 for i in range(1, 4 - len(v.plays))]
        opp_after = [s for s in after if team_of(s) != team_of(me)]
        if not opp_after:
            return False
        if any(led in v.voids[s] for s in opp_after):
            return True
        return self._unseen_in(led) < 8
