"""Rounds of play (ruling B5), the 3 (B6) and places (B11).

Seat s is followed by s+1 (C2).  The emperor leads the first round.  A player
to act on a set either beats it (``play``, B4), or 讓 (``yield``: declines now,
may play later in this round; once per round), or 過 (``pass``: out of this
round).  The player whose set is on top is skipped, and so are players without
cards.  The round ends when every other player with cards has passed; the
player on top then leads any set, or, if he has no cards left, the next seat
after him with cards leads (接風).  The leader must play (no 讓/過 on a lead).

B11: a player who plays his last card finishes; when four have finished the
fifth (大落) is appended and the hand is over.
"""

from __future__ import annotations

from ..base import IllegalAction
from ..cards import Card, CardError
from .order import KIND_H4_MARKED, KIND_OF, KIND_RANK, KINDS, THREE
from .sets import beats, describe, shape_error, three_error
from .state import HandState, _copy


def parse_play_cards(arg) -> list[int]:
    """Kind indices of a play's cards; IllegalAction (C1) for unknown codes."""
    if isinstance(arg, str) or not hasattr(arg, "__iter__"):
        raise IllegalAction(f"a play is a list of cards, got {arg!r}", "C1")
    kinds = []
    for c in arg:
        if not isinstance(c, Card):
            try:
                c = Card.parse(c)
            except CardError as exc:
                raise IllegalAction(str(exc), "C1") from None
        kinds.append(KIND_OF[c])
    return kinds


def _check_turn(st: HandState, seat: int) -> None:
    if st.phase != "play":
        if st.phase in ("done", "voided"):
            raise IllegalAction("the hand is over", "B11")
        raise IllegalAction(f"play has not started yet (phase {st.phase})", "B5")
    if seat != st.to_act:
        raise IllegalAction(f"it is seat {st.to_act}'s turn, not seat {seat}'s (B5)", "B5")


#: :func:`_play_facts` results by play argument (a tuple of :class:`Card`;
#: cards are interned, so the key hashes by identity): ``(kinds, shape,
#: shape error, cards in kind order, holds 4H*)``.  Only tuples of cards are
#: memoized (an argument with codes is parsed every time); cleared when it
#: reaches ``_FACTS_LIMIT`` entries.  A pure function of the argument.
_FACTS: dict[tuple, tuple] = {}
_FACTS_LIMIT = 1 << 14


def _play_facts(arg) -> tuple:
    """What :func:`apply_play` needs of a play argument that does not depend on
    the state: ``(kinds, shape, B3 error or None, cards sorted by kind, 4H* in
    it)``.  IllegalAction (C1) for a non-list or an unknown code."""
    if type(arg) is tuple:
        got = _FACTS.get(arg)
        if got is not None:
            return got
    kinds = parse_play_cards(arg)
    shape = tuple(sorted((KIND_RANK[k] for k in kinds), reverse=True))
    got = (tuple(kinds), shape, shape_error(shape), tuple([KINDS[k] for k in sorted(kinds)]),
           KIND_H4_MARKED in kinds)
    if type(arg) is tuple and all(type(c) is Card for c in arg):
        if len(_FACTS) >= _FACTS_LIMIT:
            _FACTS.clear()
        _FACTS[arg] = got
    return got


def apply_play(st: HandState, seat: int, arg) -> HandState:
    """Play a set (lead or beat).  IllegalAction for unknown or unheld cards,
    a non-set (B3), an early 3 (B6) or a set that does not beat the top (B4)."""
    if st.phase != "play" or seat != st.to_act:
        _check_turn(st, seat)
    kinds, shape, err, cards, has_h4 = _play_facts(arg)
    hand = list(st.hands[seat])
    for k in kinds:
        if hand[k] <= 0:
            raise IllegalAction(f"you do not hold {_code(k)} (often enough)", "B5")
        hand[k] -= 1
    if err:
        raise IllegalAction(err, "B3")
    top = st.top
    if shape[-1] == THREE:  # sorted high to low: a 3 comes last
        err = three_error(shape, top is None, st.sizes[seat])
        if err:
            raise IllegalAction(err, "B6")
    if top is not None and not _beats(shape, top[2]):
        tshape = top[2]
        if len(shape) != len(tshape):
            msg = (f"to beat {describe(tshape)} you must play {len(tshape)} cards, "
                   f"each higher than the card in the same place (B4)")
        else:
            msg = (f"{describe(shape)} does not beat {describe(tshape)}: every card must be "
                   f"higher than the card in the same place, high to low (B4)")
        raise IllegalAction(msg, "B4")
    rc = list(st.rcs[seat])
    for r in shape:
        rc[r] -= 1
    sizes = list(st.sizes)
    size = sizes[seat] = sizes[seat] - len(kinds)
    new = _copy(st)
    # the three per-seat tuples with this seat's entry replaced
    hands = list(st.hands)
    hands[seat] = tuple(hand)
    new.hands = tuple(hands)
    rcs = list(st.rcs)
    rcs[seat] = tuple(rc)
    new.rcs = tuple(rcs)
    new.sizes = tuple(sizes)
    finished = st.finished + (seat,) if size == 0 else st.finished
    new.h4_played = st.h4_played or has_h4
    new.top = (seat, cards, shape)
    new.trick_log = st.trick_log + ((seat, "play", cards),)
    if len(finished) == 4:
        last = next(s for s in range(5) if s not in finished)
        new.finished = finished + (last,)
        new.phase = "done"
        new.to_act = None
        return new
    new.finished = finished
    return _advance(new, seat)


