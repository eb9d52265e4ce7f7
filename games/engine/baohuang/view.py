"""What one seat may know (hidden information), as JSON and for bots.

:func:`view` is the JSON the site renders; :func:`knowledge` is the same
information as a light object for bots (rank counts instead of codes), built
with the same visibility rules:

* a seat sees its own cards only (a spectator, seat None, sees no hand);
* the guard (B10) is shown only to the guard himself until 明保 or ``4H*`` is
  played; while the 4H* holder declares, the other seats see ``to_act: null``
  so the phase does not reveal who is deciding;
* a secret solo (暗獨, B9) is shown only to the emperor until ``4H*`` is played;
* payment cards of 買3 and tribute are shown only to payer and receiver while
  the hand is in play (``null`` with ``"hidden": true`` for others), and so is
  the 3 that changed hands in 買3 (``three``; the seller handed it over);
* the crown pile's cards are shown to its holder, its number of 2s to all,
  during the crown (``crown.twos``) and after it (``crown_twos``: how many 2s
  the emperor took with the pile, B8; their suits stay hidden);
* once the hand is over (or voided) everything is shown.
"""

from __future__ import annotations

from itertools import chain, repeat

from .crown import declaring_verb
from .order import KINDS
from .sets import can_beat
from .state import HandState
from ..cards import Card
from .order import RANK_OF, rank_counts, KIND_OF


def guard_visible(st: HandState, seat: int | None) -> bool:
    """May ``seat`` know who the guard is? (B10)"""
    if st.guard is None:
        return False
    return (st.phase in ("done", "voided") or st.guard_declared == "open" or st.h4_played
            or seat == st.guard)


def solo_visible(st: HandState, seat: int | None) -> str | None:
    """The solo declaration as ``seat`` may know it (B9)."""
    if st.solo is None:
        return None
    if st.solo == "open" or st.h4_played or st.phase in ("done", "voided") or seat == st.emperor:
        return st.solo
    return None


def visible_to_act(st: HandState, seat: int | None) -> int | None:
    if st.phase == "declare" and seat != st.to_act:
        return None
    return st.to_act


def legal_verbs(st: HandState, seat: int | None) -> list[str]:
    """Verbs ``seat`` may use now, sorted (empty when not its turn)."""
    if seat is None or st.to_act != seat:
        return []
    ph = st.phase
    if ph == "crown":
        return ["crown"]
    if ph == "declare":
        return [declaring_verb(st)]
    if ph != "play":
        return []
    if st.top is None:
        return ["play"]
    out = ["pass"]
    if can_beat(st.rcs[seat], st.top[2]):
        out.append("play")
    if not st.yielded >> seat & 1:
        out.append("yield")
    return sorted(out)


def _codes(cards):
    return [c.code for c in cards]


#: Each card kind's code, in :data:`.order.KINDS` order (a hand's counts are by kind).
_KIND_CODES = tuple(k.code for k in KINDS)


def hand_codes(counts) -> list[str]:
    """A hand's card codes, high to low, from its counts by kind (``st.hands[seat]``):
    each kind's code as many times as it is held (built in C: no Python loop
    over the kinds)."""
    return list(chain.from_iterable(map(repeat, _KIND_CODES, counts)))


#: The keys of :func:`view` whose values are the same for every seat and a
#: spectator (they come from :func:`public` alone); the other keys (``seat``,
#: ``to_act`` while the 4H* holder declares, ``hand``, ``guard``, ``solo``,
#: ``guard_declared``, ``crown``, ``bought_threes``, ``tribute``, ``legal``)
#: are worked out per seat by :func:`view_from_public` (B7, B8, B9, B10, B13).
PUBLIC_KEYS = frozenset({
    "game", "phase", "counts", "emperor", "crown_twos", "top", "round", "trick_log",
    "last_round", "finished", "h4_played", "result",
})


