"""Bot policies for 升級: ``random`` and ``heuristic``.

A policy sees only a :class:`~games.engine.shengji.view.SeatView` (what its seat
may know) and the legal actions (``RULES.legal_actions``, a representative legal
set for card verbs), and returns one of them or another legal action built from
its own cards.  ``decide(policy, view, legal, rng)`` dispatches; ``legal`` is a
zero-argument callable so a policy that does not need the list does not pay for it.

``random`` picks uniformly among the legal actions (for plays: among the
candidates).  ``heuristic``:

- auction (S13): bids the cheapest exceeding bid while the pile stays within a
  budget set by its 比牌 and trump length; never outbids its partner;
- trumps: the suit giving the most trumps (pairs and tractors counted extra);
- 還牌 and burying: keeps trumps, points, pairs and high cards, gives or buries
  low side singles, and buries whole short side suits to make voids;
- leads: sure winners first (tractors, pairs, then singles no unseen card can
  beat), else a low single from a short side suit;
- follows: points to a partner who is winning safely, no points to an opponent,
  wins (or trumps) a trick when it has points or when it is cheap.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable

from ..base import Action
from ..cards import Card
from .auction import bid_options, pile_total
from .deal import FULL_COUNTS
from .give import choose_give
from .match import team_of
from .trumps import TrumpContext, bid_points, card_points
from .tricks import trick_winner

POLICIES = ("random", "heuristic")


def decide(policy: str, view, legal: Callable[[], list[Action]], rng) -> Action:
    """The action of ``policy`` for ``view.seat``; ``ValueError`` for an unknown policy."""
    if policy == "random":
        return rng.choice(legal())
    if policy == "heuristic":
        return Heuristic(view, legal, rng).decide()
    raise ValueError(f"unknown shengji bot policy {policy!r}; known: {', '.join(POLICIES)}")


# --------------------------------------------------------------------- helpers


def _low_key(ctx: TrumpContext):
    info = ctx._t.info

    def key(c: Card):
        s, o, _ = info[c]
        return (s == "T", o)

    return key


def void_bury(hand, ctx: TrumpContext) -> tuple[Card, ...]:
    """8 cards to bury that keep control: whole short side suits without points
    or high cards first (voids), then low side singles, then other low side
    cards; trumps and point cards only when nothing else is left."""
    info = ctx._t.info
    counts = Counter(hand)
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
    rest = Counter(hand)
    rest.subtract(chosen)
    pool = [c for c in hand]
    left = Counter(rest)

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


def trump_score(hand, level: str, suit: str) -> float:
    """How good ``suit`` is as trumps for ``hand``: trumps held, pairs counted extra."""
    ctx = TrumpContext(level, suit)
    info = ctx._t.info
    counts = Counter(c for c in hand if info[c][0] == "T")
    score = 0.0
    for c, n in counts.items():
        o = info[c][1]
        score += n * (1.0 + (o - 20) / 40.0 if o > 20 else 1.0)
        if n >= 2:
            score += 1.5 * (n - 1)
    # side-suit aces still count a little
    return score


class Heuristic:
    """The heuristic policy for one decision."""

    def __init__(self, view, legal, rng):
        self.v = view
        self.legal = legal
        self.rng = rng
        self.seat = view.seat
        self._unseen_cache = None

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
        mine = sum(bid_points(c, level) for c in v.hand)
        # Budget: a share of the 比牌 in hand, more with a long suit to name.
        best_suit = max(
            sum(1 for c in v.hand if c.suit == s) for s in "SHDC"
        )
        budget = totals[seat] + mine * (0.45 + 0.02 * max(best_suit - 12, 0))
        opts = bid_options(v.hand, piles[seat], v.highest, level, limit=60)
        opts = [o for o in opts if totals[seat] + pile_total(o, level) <= budget]
        if not opts:
            return Action(seat, "pass", True)
        # cheapest total; among equal totals prefer showing level cards (less valuable)
        opts.sort(key=lambda o: (pile_total(o, level), -len(o)))
        return Action(seat, "bid", opts[0])

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
        counts = Counter(v.hand)
        lengths = Counter(info[c][0] for c in v.hand)

        def key(c: Card):
            s, o, _ = info[c]
            return (s == "T", counts[c] >= 2, o >= 13, lengths[s], o)

        g = choose_give(v.hand, dict(v.owed), ctx, low_key=key)
        return Action(self.seat, "give", tuple(sorted(g.items())))

    # ------------------------------------------------------------- play
    def _unseen(self) -> dict[str, list[tuple[int, int]]]:
        """Cards this seat has not seen (the deck minus its hand, every played
        card, the kitty if it knows it), by suit of play: ``[(order, count)]``."""
        v = self.v
        if self._unseen_cache is not None:
            return self._unseen_cache
        known = Counter(v.hand)
        for _s, cards in v.plays:
            known.update(cards)
        if v.kitty is not None:
            known.update(v.kitty)
        played = v.played
        info = v.ctx._t.info
        out: dict[str, list[tuple[int, int]]] = {}
        for c, n in FULL_COUNTS.items():
            k = n - known.get(c, 0) - played.get(c, 0)
            if k > 0:
                s, o, _ = info[c]
                out.setdefault(s, []).append((o, k))
        self._unseen_cache = out
        return out

    def _beatable(self, cards) -> bool:
        """Could an unseen holding beat this play (same suit of play, same unit
        size with a higher card)?  Trump cuts are judged separately."""
        info = self.v.ctx._t.info
        if len(cards) == 1:
            suit, top, _ = info[cards[0]]
            size = 1
        else:
            cnt = Counter(cards)
            size = max(cnt.values())
            suit = info[cards[0]][0]
            top = max(info[c][1] for c in cnt if cnt[c] == size)
        for o, n in self._unseen().get(suit, ()):
            if n >= size and o > top:
                return True
        return False

    def _unseen_trumps(self) -> int:
        return sum(n for _o, n in self._unseen().get("T", ()))

    def play(self) -> Action:
        v = self.v
        if not v.plays:
            return self.lead()
        return self.follow()

    def lead(self) -> Action:
        v = self.v
        ctx = v.ctx
        info = ctx._t.info
        cands = [a.arg for a in self.legal()]
        voids = self.v.voids
        me = self.seat
        opponents = ((me + 1) % 4, (me + 3) % 4)
        partner = (me + 2) % 4
        my_trumps = sum(1 for c in v.hand if info[c][0] == "T")
        unseen_trumps = self._unseen_trumps()
        lengths = Counter(info[c][0] for c in v.hand)
        best = None
        best_score = None
        for cards in cands:
            suit = info[cards[0]][0]
            n = len(cards)
            pts = sum(card_points(c) for c in cards)
            if any(info[c][0] != suit for c in cards):
                continue
            sure = not self._beatable(cards)
            cut = suit != "T" and any(suit in voids[o] for o in opponents) and unseen_trumps > 0
            partner_cut = suit != "T" and suit in voids[partner]
            score = 0.0
            if sure and not cut:
                score = 50 + 6 * n + pts
                if suit == "T":
                    score -= 8 if my_trumps < unseen_trumps / 2 else 0
            else:
                # a probe: low, short side suit, no points; partner void is good
                top = max(info[c][1] for c in cards)
                score = 10 - top / 4 - pts * 1.5 - 2 * (n - 1)
                if suit == "T":
                    score -= 6
                else:
                    score += max(0, 6 - lengths[suit]) * 0.8
                if partner_cut:
                    score += 6
                if cut:
                    score -= 6
            if best_score is None or score > best_score:
                best, best_score = cards, score
        if best is None:
            best = cands[0]
        return Action(me, "play", tuple(best))

    def follow(self) -> Action:
        v = self.v
        ctx = v.ctx
        info = ctx._t.info
        me = self.seat
        plays = list(v.plays)
        cands = [a.arg for a in self.legal()]
        if len(cands) == 1:
            return Action(me, "play", tuple(cands[0]))
        current = trick_winner(plays, ctx) if len(plays) > 1 else plays[0][0]
        partner_wins = team_of(current) == team_of(me)
        n_after = 3 - len(plays)
        trick_pts = sum(card_points(c) for _s, cs in plays for c in cs)
        led = info[plays[0][1][0]][0]

        def cost(cards) -> float:
            total = 0.0
            for c in cards:
                s, o, _ = info[c]
                total += o + (25 if s == "T" else 0)
            return total

        def pts(cards) -> int:
            return sum(card_points(c) for c in cards)

        if partner_wins:
            win_cards = next(cs for s, cs in plays if s == current)
            safe = n_after == 0
            if not safe:
                all_trump = all(info[c][0] == "T" for c in win_cards)
                lead_suit_cards = all(info[c][0] == led for c in win_cards)
                if lead_suit_cards or all_trump:
                    safe = not self._beatable(win_cards) and (
                        all_trump or led == "T" or not self._may_cut(led)
                    )
            if safe:
                choice = max(cands, key=lambda cs: (pts(cs), -cost(cs)))
            else:
                choice = min(cands, key=lambda cs: (pts(cs), cost(cs)))
            return Action(me, "play", tuple(choice))

        winning = []
        for cs in cands:
            if trick_winner(plays + [(me, cs)], ctx) == me:
                winning.append(cs)
        if winning:
            value = trick_pts
            if n_after == 0:
                # last: win with the cheapest winning play, points welcome
                choice = min(winning, key=lambda cs: (cost(cs) - 6 * pts(cs)))
                if value > 0 or cost(choice) < 40 * len(choice):
                    return Action(me, "play", tuple(choice))
            else:
                # others still play: win with the strongest sure play if worth it
                sure = [cs for cs in winning if not self._beatable(cs)]
                if sure and (value >= 10 or all(info[c][0] == led for c in sure[0])):
                    choice = min(sure, key=lambda cs: (cost(cs) - 4 * pts(cs)))
                    return Action(me, "play", tuple(choice))
                if value >= 15:
                    choice = max(winning, key=lambda cs: (cost(cs)))
                    return Action(me, "play", tuple(choice))
        choice = min(cands, key=lambda cs: (pts(cs), cost(cs)))
        return Action(me, "play", tuple(choice))

    def _may_cut(self, led: str) -> bool:
        """Might an opponent still to play trump the led side suit?"""
        v = self.v
        voids = v.voids
        me = self.seat
        after = [(me + i) % 4 for i in range(1, 4 - len(v.plays))]
        return any(
            team_of(s) != team_of(me) and led in voids[s] for s in after
        )