#: :func:`.sets.beats` results by ``(shape, top shape)`` (a pure function of
#: the two; cleared when it reaches ``_BEATS_LIMIT`` entries).
_BEATS: dict[tuple, bool] = {}
_BEATS_LIMIT = 1 << 14


def _beats(shape: tuple, tshape: tuple) -> bool:
    key = (shape, tshape)
    got = _BEATS.get(key)
    if got is None:
        if len(_BEATS) >= _BEATS_LIMIT:
            _BEATS.clear()
        got = _BEATS[key] = beats(shape, tshape)
    return got


def apply_yield(st: HandState, seat: int) -> HandState:
    """讓: decline now, keep the right to play later in this round (once, B5)."""
    if st.phase != "play" or seat != st.to_act:
        _check_turn(st, seat)
    if st.top is None:
        raise IllegalAction("you lead this round: play a set (B5)", "B5")
    if st.yielded >> seat & 1:
        raise IllegalAction("you have already used 讓 in this round: play or 過 (B5)", "B5")
    new = _copy(st)
    new.yielded = st.yielded | 1 << seat
    new.trick_log = st.trick_log + ((seat, "yield", ()),)
    return _advance(new, seat)


def apply_pass(st: HandState, seat: int) -> HandState:
    """過: out of this round (B5)."""
    if st.phase != "play" or seat != st.to_act:
        _check_turn(st, seat)
    if st.top is None:
        raise IllegalAction("you lead this round: play a set (B5)", "B5")
    new = _copy(st)
    new.passed = st.passed | 1 << seat
    new.trick_log = st.trick_log + ((seat, "pass", ()),)
    return _advance(new, seat)


def next_in_round(actor: int, top_seat: int, sizes, passed: int) -> int | None:
    """The seat to act after ``actor`` in this round (B5, C2), or None when
    the round is over.

    ``top_seat``: the seat whose set is on top (skipped); ``sizes``: the five
    hand sizes (seats without cards are skipped); ``passed``: bit mask of the
    seats that passed (過) this round.  The one statement of the turn order:
    :func:`_advance`, :mod:`.playout` and :func:`.search.fast_rollout` use it.
    """
    for p in _AFTER[actor]:
        if p == top_seat or not sizes[p] or passed >> p & 1:
            continue
        return p
    return None


def round_leader(top_seat: int, sizes) -> int:
    """The seat that leads the next round (B5): the seat on top, or when it
    has no cards left (接風) the next seat after it with cards.  ``sizes``: the
    five hand sizes; at least one seat must hold cards."""
    leader = top_seat
    while not sizes[leader]:
        leader = (leader + 1) % 5
    return leader


def _advance(new: HandState, actor: int) -> HandState:
    """Finish ``new`` (a fresh copy holding the action's changes, not yet
    returned to anyone) with the next seat to act, ending the round if all
    others have passed (:func:`next_in_round`, :func:`round_leader`)."""
    sizes = new.sizes
    top_seat = new.top[0]
    p = next_in_round(actor, top_seat, sizes, new.passed)
    if p is not None:
        new.to_act = p
        return new
    # Round over: the player on top leads, or 接風 to the next seat with cards.
    new.to_act = new.leader = round_leader(top_seat, sizes)
    new.top = None
    new.yielded = 0
    new.passed = 0
    new.last_round = new.trick_log
    new.trick_log = ()
    return new


#: The seats after each seat in turn order (C2), the seat itself last.
_AFTER = tuple(tuple((s + i) % 5 for i in range(1, 6)) for s in range(5))


def _code(k: int) -> str:
    return KINDS[k].code
