"""The ``search`` bot of 保皇: determinized Monte Carlo over the seat's
information set.

:func:`infoset` copies out of a state exactly what one seat may know (its own
cards; everything public: hand sizes, the plays so far seat by seat, the crown
offers and passes, the number of 2s added to the crown pile (also after the
crown, when the emperor has taken it: B8), the emperor, 買3 buyers and
sellers, tribute payers and receivers, the round on the table, places; and
what only this seat saw: the crown pile when it holds it, the card it paid
or received in 買3 and tribute, the 3 it bought or sold, its own guard or solo
role).  Nothing else of the state is read: the search works on
:class:`InfoSet` alone, so two states that differ only in cards this seat
cannot see give the same decision (tested).

:func:`sample_world` deals the unseen cards to the other seats at random,
consistent with that knowledge:

* each seat gets its public number of cards;
* each seat with cards holds exactly one 3 (B6, after 買3);
* the emperor holds ``BJ*`` and the crown pile's 2s unless he has played them
  or may have paid them as tribute (B8, B13; the number of 2s is public);
* the guard holds ``4H*`` when known (明保, or I am the guard), the emperor when
  a solo is known; otherwise ``4H*`` lies anywhere unseen (a secret solo if it
  lands with the emperor);
* a crown passer after the first who added no 2 held none (B8), and holds
  none later unless tribute may have brought him one;
* a tribute payer this seat received from holds nothing above the lowest card
  he paid but ``BJ*``/``4H*`` (B13: a payer gives his highest cards); a
  receiver of this seat's tribute still holds it unless he played that card;
* 買3 (B7), for the buyer and the seller only (the others see who bought from
  whom, which tells nothing B6 does not: the buyer had no 3 and the seller
  more than one, and now each holds one): the card this seat paid stays with
  its seller unless he played a card of that kind, paid tribute this seat did
  not see, or (a 2) may have added it to the crown pile as a later passer
  (:func:`_buy3_outflow`); the 3 this seat sold stays with its buyer until he
  plays it as his last card (a 3 is never tribute: a payer gives his highest
  cards); and a buyer who paid this seat lacked, at 買3, every payment card
  the rule puts before the one he paid (♠2 ♥2 ♦2 ♣2, SJ, plain BJ; all of
  them when he bought free), so he holds none of those kinds unless he may
  have received one since (crown pile 2s as emperor, tribute this seat did
  not see).

Once play has begun, :func:`infer_world` keeps the likelier of a few such
draws (:mod:`.inference`): a world in which the heuristic, seated in each
other seat, would have played as they did is preferred, so the search's
worlds lean towards the hands the plays reveal (a secret guard who lets his
emperor win is found in about half of the worlds instead of a quarter).

Each candidate action is then played out with the ``heuristic`` policy at
every seat and scored by the seat's game points (B12: places and doubling)
plus the tribute the result brings in the next hand (B13, one card valued at
:data:`TRIBUTE_CARD`).  Candidates (at most :data:`MAX_CANDIDATES`): crown accept/pass; solo/guard
open/secret; when leading, the three lowest rank groups whole, the jokers
alone, the highest group, and near the end each group with all its jokers;
when following, 過, 讓, the cheapest set that beats the top for the three
lowest body ranks that can, and the jokers-only beat; always the heuristic's
own choice.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..base import Action
from ..flow import transport
from ..search import SearchConfig, SearchStats, check_time, flat_monte_carlo
from . import bots
from .crown import apply_crown, apply_declaration
from .order import (BJ, H4, KIND_BJ_MARKED, KIND_H4_MARKED, KIND_OF, KIND_RANK,
                    NKINDS, RANK_KINDS, SJ, THREE, TWO, rank_counts, shape_to_cards)
from .play import apply_pass, apply_play, apply_yield, next_in_round, round_leader
from .scoring import score
from .sets import beating_shapes
from .state import HandState, Match, Previous, new_state
from .tribute import owed_shares
from .inference import pick, public_plays
from .view import guard_visible, knowledge, solo_visible
from .deal import deck
from .buy3 import PAYMENT_KINDS
from ..cards import BJ_MARKED, Card, shuffle

#: Largest number of actions compared in one decision (the heuristic's own
#: choice always among them): fewer candidates, more worlds each.
MAX_CANDIDATES = 6

#: Game points one tribute card is worth to its receiver (and costs its payer)
#: in the next hand: a strong card moves from one side to the other.
TRIBUTE_CARD = 0.5

_FULL_COUNTS: tuple[int, ...] | None = None


def _full_counts() -> tuple[int, ...]:
    global _FULL_COUNTS
    if _FULL_COUNTS is None:

        counts = [0] * NKINDS
        for c in deck():
            counts[KIND_OF[c]] += 1
        _FULL_COUNTS = tuple(counts)
    return _FULL_COUNTS


@dataclass(frozen=True)
class InfoSet:
    """Everything one seat knows.  ``hand``: its 56 counts; ``played``: per seat,
    56 counts of the cards that seat has played; the other fields mirror
    :class:`~.state.HandState` with hidden parts removed (``guard``/``solo``/
    ``guard_declared`` as this seat sees them; ``bought`` as (buyer, seller, paid
    or None, the 3 or None), paid and 3 known only to buyer and seller (B7); ``tribute`` as (from, to, card or None); ``pile``: the crown pile's
    cards when this seat holds it, else None; ``pile_twos`` the number of 2s in
    it during the crown, and after it the number the emperor took: public, B8);
    ``plays``: the play phase's public plays, 讓 and 過 in order
    (:func:`.inference.public_plays`), empty before the play phase)."""

    seat: int
    phase: str
    match: Match
    hand: tuple[int, ...]
    sizes: tuple[int, ...]
    played: tuple[tuple[int, ...], ...]
    emperor: int | None
    guard: int | None
    solo: str | None
    guard_declared: str | None
    h4_played: bool
    bought: tuple
    tribute: tuple
    crown_first: int | None
    crown_holder: int | None
    crown_passed: tuple[int, ...]
    crown_second: bool
    pile: tuple | None
    pile_twos: int
    leader: int | None
    top: tuple | None
    yielded: int
    passed: int
    trick_log: tuple
    last_round: tuple
    finished: tuple[int, ...]
    plays: tuple = ()


def infoset(st: HandState, seat: int) -> InfoSet:
    """What ``seat`` knows of ``st`` (see the module docstring for the list)."""
    played = [[0] * NKINDS for _ in range(5)]
    for a in st.log:
        if a.verb == "play":
            row = played[a.seat]
            for c in a.arg:
                row[KIND_OF[c]] += 1
    gv = guard_visible(st, seat)
    declared = st.guard_declared
    if declared == "secret" and seat != st.guard:
        declared = None
    return InfoSet(
        seat=seat, phase=st.phase, match=st.match, hand=st.hands[seat], sizes=st.sizes,
        played=tuple(tuple(r) for r in played), emperor=st.emperor,
        guard=st.guard if gv else None, solo=solo_visible(st, seat), guard_declared=declared,
        h4_played=st.h4_played,
        bought=tuple((b, s, p, t) if seat in (b, s) else (b, s, None, None)
                     for b, s, p, t in st.bought),
        tribute=tuple((f, t, c if seat in (f, t) else None) for f, t, c in st.tribute),
        crown_first=st.crown_first, crown_holder=st.crown_holder,
        crown_passed=st.crown_passed, crown_second=st.crown_second,
        pile=st.crown_pile if seat == st.crown_holder else None,
        pile_twos=sum(1 for c in st.crown_pile if c.rank == "2") + st.crown_twos,
        leader=st.leader, top=st.top, yielded=st.yielded, passed=st.passed,
        trick_log=st.trick_log, last_round=st.last_round, finished=st.finished,
        plays=public_plays(st.log) if st.phase == "play" else (),
    )


# ---------------------------------------------------------------- sampling


def _buy3_outflow(info: InfoSet, seat: int, kind: int) -> int:
    """At most how many cards of ``kind`` ``seat`` may have given away since
    買3 without this seat (``info.seat``) seeing which: a crown pass after the
    first adds one 2 if he has one (B8; none did when the pile carried no 2,
    during the crown and after it), and each tribute card he paid
    that this seat did not see may be any card (B13); a tribute card this
    seat saw counts when it is of ``kind``."""
    n = 0
    if KIND_RANK[kind] == TWO and info.pile_twos:
        n += sum(1 for s in info.crown_passed[1:] if s == seat)
    for frm, _to, card in info.tribute:
        if frm == seat and (card is None or KIND_OF[card] == kind):
            n += 1
    return n


def _constraints(info: InfoSet):
    """Per seat: exact kinds it must hold (kind -> count; a 3 kind there is the
    seat's one 3), ranks it must hold (rank -> count), forbidden rank values,
    the cap (highest plain rank value allowed) and forbidden kinds (B7)."""
    must_kind = [dict() for _ in range(5)]
    must_rank = [dict() for _ in range(5)]
    forbid = [set() for _ in range(5)]
    forbid_kind = [set() for _ in range(5)]
    cap = [None] * 5
    me = info.seat
    played_total = [sum(info.played[s][k] for s in range(5)) for k in range(NKINDS)]
    emp = info.emperor
    if emp is not None and emp != me:
        if not info.played[emp][KIND_BJ_MARKED] and not played_total[KIND_BJ_MARKED]:
            must_kind[emp][KIND_BJ_MARKED] = 1
        # B8: he took the pile with its 2s; B13: a tribute card he paid may
        # have been one (any card this seat did not see)
        twos_out = sum(info.played[emp][k] for k in RANK_KINDS[TWO])
        twos_out += sum(1 for frm, _to, card in info.tribute
                        if frm == emp and (card is None or card.rank == "2"))
        if info.pile_twos - twos_out > 0:
            must_rank[emp][TWO] = info.pile_twos - twos_out
    if not played_total[KIND_H4_MARKED]:
        holder = None
        if info.guard is not None:
            holder = info.guard
        elif info.solo is not None:
            holder = emp
        if holder is not None and holder != me:
            must_kind[holder][KIND_H4_MARKED] = 1
    # B8: passers after the first add a 2 if they hold one; a pile without 2s
    # after two or more passes means none of them held a 2, nor holds one
    # later unless tribute may have brought him one (B13: a card this seat did
    # not see, or a 2 it saw); the emperor took the pile
    if len(info.crown_passed) > 1 and info.pile_twos == 0:
        for s in info.crown_passed[1:]:
            if s == me or s == emp:
                continue
            if any(to == s and (card is None or card.rank == "2") for _f, to, card in info.tribute):
                continue
            forbid[s].add(TWO)
    # tribute (B13): what I received caps the payer; what I paid stays with the
    # receiver (a receiver pays none) unless he played it.  買3 (B7): what I
    # paid stays with my seller unless it may have left him since
    low_paid: dict[int, int] = {}
    gave_tribute = [dict() for _ in range(5)]
    gave_buy3 = [dict() for _ in range(5)]
    for frm, to, card in info.tribute:
        if card is None:
            continue
        k = KIND_OF[card]
        if to == me and frm != me:
            r = KIND_RANK[k]
            low_paid[frm] = min(low_paid.get(frm, 99), r)
        elif frm == me and to != me:
            gave_tribute[to][k] = gave_tribute[to].get(k, 0) + 1
    for buyer, seller, paid, three in info.bought:
        if buyer == me and seller != me and paid is not None:
            k = KIND_OF[paid]
            gave_buy3[seller][k] = gave_buy3[seller].get(k, 0) + 1
        elif seller == me and buyer != me and three is not None:
            if info.sizes[buyer]:
                # the 3 I sold: his one 3 until he plays it as his last card (B6)
                must_kind[buyer][KIND_OF[three]] = 1
            # what the buyer paid me tells what he lacked at 買3: every payment
            # card the rule puts before it (all of them when he paid nothing)
            before = PAYMENT_KINDS if paid is None else PAYMENT_KINDS[:PAYMENT_KINDS.index(KIND_OF[paid])]
            unseen_in = any(to == buyer and card is None for _f, to, card in info.tribute)
            if not unseen_in:
                for k in before:
                    if KIND_RANK[k] == TWO and buyer == emp:
                        continue  # the crown pile's 2s went to him
                    if any(to == buyer and KIND_OF[card] == k for _f, to, card in info.tribute):
                        continue
                    forbid_kind[buyer].add(k)
    for s in range(5):
        if s == me:
            continue
        for k in set(gave_tribute[s]) | set(gave_buy3[s]):
            kept = max(0, gave_buy3[s].get(k, 0) - _buy3_outflow(info, s, k))
            n = kept + gave_tribute[s].get(k, 0) - info.played[s][k]
            if n > 0:
                must_kind[s][k] = must_kind[s].get(k, 0) + n
    for s, r in low_paid.items():
        cap[s] = r
    return must_kind, must_rank, forbid, cap, forbid_kind


def _allowed(kind: int, s: int, forbid, cap, forbid_kind=None) -> bool:
    r = KIND_RANK[kind]
    if r in forbid[s]:
        return False
    if forbid_kind is not None and kind in forbid_kind[s]:
        return False
    c = cap[s]
    if c is not None and r > c and kind not in (KIND_BJ_MARKED, KIND_H4_MARKED) and r != THREE:
        return False
    return True


def sample_hands(info: InfoSet, rng: random.Random, tries: int = 5) -> list[list[int]] | None:
    """56-count hands of all five seats, the seat's own as known and the others
    drawn at random consistent with ``info`` (``hands[s][kind]``: counts per
    card kind).  Every constraint of :func:`_constraints` holds in every world:
    one 3 each (B6), the cards a seat must hold, no 2 for a later crown passer
    who added none (B8), nothing above his lowest tribute card for a payer
    (B13).  Up to ``tries`` randomized greedy deals first; if they all fail,
    :func:`~games.engine.flow.transport` solves the kind × seat amounts exactly
    (the hidden crown pile taking any card), so a consistent world is found
    whenever one exists.  None when none exists: counts that do not add up (a
    hand built by hand in a test, not from a deal) or contradicting constraints."""
    me = info.seat
    full = _full_counts()
    unseen = list(full)
    for k in range(NKINDS):
        unseen[k] -= info.hand[k]
        for s in range(5):
            unseen[k] -= info.played[s][k]
    if info.pile is not None:
        for c in info.pile:
            unseen[KIND_OF[c]] -= 1
    elif info.phase == "crown" and info.pile_twos + (1 if info.crown_passed else 0):
        # pile in transit that I cannot see: BJ* and some 2s belong to nobody
        unseen[KIND_BJ_MARKED] -= 1
    others = [s for s in range(5) if s != me and info.sizes[s]]
    need = {s: info.sizes[s] for s in others}
    if any(v < 0 for v in unseen):
        return None
    pool_size = sum(unseen)
    pile_hidden = (info.phase == "crown" and info.pile is None and info.crown_passed)
    extra = pool_size - sum(need.values())
    if extra < 0 or (extra > 0 and not pile_hidden):
        return None
    must_kind, must_rank, forbid, cap, forbid_kind = _constraints(info)

    def prepare():
        """The hands with one 3 each (B6) and the cards each seat must hold;
        ``(hands, pool, room)``, or None when the 3s run short."""
        hands = [[0] * NKINDS for _ in range(5)]
        hands[me] = list(info.hand)
        pool = list(unseen)
        room = dict(need)
        # exactly one 3 for every seat with cards; a known one first (B7)
        free = others
        if any(k in must_kind[s] for s in others for k in RANK_KINDS[THREE]):
            free = []
            for s in others:
                k = next((k for k in RANK_KINDS[THREE] if k in must_kind[s]), None)
                if k is None:
                    free.append(s)
                    continue
                if not pool[k]:
                    return None
                hands[s][k] += 1
                pool[k] -= 1
                room[s] -= 1
        threes = [k for k in RANK_KINDS[THREE] for _ in range(pool[k])]
        shuffle(threes, rng)
        for s in free:
            if not threes:
                return None
            k = threes.pop()
            hands[s][k] += 1
            pool[k] -= 1
            room[s] -= 1
        for k in RANK_KINDS[THREE]:
            pool[k] = 0  # spare 3s (extra > 0 only during a hidden crown pile) unused
        for s in others:
            for k, n in must_kind[s].items():
                take = min(n, pool[k], room[s])
                hands[s][k] += take
                pool[k] -= take
                room[s] -= take
            for r, n in must_rank[s].items():
                ks = [k for k in RANK_KINDS[r] for _ in range(pool[k])]
                shuffle(ks, rng)
                for k in ks[:min(n, room[s])]:
                    hands[s][k] += 1
                    pool[k] -= 1
                    room[s] -= 1
        return hands, pool, room

    for _ in range(tries):
        got = prepare()
        if got is None:
            return None
        hands, pool, room = got
        ok = True
        cards = [k for k in range(NKINDS) for _ in range(pool[k])]
        shuffle(cards, rng)
        # the most constrained (highest) cards first
        cards.sort(key=lambda k: KIND_RANK[k] if KIND_RANK[k] != H4 else -1, reverse=True)
        left_over = len(cards) - sum(room.values())
        for k in cards:
            seats = [s for s in others if room[s] and _allowed(k, s, forbid, cap, forbid_kind)]
            if not seats:
                if left_over > 0:
                    left_over -= 1  # a card of the hidden crown pile
                    continue
                ok = False
                break
            total = sum(room[s] for s in seats)
            x = rng.randrange(total)
            for s in seats:
                x -= room[s]
                if x < 0:
                    break
            hands[s][k] += 1
            room[s] -= 1
        if ok and not any(room.values()):
            return hands
    # the greedy failed: solve the kind × seat amounts exactly (B8, B13 kept);
    # the hidden crown pile takes any card
    got = prepare()
    if got is None:
        return None
    hands, pool, room = got
    sinks = dict(room)
    sinks["pile"] = sum(pool) - sum(room.values())
    if sinks["pile"] < 0:
        return None
    # one class per set of seats allowed: kinds alike for the constraints
    by_class: dict[tuple, list[int]] = {}
    for k in range(NKINDS):
        if pool[k] > 0:
            seats = tuple(s for s in others if _allowed(k, s, forbid, cap, forbid_kind)) + ("pile",)
            by_class.setdefault(seats, []).extend([k] * pool[k])
    amounts = transport({c: len(ks) for c, ks in by_class.items()},
                        {c: list(c) for c in by_class}, sinks, rng)
    if amounts is None:
        return None
    for c, ks in by_class.items():
        shuffle(ks, rng)
        for dest in c:
            n = amounts.get((c, dest), 0)
            if dest != "pile":
                for k in ks[:n]:
                    hands[dest][k] += 1
            del ks[:n]
    return hands


def sample_world(info: InfoSet, rng: random.Random) -> HandState | None:
    """A full :class:`HandState` consistent with ``info`` (see module doc)."""
    hands = sample_hands(info, rng)
    if hands is None:
        return None
    emp = info.emperor
    guard, solo, declared = info.guard, info.solo, info.guard_declared
    pile = info.pile
    if info.phase == "crown" and pile is None:
        pile = ()
        if info.crown_passed:

            pile = (BJ_MARKED,) + (Card.parse("2S"),) * info.pile_twos
    if info.phase not in ("crown",) and emp is not None:
        if not info.h4_played:
            holder = next((s for s in range(5) if hands[s][KIND_H4_MARKED]), None)
            if holder is not None:
                if holder == emp:
                    guard = None
                    solo = solo or ("secret" if info.phase != "declare" else None)
                    declared = None
                else:
                    guard = holder
                    solo = None
                    if info.phase != "declare":
                        declared = declared or "secret"
        elif guard is None and solo is None:
            solo = "secret"
    return new_state(
        match=info.match, deal=None, hands=tuple(tuple(h) for h in hands),
        rcs=tuple(rank_counts(h) for h in hands), sizes=info.sizes, phase=info.phase,
        to_act=info.seat, bought=info.bought,
        crown_first=info.crown_first, crown_holder=info.crown_holder,
        crown_passed=info.crown_passed, crown_pile=tuple(pile or ()),
        crown_second=info.crown_second,
        crown_twos=info.pile_twos if info.phase != "crown" else 0,
        emperor=emp, guard=guard, solo=solo, guard_declared=declared, h4_played=info.h4_played, tribute=(),
        leader=info.leader, top=info.top, yielded=info.yielded, passed=info.passed,
        trick_log=info.trick_log, last_round=info.last_round, finished=info.finished,
    )


def infer_world(info: InfoSet, rng: random.Random) -> HandState | None:
    """A world for the search: :func:`sample_world`, leaning towards the
    deals that explain the plays seen (:func:`.inference.pick` among a few
    draws; a single draw before the first play)."""
    if not info.plays:
        return sample_world(info, rng)
    return pick(lambda r: sample_world(info, r), info.seat, info.plays, rng)


# ---------------------------------------------------------------- rollouts


def step(st: HandState, seat: int, verb: str, arg) -> HandState:
    """Apply a bot decision (``arg`` a rank shape for plays) without logging it."""
    if verb == "play":
        return apply_play(st, seat, shape_to_cards(st.hands[seat], arg))
    if verb == "pass":
        return apply_pass(st, seat)
    if verb == "yield":
        return apply_yield(st, seat)
    if verb == "crown":
        return apply_crown(st, seat, arg)
    return apply_declaration(st, seat, verb, arg)


def rollout(st: HandState, rng: random.Random, limit: int = 2000) -> HandState:
    """Play ``st`` to the end with the heuristic at every seat, through the
    engine (used up to the first lead; :func:`fast_rollout` does the play)."""
    heuristic = bots.heuristic
    while st.phase not in ("done", "voided") and limit:
        s = st.to_act
        verb, arg = heuristic(knowledge(st, s), rng)
        st = step(st, s, verb, arg)
        limit -= 1
    return st


def fast_rollout(st: HandState, rng: random.Random, deadline: float | None = None) -> tuple | None:
    """The finishing order after playing ``st`` to the end with the heuristic
    at every seat, each seeing only what its view shows (the guard and a solo
    as :func:`~.view.guard_visible`/:func:`~.view.solo_visible` decide).

    The same rules as :mod:`.play` (B4–B6, B11) on mutable rank counts, about
    four times faster than stepping immutable states.  Before the play phase
    the engine plays the crown and declaration first.  Returns
    ``(finished, emperor, guard, solo, guard_declared)`` or None if voided.
    Raises :class:`~games.engine.search.OutOfTime` after ``deadline``.
    """
    if st.phase != "play":
        st = rollout_to_play(st, rng)
        if st.phase == "voided":
            return None
        if st.phase == "done":
            return (st.finished, st.emperor, st.guard, st.solo, st.guard_declared)
    rcs = [list(r) for r in st.rcs]
    sizes = list(st.sizes)
    finished = list(st.finished)
    emp, guard, solo, declared = st.emperor, st.guard, st.solo, st.guard_declared
    h4_played = st.h4_played
    top = (st.top[0], st.top[2]) if st.top is not None else None
    yielded, passed = st.yielded, st.passed
    s = st.to_act
    lead, follow = bots._lead, bots._follow
    params = bots.PARAMS
    kn = bots.PlayKnowledge()
    kn.phase = "play"
    kn.emperor = emp
    kn.sizes = sizes
    for step_no in range(3000):
        if not step_no & 31:
            check_time(deadline)
        kn.seat = s
        rc = rcs[s]
        kn.rc = rc
        kn.size = sizes[s]
        vis = h4_played or s == guard
        kn.guard = guard if (vis or declared == "open") else None
        kn.i_am_guard = s == guard and guard is not None
        kn.solo = solo if (solo == "open" or h4_played or s == emp) else None
        kn.top = top
        if top is None:
            verb, shape = "play", lead(kn, params)
        else:
            kn.can_yield = not yielded >> s & 1
            verb, shape = follow(kn, params)
        if verb == "play":
            for r in shape:
                rc[r] -= 1
            n = sizes[s] - len(shape)
            sizes[s] = n
            if H4 in shape:
                h4_played = True
            if n == 0:
                finished.append(s)
                if len(finished) == 4:
                    finished.append(next(p for p in range(5) if p not in finished))
                    return (tuple(finished), emp, guard, solo, declared)
            top = (s, shape)
        elif verb == "pass":
            passed |= 1 << s
        else:
            yielded |= 1 << s
        # the next seat to act, or the end of the round (B5)
        top_seat = top[0]
        nxt = next_in_round(s, top_seat, sizes, passed)
        if nxt is None:
            nxt = round_leader(top_seat, sizes)
            top = None
            yielded = passed = 0
        s = nxt
    raise RuntimeError("fast_rollout did not finish")


def rollout_to_play(st: HandState, rng: random.Random) -> HandState:
    """Step the crown and declaration phases with the heuristic."""
    heuristic = bots.heuristic
    while st.phase in ("crown", "declare"):
        s = st.to_act
        verb, arg = heuristic(knowledge(st, s), rng)
        st = step(st, s, verb, arg)
    return st


def value(st: HandState, seat: int) -> float:
    """The seat's result of a finished hand (see :func:`outcome_value`)."""
    if st.phase != "done":
        return 0.0
    return outcome_value((st.finished, st.emperor, st.guard, st.solo, st.guard_declared), seat)


def outcome_value(outcome: tuple | None, seat: int) -> float:
    """The seat's result of a finished hand: game points (B12) plus the tribute
    it will receive minus what it will pay next hand (B13), valued at
    :data:`TRIBUTE_CARD` per card.  A voided deal (None) is worth 0."""
    if outcome is None:
        return 0.0
    finished, emperor, guard, solo, declared = outcome
    r = score(finished, emperor, guard, solo, declared, 1)
    v = float(r["game_points"][seat])
    prev = Previous(emperor, guard, solo, declared, tuple(finished))
    for frm, to, n in owed_shares(prev):
        if to == seat:
            v += TRIBUTE_CARD * n
        elif frm == seat:
            v -= TRIBUTE_CARD * n
    return v


# ---------------------------------------------------------------- candidates


def candidates(info: InfoSet, kn, rng) -> tuple[list[tuple], int]:
    """The decisions to compare, as ``(verb, arg)`` with play args as rank
    shapes, and the index of the heuristic's own choice."""
    default = bots.heuristic(kn, rng)
    if info.phase == "crown":
        out = [("crown", "accept"), ("crown", "pass")]
    elif info.phase == "declare":
        verb = default[0]
        out = [(verb, "open"), (verb, "secret")]
    else:
        rc = kn.rc
        out = []
        if info.top is None:
            body = [r for r in range(1, SJ) if rc[r]]
            specials = (H4,) * rc[H4] + (BJ,) * rc[BJ] + (SJ,) * rc[SJ]
            if kn.size == rc[THREE]:
                out.append(("play", (THREE,)))
            # priority: the three lowest groups, the jokers alone, the highest
            # group, near the end the groups with every joker attached
            for r in body[:3]:
                out.append(("play", (r,) * rc[r]))
            if specials:
                out.append(("play", specials))
            if len(body) > 3:
                out.append(("play", (body[-1],) * rc[body[-1]]))
            if specials and len(body) <= 3:
                for r in body:
                    out.append(("play", specials + (r,) * rc[r]))
            if specials and rc[H4] + rc[BJ] and rc[SJ]:
                out.append(("play", (SJ,) * rc[SJ]))
        else:
            out.append(("pass", True))
            if kn.can_yield:
                out.append(("yield", True))
            best: dict = {}
            shapes = beating_shapes(rc, info.top[2])
            if not shapes:
                return [default], 0  # nothing beats the top now or later this round
            for sh in shapes:
                n_special = sum(1 for r in sh if r >= SJ)
                body_rank = sh[-1] if sh[-1] < SJ else None
                key = body_rank
                cost = (n_special, sum(sh[:n_special]))
                if key not in best or cost < best[key][0]:
                    best[key] = (cost, sh)
            ranked = sorted(best.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))
            plain = [sh for key, (_c, sh) in ranked if key is not None]
            jokers = [sh for key, (_c, sh) in ranked if key is None]
            for sh in plain[:3] + jokers:
                out.append(("play", sh))
    out = out[:MAX_CANDIDATES - 1]
    if default not in out:
        out.append(default)
    return out, out.index(default)