def public(st: HandState, summary=None) -> dict:
    """The view for no seat (a spectator's, ``view(st, None, summary)``): no
    hand, no hidden role (B9, B10), no hidden payment or crown pile (B7, B8,
    B13) while the hand is in play.  ``summary``: the completed hand's
    summary (``result`` once the hand is over).  A fresh dict; its values
    under :data:`PUBLIC_KEYS` are every seat's too."""
    over = st.phase in ("done", "voided")
    crown = None
    if st.phase == "crown" or st.phase == "voided":
        crown = {
            "holder": st.crown_holder,
            "first": st.crown_first,
            "passed": list(st.crown_passed),
            "twos": sum(1 for c in st.crown_pile if c.rank == "2"),
            "second_round": st.crown_second,
            "pile": _codes(st.crown_pile) if over else None,
        }
    bought = []
    for buyer, seller, paid, three in st.bought:
        bought.append({"buyer": buyer, "seller": seller,
                       "paid": (paid.code if paid else None) if over else None,
                       "three": three.code if over else None,
                       "hidden": not over})
    tribute = []
    for frm, to, card in st.tribute:
        tribute.append({"from": frm, "to": to, "card": card.code if over else None,
                        "hidden": not over})
    declared = st.guard_declared
    if declared == "secret" and not over:
        declared = None
    top = None
    if st.top is not None:
        top = {"seat": st.top[0], "cards": _codes(st.top[1])}
    return {
        "game": "baohuang",
        "seat": None,
        "phase": st.phase,
        "to_act": visible_to_act(st, None),
        "hand": [],
        "counts": {str(s): st.sizes[s] for s in range(5)},
        "emperor": st.emperor,
        "guard": st.guard if guard_visible(st, None) else None,
        "solo": solo_visible(st, None),
        "guard_declared": declared,
        "crown": crown,
        "crown_twos": st.crown_twos if st.emperor is not None else None,
        "top": top,
        "round": {
            "leader": st.leader,
            "yielded": [s for s in range(5) if st.yielded >> s & 1],
            "passed": [s for s in range(5) if st.passed >> s & 1],
        },
        "trick_log": [{"seat": s, "verb": v, "cards": _codes(c)} for s, v, c in st.trick_log],
        "last_round": [{"seat": s, "verb": v, "cards": _codes(c)} for s, v, c in st.last_round],
        "finished": list(st.finished),
        "h4_played": st.h4_played,
        "bought_threes": bought,
        "tribute": tribute,
        "legal": [],
        "result": summary if over else None,
    }


def view_from_public(st: HandState, seat: int | None, pub: dict) -> dict:
    """:func:`view` for ``seat`` (None: a spectator) from ``pub``, the view
    for no seat of the same state (:func:`public`, the same summary): a new
    dict holding ``pub``'s values under :data:`PUBLIC_KEYS` (the very
    objects: read them, never change them) and the seat's own parts worked
    out here.  What only ``seat`` may know reaches only its view: its cards;
    the guard to himself while secret (B10); a secret solo to the emperor
    (B9); the crown pile to its holder (B8); a 買3's and a tribute's cards to
    payer and receiver (B7, B13); its turn while it declares (B10)."""
    v = dict(pub)
    if seat is None:
        return v
    v["seat"] = seat
    v["to_act"] = visible_to_act(st, seat)
    v["hand"] = hand_codes(st.hands[seat])
    over = st.phase in ("done", "voided")
    if not over:
        if st.guard is not None and v["guard"] is None and guard_visible(st, seat):
            v["guard"] = st.guard
        if st.solo is not None and v["solo"] is None:
            v["solo"] = solo_visible(st, seat)
        if st.guard_declared == "secret" and seat == st.guard:
            v["guard_declared"] = "secret"
        crown = v["crown"]
        if crown is not None and seat == st.crown_holder:
            v["crown"] = {**crown, "pile": _codes(st.crown_pile)}
        if st.bought:
            v["bought_threes"] = [
                {"buyer": buyer, "seller": seller,
                 "paid": paid.code if paid else None, "three": three.code, "hidden": False}
                if seat in (buyer, seller) else shown
                for (buyer, seller, paid, three), shown in zip(st.bought, v["bought_threes"])]
        if st.tribute:
            v["tribute"] = [
                {"from": frm, "to": to, "card": card.code, "hidden": False}
                if seat in (frm, to) else shown
                for (frm, to, card), shown in zip(st.tribute, v["tribute"])]
    v["legal"] = legal_verbs(st, seat)
    return v


