"""The ``search`` bot of 升級: determinized Monte Carlo over the seat's view.

The bot reads the state only through :func:`~.view.seat_view` (own cards,
counts, 比牌 piles, 還牌 it gave or received, the kitty when it is the dealer,
tricks, voids shown).  :func:`sample_world` deals every card the seat has not
seen to the other seats (and to the kitty when the seat does not know it) at
random, consistent with that view:

* each seat gets its public number of cards, the kitty 8 until buried;
* the 比牌 the auction winner took (S13) stay with him unless played;
* the 還牌 cards this seat gave (or, as the winner, all it gave) stay with
  their receivers unless played (S14);
* a leader whose throw failed (S11/S12) still holds the cards it returned;
* a seat that showed void in a suit of play (failed to follow) holds none of it;
* on the first hand the shown card stays with the opener until played.

Each candidate is then played out with the ``heuristic`` policy at every seat
and scored by the seat's real result: levels gained by its team minus levels
gained by the other team (S17), plus :data:`POINT_WEIGHT` per game point of
its own (S17 table and the ♠A penalty of S18).  Candidates: auction pass and
the cheapest bids; the four trump suits; the engine's 還牌 and bury choices
plus the heuristic's; for play, the heuristic's lead or follow and a spread of
the engine's representative legal plays.
"""

from __future__ import annotations

import random
import time
from collections import Counter

from ..base import Action
from ..cards import shuffle
from ..flow import transport
from ..search import SearchConfig, SearchStats, check_time, flat_monte_carlo
from . import bots, fast
from . import state as state_mod
from .deal import FULL_COUNTS, Deal
from .match import Match, team_of
from .state import HandState
from .view import SeatView, seat_view

#: Weight of one game point of the seat against one level of difference.
POINT_WEIGHT = 0.1
#: Largest number of actions compared in one decision.
MAX_CANDIDATES = 4


def _minus(counter: Counter, cards) -> None:
    for c in cards:
        counter[c] -= 1


def _constraints(v: SeatView) -> tuple[list[Counter], list[frozenset]]:
    """Per seat: cards it must hold (Counter) and suits of play it is void in."""
    me = v.seat
    must = [Counter() for _ in range(4)]
    played_by = [Counter() for _ in range(4)]
    for t in v.tricks:
        for s, cards in t.plays:
            played_by[s].update(cards)
    for s, cards in v.plays:
        played_by[s].update(cards)
    w = v.auction_winner
    if w is not None and w != me and v.phase != "auction":
        for s, pile in enumerate(v.piles):
            if s != w:
                must[w].update(pile)  # the shown cards he took (S13)
        # his own pile went back to his hand
        must[w].update(v.piles[w])
        if v.given and me != w:
            for s, cards in v.given:
                _minus(must[w], cards)
    for s, cards in v.given:
        if s != me:
            must[s].update(cards)
    for t in v.tricks:
        if t.failed_throw and t.attempted and t.leader != me:
            held = Counter(t.attempted)
            _minus(held, t.plays[0][1])
            must[t.leader] |= +held
    if v.failed_attempt and v.plays and v.plays[0][0] != me:
        held = Counter(v.failed_attempt)
        _minus(held, v.plays[0][1])
        must[v.plays[0][0]] |= +held
    if v.shown_card is not None and v.opener != me and v.phase == "auction":
        must[v.opener][v.shown_card] += 1
    for s in range(4):
        if s == me:
            continue
        for c, n in played_by[s].items():
            if must[s][c]:
                must[s][c] = max(0, must[s][c] - n)
        must[s] = +must[s]
    voids = [frozenset(x) for x in v.voids] if v.voids else [frozenset()] * 4
    return must, voids


