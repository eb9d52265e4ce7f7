"""The play phase of a hand with the heuristic bot at every seat, fast.

:func:`heuristic_playout` plays a :class:`~.state.HandState` in the play phase
to the end exactly as stepping would (``RULES.bot_action(state, seat,
"heuristic")`` then ``RULES.apply`` until the hand is complete), but on
mutable lists and ints: the per-seat card counts, the cards on top, the 讓
and 過 masks of the round (B5), the finishing order (B11).  Each decision is
made by the heuristic bot's own functions (:func:`.bots._lead`,
:func:`.bots._follow`) on one :class:`~.view.Knowledge` per seat, updated as
the table changes (its own cards and size, the set on top, 讓 still allowed,
the guard and a solo once ``4H*`` reveals them, B9/B10), instead of a new
Knowledge and a new immutable state per action.  The turn order is
:func:`.play.next_in_round` and :func:`.play.round_leader`.

The final state is built once: the same actions (cards chosen as
:func:`.order.shape_to_cards` chooses them, C6) and the same end state as
stepping; ``tests/engine/test_baohuang_playout.py`` compares the two.  The
heuristic's plays are legal by construction (B3–B6), so they are not checked
again here.
"""

from __future__ import annotations

from ..base import Action
from .bots import PARAMS, _follow, _lead
from .order import H4, KIND_OF, shape_to_cards
from .play import next_in_round, round_leader
from .state import HandState, _copy
from .view import Knowledge

#: The ``pass``/``yield`` actions of each seat (actions are immutable).
_PASS = tuple(Action(seat, "pass", True) for seat in range(5))
_YIELD = tuple(Action(seat, "yield", True) for seat in range(5))
#: Their trick-log entries (``(seat, verb, cards)``, as :mod:`.play` logs them).
_PASS_LOG = tuple((seat, "pass", ()) for seat in range(5))
_YIELD_LOG = tuple((seat, "yield", ()) for seat in range(5))


def heuristic_playout(st: HandState, observe=None) -> HandState:
    """The completed hand after playing ``st`` (phase ``"play"``) to the end
    with the heuristic policy at every seat.

    Returns a new :class:`~.state.HandState` (phase ``"done"``) equal to the
    one stepping through :meth:`.rules.BaohuangRules.apply` gives, with the
    same action log; ``st`` is not changed.  ``observe(kn, verb, arg)``, if
    given, is called at every decision with the deciding seat's Knowledge
    (``kn.sizes`` is a list here) and the heuristic's answer (tests).
    Raises ``ValueError`` if ``st`` is not in the play phase.
    """
    if st.phase != "play":
        raise ValueError(f"a play-out starts in the play phase, not {st.phase!r}")
    hands = [list(h) for h in st.hands]
    rcs = list(st.rcs)
    sizes = list(st.sizes)
    finished = list(st.finished)
    emperor, guard, solo, declared = st.emperor, st.guard, st.solo, st.guard_declared
    h4_played = st.h4_played
    top = st.top  # (seat, cards, shape) or None
    yielded, passed = st.yielded, st.passed
    trick = list(st.trick_log)
    last_round = st.last_round
    leader = st.leader
    params = PARAMS
    kns = []
    for seat in range(5):
        kn = object.__new__(Knowledge)
        kn.seat = seat
        kn.phase = "play"
        kn.rc = rcs[seat]
        kn.size = sizes[seat]
        kn.sizes = sizes
        kn.emperor = emperor
        kn.i_am_guard = guard is not None and guard == seat
        if seat == st.crown_holder:
            kn.pile_twos = sum(1 for c in st.crown_pile if c.rank == "2")
            kn.pile_size = len(st.crown_pile)
        else:
            kn.pile_twos = kn.pile_size = 0
        kns.append(kn)
    _reveal(kns, guard, solo, declared, emperor, h4_played)
    shape_top = None if top is None else (top[0], top[2])
    actions = []
    s = st.to_act
    while True:
        kn = kns[s]
        kn.top = shape_top
        if shape_top is None:
            kn.can_yield = False
            verb, arg = "play", _lead(kn, params)
        else:
            kn.can_yield = not yielded >> s & 1
            verb, arg = _follow(kn, params)
        if observe is not None:
            observe(kn, verb, arg)
        if verb == "play":
            hand = hands[s]
            cards = shape_to_cards(hand, arg)
            for c in cards:
                hand[KIND_OF[c]] -= 1
            rc = list(rcs[s])
            for r in arg:
                rc[r] -= 1
            kn.rc = rcs[s] = tuple(rc)
            kn.size = size = sizes[s] = sizes[s] - len(arg)
            actions.append(Action(s, "play", cards))
            trick.append((s, "play", cards))
            top = (s, cards, arg)
            shape_top = (s, arg)
            if not h4_played and H4 in arg:
                h4_played = True
                _reveal(kns, guard, solo, declared, emperor, True)
            if not size:
                finished.append(s)
                if len(finished) == 4:
                    finished.append(next(p for p in range(5) if p not in finished))
                    s = None
                    break
        elif verb == "pass":
            passed |= 1 << s
            actions.append(_PASS[s])
            trick.append(_PASS_LOG[s])
        else:
            yielded |= 1 << s
            actions.append(_YIELD[s])
            trick.append(_YIELD_LOG[s])
        top_seat = top[0]
        nxt = next_in_round(s, top_seat, sizes, passed)
        if nxt is None:
            nxt = leader = round_leader(top_seat, sizes)
            top = shape_top = None
            yielded = passed = 0
            last_round = tuple(trick)
            trick = []
        s = nxt
    new = _copy(st)
    new.hands = tuple(tuple(h) for h in hands)
    new.rcs = tuple(rcs)
    new.sizes = tuple(sizes)
    new.phase = "done"
    new.to_act = None
    new.h4_played = h4_played
    new.leader = leader
    new.top = top
    new.yielded = yielded
    new.passed = passed
    new.trick_log = tuple(trick)
    new.last_round = last_round
    new.finished = tuple(finished)
    new._log = st.log + tuple(actions)
    return new


def _reveal(kns, guard, solo, declared, emperor, h4_played) -> None:
    """Set each seat's view of the guard and of a solo (B10, B9): the guard is
    known to himself, to all after 明保 or once ``4H*`` is played; a secret
    solo to the emperor, to all once ``4H*`` is played (as
    :func:`.view.guard_visible` and :func:`.view.solo_visible` in play)."""
    for kn in kns:
        seat = kn.seat
        kn.guard = guard if guard is not None and (
            h4_played or declared == "open" or seat == guard) else None
        kn.solo = solo if solo is not None and (
            solo == "open" or h4_played or seat == emperor) else None