def view(st: HandState, seat: int | None, summary=None) -> dict:
    """The JSON view for ``seat`` (None: spectator).  See the module docstring:
    ``view_from_public(st, seat, public(st, summary))``."""
    return view_from_public(st, seat, public(st, summary))


class Knowledge:
    """A seat's knowledge for bots (same visibility as :func:`view`): the
    fields the bots read, no more (one object is built per bot decision).

    ``seat``, ``phase``, ``rc`` (own counts by rank value), ``size``, ``sizes``
    (all hand sizes), ``pile_size``/``pile_twos`` (the crown pile offered to this
    seat: its size and its number of 2s), ``emperor``, ``guard`` (None unless
    visible), ``solo`` (visible value), ``i_am_guard``, ``top`` (``(seat, shape)``
    or None), ``can_yield`` (讓 allowed now).
    """

    __slots__ = ("seat", "phase", "rc", "size", "sizes", "emperor", "guard", "solo",
                 "i_am_guard", "top", "pile_twos", "pile_size", "can_yield")

    def as_dict(self) -> dict:
        return {n: getattr(self, n) for n in self.__slots__}

    def __eq__(self, other):
        return isinstance(other, Knowledge) and self.as_dict() == other.as_dict()

    def __repr__(self):
        return f"Knowledge({self.as_dict()!r})"


def knowledge(st: HandState, seat: int) -> Knowledge:
    """The bot's view of the table for ``seat``."""
    kn = _new_knowledge(Knowledge)
    kn.seat = seat
    kn.phase = st.phase
    kn.rc = st.rcs[seat]
    kn.sizes = sizes = st.sizes
    kn.size = sizes[seat]
    kn.emperor = st.emperor
    guard = st.guard
    # what a seat may know of the roles: the one rule (B9, B10), shared with the
    # JSON view (both functions answer None/False at once when there is no guard
    # or no solo, so they are only asked when there is one)
    if guard is None:
        kn.guard = None
        kn.i_am_guard = False
    else:
        kn.guard = guard if guard_visible(st, seat) else None
        kn.i_am_guard = guard == seat
    kn.solo = None if st.solo is None else solo_visible(st, seat)
    top = st.top
    if top is None:
        kn.top = None
        kn.can_yield = False
    else:
        kn.top = (top[0], top[2])
        kn.can_yield = not st.yielded >> seat & 1
    if seat == st.crown_holder:
        kn.pile_twos = sum(1 for c in st.crown_pile if c.rank == "2")
        kn.pile_size = len(st.crown_pile)
    else:
        kn.pile_twos = kn.pile_size = 0
    return kn


_new_knowledge = object.__new__



def knowledge_from_view(v: dict) -> Knowledge:
    """The same :class:`Knowledge` rebuilt from a JSON :func:`view` alone.

    :func:`knowledge` is the fast path the bots use; tests check that it always
    equals this function of the view, so a bot never knows more than its view.
    """

    seat = v["seat"]
    counts = [0] * len(KINDS)
    for code in v["hand"]:
        counts[KIND_OF[Card.parse(code)]] += 1
    kn = Knowledge()
    kn.seat = seat
    kn.phase = v["phase"]
    kn.rc = rank_counts(counts)
    kn.size = len(v["hand"])
    kn.sizes = tuple(v["counts"][str(s)] for s in range(5))
    kn.emperor = v["emperor"]
    kn.guard = v["guard"]
    kn.i_am_guard = v["guard"] == seat and seat is not None
    kn.solo = v["solo"]
    top = v["top"]
    kn.top = None if top is None else (
        top["seat"], tuple(sorted((RANK_OF[Card.parse(c)] for c in top["cards"]), reverse=True)))
    kn.can_yield = top is not None and seat not in v["round"]["yielded"]
    crown = v["crown"]
    holder = crown is not None and crown["holder"] == seat and v["phase"] == "crown"
    kn.pile_twos = crown["twos"] if holder else 0
    kn.pile_size = len(crown["pile"]) if holder else 0
    return kn
