"""選皇帝 (ruling B8), 獨 (B9) and 保皇 declarations (B10).

Crown: the holder of ``BJ*`` accepts or passes.  A pass hands ``BJ*``, with every
2 already added, to the clockwise neighbour ``(s-1) mod 5`` (C2); every passer
after the first adds one 2 of his own if he has one (C6: ♠2 first).  The cards
in transit (the *pile*) belong to nobody until someone accepts: the acceptor
takes the whole pile into his hand and is the emperor.  If all five pass, the
pile is back with the first holder, who decides once more; a second pass voids
the deal (phase ``"voided"``; the table redeals and the tribute stays owed).
How many 2s the accepted pile carried stays public after the crown
(``crown_twos``): every seat saw them added, though not their suits.

After the crown the tribute is paid (B13, :mod:`.tribute`), then one
declaration: if the emperor also holds ``4H*`` he declares ``solo``
``"open"`` (明獨) or ``"secret"`` (暗獨); otherwise the ``4H*`` holder declares
``guard`` ``"open"`` (明保) or ``"secret"`` (暗保).  Until 明保 or ``4H*`` is
played nobody else learns who the guard is (the view hides who is deciding).
Then the emperor leads.
"""

from __future__ import annotations

from ..base import IllegalAction
from .order import KIND_BJ_MARKED, KIND_H4_MARKED, KIND_OF, KINDS, TWO_KINDS, rank_counts
from .state import HandState
from .tribute import pay_tribute


def bj_holder(hands) -> int:
    """The seat holding ``BJ*``."""
    return next(s for s in range(5) if hands[s][KIND_BJ_MARKED])


def apply_crown(st: HandState, seat: int, choice) -> HandState:
    """Accept or pass the crown offer (B8); IllegalAction for a wrong seat/choice."""
    if st.phase != "crown":
        raise IllegalAction("the crown has already been decided (B8)", "B8")
    if seat != st.crown_holder:
        raise IllegalAction(
            f"only seat {st.crown_holder}, who holds BJ*, decides on the crown now (B8)", "B8")
    if choice not in ("accept", "pass"):
        raise IllegalAction(f"crown takes accept or pass, not {choice!r} (B8)", "B8")
    hands = [list(h) for h in st.hands]
    pile = list(st.crown_pile)
    if choice == "accept":
        for c in pile:
            hands[seat][KIND_OF[c]] += 1
        return _crowned(st, hands, seat, sum(1 for c in pile if c.rank == "2"))
    # pass
    if st.crown_second:
        return st.evolve(phase="voided", to_act=None, crown_holder=None,
                         crown_passed=st.crown_passed + (seat,))
    if not st.crown_passed:
        hands[seat][KIND_BJ_MARKED] -= 1
        pile.append(KINDS[KIND_BJ_MARKED])
    else:
        two = next((k for k in TWO_KINDS if hands[seat][k]), None)
        if two is not None:
            hands[seat][two] -= 1
            pile.append(KINDS[two])
    passed = st.crown_passed + (seat,)
    if len(passed) == 5:
        nxt, second = st.crown_first, True
    else:
        nxt, second = (seat - 1) % 5, False
    return st.evolve(
        hands=tuple(tuple(h) for h in hands), rcs=tuple(rank_counts(h) for h in hands),
        sizes=tuple(sum(h) for h in hands), crown_pile=tuple(pile), crown_passed=passed,
        crown_holder=nxt, crown_second=second, to_act=nxt,
    )


def _crowned(st: HandState, hands: list[list[int]], emperor: int, twos: int) -> HandState:
    sellers = {b[1] for b in st.bought}
    tribute = pay_tribute(st.match.previous, hands, emperor, sellers)
    h4 = next(s for s in range(5) if hands[s][KIND_H4_MARKED])
    return st.evolve(
        hands=tuple(tuple(h) for h in hands), rcs=tuple(rank_counts(h) for h in hands),
        sizes=tuple(sum(h) for h in hands), crown_pile=(), crown_holder=None,
        crown_twos=twos, emperor=emperor, guard=None if h4 == emperor else h4,
        tribute=tuple(tribute), phase="declare", to_act=h4,
    )


def declaring_verb(st: HandState) -> str:
    """``"solo"`` when the emperor holds 4H*, else ``"guard"``."""
    return "solo" if st.guard is None else "guard"


def apply_declaration(st: HandState, seat: int, verb: str, choice) -> HandState:
    """明獨/暗獨 (B9) or 明保/暗保 (B10) by the seat holding 4H*.

    A refusal to any other seat says only "it is not your turn to declare", with
    the rule id of the verb that seat sent: neither reveals the decider or a solo.
    """
    if st.phase != "declare":
        raise IllegalAction(f"there is no {verb} declaration to make now", "B9" if verb == "solo" else "B10")
    if seat != st.to_act:
        # B10/B9: the refusal must not tell who declares nor whether it is a solo,
        # so its rule id follows the verb sent, never the declaration expected.
        raise IllegalAction("it is not your turn to declare", "B9" if verb == "solo" else "B10")
    expected = declaring_verb(st)
    rule = "B9" if expected == "solo" else "B10"
    if verb != expected:
        raise IllegalAction(f"you declare {expected} now, not {verb} ({rule})", rule)
    if choice not in ("open", "secret"):
        raise IllegalAction(f"{verb} takes open or secret, not {choice!r} ({rule})", rule)
    changes = {"solo": choice} if verb == "solo" else {"guard_declared": choice}
    return st.evolve(phase="play", leader=st.emperor, to_act=st.emperor, **changes)