def sample_hands(v: SeatView, rng: random.Random, tries: int = 5):
    """``(hands, kitty)`` consistent with the view ``v``: ``hands`` a list of
    four card tuples (the seat's own as it holds it), ``kitty`` a tuple (empty
    when the seat knows the kitty or it is buried).  Every other seat gets its
    public count, holds the cards it must (:func:`_constraints`: S13 比牌,
    S14 還牌, S11/S12 failed throws, the shown card) and none of a suit of play
    it showed void in.  Up to ``tries`` randomized greedy deals first; if they
    all fail, :func:`~games.engine.flow.transport` solves the suit × seat
    amounts exactly, so a consistent world is found whenever one exists.  None
    only when none exists (counts that do not add up, constraints that
    contradict each other)."""
    me = v.seat
    unseen = Counter(FULL_COUNTS)
    _minus(unseen, v.hand)
    for c, n in v.played.items():
        unseen[c] -= n
    for _s, cards in v.plays:
        _minus(unseen, cards)
    if v.phase == "auction":  # shown cards lie face up; afterwards the winner holds them
        for pile in v.piles:
            _minus(unseen, pile)
    kitty_known = v.kitty is not None
    if kitty_known and v.phase == "play":
        _minus(unseen, v.kitty)
    if any(n < 0 for n in unseen.values()):
        return None
    unseen = +unseen
    room = {s: v.counts[s] for s in range(4) if s != me}
    kitty_room = 0
    if v.phase in ("auction", "trump", "give"):
        kitty_room = 8
    elif v.phase == "play" and not kitty_known:
        kitty_room = 8
    if sum(unseen.values()) != sum(room.values()) + kitty_room:
        return None
    must, voids = _constraints(v)
    info = v.ctx._t.info if v.ctx is not None else None
    # the cards each seat must hold: placed first, the same in every attempt
    pool0 = Counter(unseen)
    hands0 = {s: [] for s in room}
    left0 = dict(room)
    for s in room:
        for c, n in must[s].items():
            take = min(n, pool0[c], left0[s])
            if take > 0:
                hands0[s] += [c] * take
                pool0[c] -= take
                left0[s] -= take
    pool0 = +pool0

    def suit(c):
        return info[c][0] if info is not None else None

    def done(hands, kitty):
        out = [None] * 4
        out[me] = tuple(v.hand)
        for s in room:
            out[s] = tuple(hands[s])
        return out, tuple(kitty)

    for _attempt in range(tries):
        hands = {s: list(h) for s, h in hands0.items()}
        left = dict(left0)
        ok = True
        cards = list(pool0.elements())
        shuffle(cards, rng)
        if info is not None:
            # the most constrained suits first
            cards.sort(key=lambda c: sum(1 for s in room if suit(c) in voids[s]), reverse=True)
        kitty: list = []
        for c in cards:
            su = suit(c)
            seats = [s for s in room if left[s] and su not in voids[s]]
            total = sum(left[s] for s in seats) + (kitty_room - len(kitty))
            if total <= 0:
                ok = False
                break
            x = rng.randrange(total)
            dest = None
            for s in seats:
                x -= left[s]
                if x < 0:
                    dest = s
                    break
            if dest is None:
                kitty.append(c)
            else:
                hands[dest].append(c)
                left[dest] -= 1
        if ok and not any(left.values()) and len(kitty) == kitty_room:
            return done(hands, kitty)
    # the greedy failed: solve the suit-of-play × seat amounts exactly
    by_suit: dict = {}
    for c in pool0.elements():
        by_suit.setdefault(suit(c), []).append(c)
    sinks = dict(left0)
    sinks["kitty"] = kitty_room
    allowed = {su: [s for s in room if su not in voids[s]] + ["kitty"] for su in by_suit}
    amounts = transport({su: len(cs) for su, cs in by_suit.items()}, allowed, sinks, rng)
    if amounts is None:
        return None
    hands = {s: list(h) for s, h in hands0.items()}
    kitty = []
    for su, cs in by_suit.items():
        shuffle(cs, rng)
        for dest in list(room) + ["kitty"]:
            n = amounts.get((su, dest), 0)
            if n:
                (kitty if dest == "kitty" else hands[dest]).extend(cs[:n])
                del cs[:n]
    return done(hands, kitty)


def sample_world(v: SeatView, match: Match, rng: random.Random) -> HandState | None:
    """A full :class:`HandState` consistent with the view ``v``.  ``match`` is
    public (levels, dealer of record, options)."""
    got = sample_hands(v, rng)
    if got is None:
        return None
    hands, kitty = got
    if v.kitty is not None and v.phase == "play":
        kitty = v.kitty
    elif v.phase == "bury":
        kitty = v.kitty if v.kitty is not None else kitty  # already in the dealer's hand
    deal = Deal(tuple(hands), tuple(kitty), v.opener, v.shown_card)
    return HandState(
        match=match, deal=deal, level=v.level, phase=v.phase, to_act=v.to_act,
        hands=tuple(hands), dealer=v.dealer, piles=v.piles, passed=v.passed,
        highest=v.highest, auction_winner=v.auction_winner, taken=v.owed, trump=v.trump,
        ctx=v.ctx, given=v.given, kitty=tuple(kitty), buried=v.phase == "play",
        leader=v.leader, plays=v.plays, lead_attempt=v.failed_attempt, tricks=v.tricks,
        played=v.played, voids=v.voids,
    )


