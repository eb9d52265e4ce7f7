"""A fast play-out of the rest of a 升級 hand, for the ``search`` bot.

Stepping :class:`~.state.HandState` with the ``heuristic`` at every seat costs
about 11 ms per hand on this machine, so a search decision of 100 ms could
compare its candidates on two or three sampled worlds only.  :func:`playout`
plays the remaining tricks on mutable card counts instead (about 0.7 ms against
5 ms from a random trick boundary, CPU time on a quiet machine), with a simple
rollout policy that obeys every rule that the tricks it creates involve, then
settles the hand with the engine's own :func:`~.scoring.hand_result` (S16–S18,
S2, S15).

What it plays
-------------
The world is a *sampled* one (:mod:`.search`), so the rollout policy may look at
every hand of it (a "perfect information" play-out, as usual in determinized
Monte Carlo): it is a model of how the rest of the hand goes, the same for every
candidate compared, never the real hidden cards.

* **Leads** are single units only: a single, or every copy the leader holds of
  one card (a pair, triple or bomb, S5).  A unit is always a legal lead (S8).  The
  leader leads the unit that no opponent can beat (none holds as many copies of a
  higher card of that suit, nor can trump it: void with as many copies of one
  trump), preferring side suits, bigger units and points; without one, the
  lowest non-point single of its shortest side suit (trumps last).
* **Follows** to a unit of ``d`` cards of suit of play ``s`` (all trumps one suit,
  S3) obey S9: with at least ``d`` cards of ``s`` the structural part is the
  format matcher's own (:func:`~.follow.greedy`: identical groups, largest
  first, a group with fewest copies first) and the rest singles of ``s``; a follower who
  can beat the current winner with ``d`` copies of one higher card does so when
  the trick is worth it; with fewer than ``d`` cards of ``s`` it plays all of them
  and fills with its lowest cards; void, it may trump with ``d`` copies of one
  trump (S10), otherwise discards.  Points go to a partner who holds the trick
  safely, never to an opponent.
* **Winner** (S10): only ``d`` copies of one card can beat a unit led; a play of
  suit ``s`` beats a winner of ``s`` with a higher order, a play of trumps beats
  any side-suit winner and a lower trump; ties go to the earlier play (S4).

:func:`playout` accepts a state of the play phase at a trick boundary, or inside
a trick whose lead is one unit (every card identical, which includes the single
card a failed throw leaves, S11/S12); :mod:`.search` reaches one by stepping the
engine through any earlier phase or a trick led with a tractor or a throw.

>>> import random
>>> from games.engine.shengji import RULES
>>> match = RULES.new_match()
>>> state = RULES.start_hand(match, RULES.deal(match, 7))
>>> bot = random.Random(0)
>>> while state.phase != "play":
...     state = RULES.apply(state, RULES.bot_action(state, state.to_act, "heuristic", bot))
>>> result = playout(state, random.Random(1))
>>> sum(result.game_points), result.attackers_points % 5
(0, 0)
"""

from __future__ import annotations

import random

from ..cards import Card
from . import scoring
from .follow import Plan, greedy
from .match import team_of
from .state import HandState
from .trumps import _ALL_CARDS, card_points

SPADE_ACE = Card.parse("AS")
#: Order at or above which a trump is a joker or 比牌 (kept for winning, S3/S4).
TOP_TRUMP = 44
#: S16 card points by card (5 scores 5, 10 and K score 10).
POINTS = {c: card_points(c) for c in _ALL_CARDS}
NONE4 = (-1, -1, -1, -1)


def _first(pair):
    return pair[0]


_PLANS: dict = {}


def _unit_plan(suit: str, size: int) -> Plan:
    """The S9 matcher's :class:`~.follow.Plan` of one unit of ``size`` cards led
    in ``suit`` (cached)."""
    plan = _PLANS.get((suit, size))
    if plan is None:
        plan = _PLANS[(suit, size)] = Plan(suit, size, (), (size,), None)
    return plan


def unit_lead(state: HandState) -> bool:
    """True when :func:`playout` can take ``state`` over: the play phase, at a
    trick boundary or after a lead of identical cards."""
    if state.phase != "play":
        return False
    if not state.plays:
        return True
    lead = state.plays[0][1]
    return lead.count(lead[0]) == len(lead)