def decide(st: HandState, seat: int, rng: random.Random, config: SearchConfig | None = None,
           stats: SearchStats | None = None) -> tuple[str, object]:
    """The search bot's decision for ``seat`` as ``(verb, arg)`` (play args are
    rank shapes).  Reads ``st`` only through :func:`infoset` and
    :func:`~.view.knowledge` (the seat's own view)."""
    started = time.perf_counter()
    config = config or SearchConfig()
    info = infoset(st, seat)
    kn = knowledge(st, seat)
    cands, default = candidates(info, kn, rng)
    if len(cands) == 1:
        return cands[0]

    def sample(r):
        return infer_world(info, r)

    def evaluate(world, cand, r, deadline):
        verb, arg = cand
        nxt = step(world, seat, verb, arg)
        if nxt.phase == "done":
            return value(nxt, seat)
        if nxt.phase == "voided":
            return 0.0
        return outcome_value(fast_rollout(nxt, r, deadline), seat)

    return flat_monte_carlo(cands, default, sample, evaluate, rng, config, stats=stats,
                            started=started)


def search_action(st: HandState, seat: int, rng: random.Random,
                  config: SearchConfig | None = None, stats: SearchStats | None = None) -> Action:
    """:func:`decide` as an engine :class:`~games.engine.base.Action`."""
    verb, arg = decide(st, seat, rng, config, stats)
    if verb == "play":
        arg = shape_to_cards(st.hands[seat], arg)
    return Action(seat, verb, arg)