def public_match(state: HandState) -> Match:
    """The match object, which is public (levels, dealer, options)."""
    return state.match


def _advance(rules, st: HandState, rng: random.Random,
             deadline: float | None = None) -> HandState:
    """Step ``st`` with the heuristic at every seat until the hand is done or
    :mod:`.fast` can take over (:func:`.fast.unit_lead`: the play phase at a
    trick boundary or after a unit led)."""
    apply = state_mod.apply
    decide = bots.decide
    legal = rules.legal_actions
    unit_lead = fast.unit_lead
    while st.phase != "done" and not unit_lead(st):
        check_time(deadline)
        s = st.to_act
        action = decide("heuristic", seat_view(st, s), lambda st=st, s=s: legal(st, s), rng)
        st = apply(st, action)
    return st


def fast_result(rules, st: HandState, rng: random.Random, deadline: float | None = None):
    """``(HandResult, dealer)`` of ``st`` played to the end: the engine's
    heuristic until :func:`.fast.unit_lead` holds, then :func:`.fast.playout`
    (the dealer too, since an auction still running decides it)."""
    st = _advance(rules, st, rng, deadline)
    if st.phase == "done":
        return st.result, st.dealer
    check_time(deadline)
    return fast.playout(st, rng), st.dealer


def fast_value(rules, st: HandState, seat: int, rng: random.Random,
               deadline: float | None = None) -> float:
    """:func:`value` of ``st`` played to the end (:func:`fast_result`)."""
    return value(fast_result(rules, st, rng, deadline)[0], seat)


def value(result, seat: int) -> float:
    """Levels gained by the seat's team minus the other team's (S17), plus
    :data:`POINT_WEIGHT` per game point of the seat (S17, S18); ``result`` is a
    :class:`~.scoring.HandResult` (or a finished :class:`HandState`)."""
    r = result.result if isinstance(result, HandState) else result
    team = team_of(seat)
    gained = r.levels_gained
    return float(gained[team] - gained[1 - team]) + POINT_WEIGHT * r.game_points[seat]


def candidates(rules, state: HandState, seat: int, v: SeatView, rng: random.Random):
    """``(actions, default index)``: the heuristic's action first considered."""
    legal = rules.legal_actions(state, seat)
    default = bots.decide("heuristic", v, lambda: legal, rng)
    phase = v.phase
    if phase == "auction":
        pool = legal[:MAX_CANDIDATES - 1]
    elif phase in ("trump", "give", "bury"):
        pool = legal
    else:
        if len(legal) <= MAX_CANDIDATES - 1:
            pool = legal
        else:
            step = len(legal) / (MAX_CANDIDATES - 1)
            pool = [legal[int(i * step)] for i in range(MAX_CANDIDATES - 1)]
    out = list(dict.fromkeys(pool))
    if default not in out:
        out.append(default)
    return out, out.index(default)


def search_action(rules, state: HandState, seat: int, rng: random.Random,
                  config: SearchConfig | None = None,
                  stats: SearchStats | None = None) -> Action:
    """The search bot's action for ``seat`` (``rules``: the game's
    :class:`~.rules.ShengjiRules`).  The state is read only through
    :func:`~.view.seat_view` and the legal actions of the seat."""
    started = time.perf_counter()
    config = config or SearchConfig()
    v = seat_view(state, seat)
    match = public_match(state)
    cands, default = candidates(rules, state, seat, v, rng)
    if len(cands) == 1:
        return cands[0]

    def sample(r):
        return sample_world(v, match, r)

    def evaluate(world, action, r, deadline):
        return fast_value(rules, state_mod.apply(world, action), seat, r, deadline)

    return flat_monte_carlo(cands, default, sample, evaluate, rng, config, stats=stats,
                            started=started)