class FastHand:
    """Mutable card counts of the four seats for one play-out.

    ``cards[seat][suit]``: card → copies held, by suit of play (S3, all trumps
    ``"T"``); ``suit_n[seat][suit]``: cards held of that suit; ``tops[seat][suit]``:
    for k = 1..4 the highest order of a card held in ≥ k copies (-1: none),
    rebuilt lazily for a suit after the seat played from it.  Built from a state
    that :func:`unit_lead` accepts; :meth:`run` plays the rest and returns the
    :class:`~.scoring.HandResult`.
    """

    __slots__ = ("state", "info", "cards", "suit_n", "tops", "attackers", "rng", "left",
                 "trace")

    def __init__(self, state: HandState, rng: random.Random, trace: list | None = None):
        if not unit_lead(state):
            raise ValueError("playout needs the play phase, at a trick boundary or after a "
                             "lead of identical cards")
        self.state = state
        info = state.ctx._t.info
        self.info = info
        self.rng = rng
        #: when a list: every play appended as ``(seat, cards)`` (tests replay them)
        self.trace = trace
        self.cards = []
        self.suit_n = []
        for hand in state.hands:
            by: dict = {"T": {}, "S": {}, "H": {}, "D": {}, "C": {}}
            for c in hand:
                d = by[info[c][0]]
                d[c] = d.get(c, 0) + 1
            self.cards.append(by)
            self.suit_n.append({s: sum(d.values()) for s, d in by.items()})
        self.tops = [{}, {}, {}, {}]
        self.attackers = 1 - team_of(state.dealer)

    # ----------------------------------------------------------- helpers
    def _remove(self, seat: int, cards) -> None:
        info = self.info
        by = self.cards[seat]
        sn = self.suit_n[seat]
        tops = self.tops[seat]
        for c in cards:
            s = info[c][0]
            d = by[s]
            n = d[c] - 1
            if n:
                d[c] = n
            else:
                del d[c]
            sn[s] -= 1
            tops.pop(s, None)

    def _top(self, seat: int, suit: str) -> tuple:
        """For k = 1..4 (index k-1): the highest order of a card of ``suit`` that
        ``seat`` holds in at least k copies, -1 when none."""
        t = self.tops[seat].get(suit)
        if t is None:
            info = self.info
            a = [-1, -1, -1, -1]
            for c, n in self.cards[seat][suit].items():
                o = info[c][1]
                for k in range(n):
                    if a[k] < o:
                        a[k] = o
            t = self.tops[seat][suit] = tuple(a)
        return t

    def _can_beat(self, seat: int, suit: str, size: int, order: int, trumped: bool) -> bool:
        """Can ``seat`` beat a winner of ``size`` copies of one card of ``order``
        (``trumped``: the winner is a trump on a side-suit lead ``suit``)?"""
        if not trumped:
            if self._top(seat, suit)[size - 1] > order:
                return True
            if suit == "T" or self.suit_n[seat][suit]:
                return False
            return self._top(seat, "T")[size - 1] >= 0
        if self.suit_n[seat][suit]:
            return False
        return self._top(seat, "T")[size - 1] > order

    # ------------------------------------------------------------- leads
    def _lead(self, seat: int) -> tuple[Card, int]:
        info = self.info
        o1, o2 = (seat + 1) % 4, (seat + 3) % 4
        n1, n2 = self.suit_n[o1], self.suit_n[o2]
        sn = self.suit_n[seat]
        best = None
        bkey = None
        for s, d in self.cards[seat].items():
            if not d:
                continue
            t1, t2 = self._top(o1, s), self._top(o2, s)
            if s != "T":
                c1 = self._top(o1, "T") if not n1[s] else NONE4
                c2 = self._top(o2, "T") if not n2[s] else NONE4
            for c, n in d.items():
                o = info[c][1]
                k = n - 1
                if t1[k] > o or t2[k] > o:
                    continue
                if s != "T" and (c1[k] >= 0 or c2[k] >= 0):
                    continue
                key = (s != "T", n, POINTS[c] * n, o)
                if bkey is None or key > bkey:
                    best, bkey = (c, n), key
        if best is not None:
            return best
        low = None
        lkey = None
        for s, d in self.cards[seat].items():
            if not d:
                continue
            for c in d:
                key = (s == "T", POINTS[c] > 0, sn[s], info[c][1])
                if lkey is None or key < lkey:
                    low, lkey = c, key
        return low, 1

    # ----------------------------------------------------------- follows
    def _fill(self, pools, k: int, give: bool) -> list:
        """``k`` single cards out of the dicts ``pools`` (card → copies, mutated):
        points first when ``give``, else the cheapest (no points, side suits,
        low order)."""
        info = self.info
        live = [c for pool in pools for c, n in pool.items() if n > 0]
        if give:
            def key(c):
                return (-POINTS[c], info[c][0] == "T", info[c][1])
        else:
            def key(c):
                return (POINTS[c], info[c][0] == "T", info[c][1])
        where = {}
        for pool in pools:
            for c in pool:
                where[c] = pool
        if k == 1:
            c = min(live, key=key)
            where[c][c] -= 1
            return [c]
        out = []
        for c in sorted(live, key=key):
            pool = where[c]
            n = pool[c]
            take = n if n < k - len(out) else k - len(out)
            pool[c] = n - take
            out += [c] * take
            if len(out) == k:
                break
        return out

    def _follow(self, seat: int, suit: str, d: int, win_seat: int, win_order: int,
                trumped: bool, trick_pts: int, after: tuple) -> list:
        info = self.info
        held = self.suit_n[seat][suit]
        mine = seat & 1
        partner_wins = (win_seat & 1) == mine
        opp_after = [q for q in after if (q & 1) != mine]
        if partner_wins:
            safe = not any(self._can_beat(q, suit, d, win_order, trumped) for q in opp_after)
        else:
            safe = False
        if held >= d:
            pool = dict(self.cards[seat][suit])
            if not partner_wins and not trumped and self._top(seat, suit)[d - 1] > win_order:
                beats = [(info[c][1], c) for c, n in pool.items()
                         if n >= d and info[c][1] > win_order]
                beats.sort(key=_first)
                sure = [x for x in beats
                        if not any(self._can_beat(q, suit, d, x[0], False) for q in opp_after)]
                worth = trick_pts >= 10 or d >= 2 or not opp_after
                if sure and (worth or sure[0][0] < TOP_TRUMP):
                    return [sure[0][1]] * d
                if trick_pts >= 15 and not opp_after:
                    return [beats[0][1]] * d
            # the format matcher's own structure (S9), lowest groups, then singles
            _score, steps, left = greedy(pool, _unit_plan(suit, d), self.state.ctx)
            out = [c for step in steps for c in step.cards]
            if len(out) < d:
                out += self._fill((left,), d - len(out), safe)
            return out
        by = self.cards[seat]
        out = [c for c, n in by[suit].items() for _ in range(n)]
        need = d - held
        if held == 0 and suit != "T" and not partner_wins and self._top(seat, "T")[d - 1] >= 0:
            # trump it (S10) with the lowest group of d copies that wins
            cuts = [(info[c][1], c) for c, n in by["T"].items()
                    if n >= d and (not trumped or info[c][1] > win_order)]
            if cuts and (trick_pts >= 5 or d >= 2 or self.rng.random() < 0.3):
                cuts.sort(key=_first)
                sure = [x for x in cuts
                        if not any(self._can_beat(q, suit, d, x[0], True) for q in opp_after)]
                pick = (sure or cuts)[0][1]
                if sure or trick_pts >= 10:
                    return [pick] * d
        pools = [dict(p) for s, p in by.items() if s != suit and p]
        return out + self._fill(pools, need, safe)

    # -------------------------------------------------------------- play
    def run(self) -> scoring.HandResult:
        """Play every remaining trick; the hand's :class:`~.scoring.HandResult`."""
        info = self.info
        st = self.state
        attackers = self.attackers
        penalties = scoring.spade_ace_penalties((t.plays, t.winner) for t in st.tricks)
        att_points = sum(t.points for t in st.tricks if team_of(t.winner) == attackers)
        if st.tricks:
            last_winner, last_all_trumps = st.tricks[-1].winner, st.tricks[-1].winner_all_trumps
        else:
            last_winner, last_all_trumps = None, False
        trace = self.trace
        left = len(st.hands[st.to_act])  # cards of a seat yet to play this trick
        started = list(st.plays)
        leader = started[0][0] if started else st.leader
        while left > 0:
            if started:
                lead = list(started[0][1])
                card = lead[0]
                d = len(lead)
                plays = [(leader, lead)]
            else:
                card, d = self._lead(leader)
                lead = [card] * d
                self._remove(leader, lead)
                plays = [(leader, lead)]
                if trace is not None:
                    trace.append((leader, tuple(lead)))
            suit, win_order, _a = info[card]
            win_seat = leader
            trumped = False
            trick_pts = POINTS[card] * d
            for i in (1, 2, 3):
                seat = (leader + i) % 4
                if i < len(started):
                    cards = list(started[i][1])
                else:
                    after = tuple((leader + j) % 4 for j in range(i + 1, 4))
                    cards = self._follow(seat, suit, d, win_seat, win_order, trumped, trick_pts,
                                         after)
                    self._remove(seat, cards)
                    if trace is not None:
                        trace.append((seat, tuple(cards)))
                plays.append((seat, cards))
                for c in cards:
                    trick_pts += POINTS[c]
                c0 = cards[0]
                if cards.count(c0) == d:
                    s, o, _a = info[c0]
                    if s == suit and not trumped and o > win_order:
                        win_seat, win_order = seat, o
                    elif s == "T" and suit != "T" and (not trumped or o > win_order):
                        win_seat, win_order, trumped = seat, o, True
            started = ()
            wteam = team_of(win_seat)
            if wteam == attackers:
                att_points += trick_pts
            for s, cards in plays:
                if team_of(s) != wteam:
                    n = cards.count(SPADE_ACE)
                    if n:
                        penalties[s] -= scoring.SPADE_ACE_PENALTY * n
                        penalties[win_seat] += scoring.SPADE_ACE_PENALTY * n
            last_winner = win_seat
            last_all_trumps = trumped or suit == "T"
            leader = win_seat
            left -= d
        return scoring.hand_result(st.match, st.dealer, att_points, st.kitty, last_winner,
                                   last_all_trumps, penalties)


def playout(state: HandState, rng: random.Random,
            trace: list | None = None) -> scoring.HandResult:
    """The result of playing ``state`` to the end with the fast rollout policy
    of the module docstring (``state``: one that :func:`unit_lead` accepts, else
    ``ValueError``); ``trace`` (a list) receives every play it makes as
    ``(seat, cards)``."""
    return FastHand(state, rng, trace).run()
