"""Immutable match and hand state of 保皇.

:class:`Match` is what passes from hand to hand: the options and the previous
hand's result (``start.previous`` in hand records), from which the tribute owed
is derived (B13).  :class:`HandState` is one hand in progress.  Both are
immutable: the engine builds a new :class:`HandState` for every action (see
:meth:`HandState.evolve`) and never changes one that has been returned.

Inside a hand, each seat's cards are a tuple of 56 counts indexed by kind
(:mod:`.order`), with the 16 counts by rank value and the hand size kept beside
it so that legality checks never rebuild them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import Action, RecordError
from ..cards import Card
from ..options import multiplier_problem
from .deal import SEATS, Deal

DEFAULT_OPTIONS = {"multiplier": 1}


@dataclass(frozen=True, slots=True)
class Previous:
    """The previous hand's result at this table (``start.previous``):
    ``emperor`` seat, ``guard`` seat or None when solo, ``solo``
    (``"open"``/``"secret"``/None), ``guard_declared`` (``"open"``/``"secret"``/None)
    and ``finish_order`` (five seats, 頭科 first)."""

    emperor: int
    guard: int | None
    solo: str | None
    guard_declared: str | None
    finish_order: tuple[int, ...]

    def to_json(self) -> dict:
        return {
            "emperor": self.emperor,
            "guard": self.guard,
            "solo": self.solo,
            "guard_declared": self.guard_declared,
            "finish_order": list(self.finish_order),
        }

    @classmethod
    def from_json(cls, data: Any) -> "Previous":
        """Parse ``start.previous``; raise :class:`RecordError` if malformed."""
        if not isinstance(data, dict):
            raise RecordError("start.previous must be an object")

        def seat(v, name, nullable=False):
            if v is None and nullable:
                return None
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < SEATS:
                raise RecordError(f"start.previous.{name} must be a seat 0..4, got {v!r}")
            return v

        emperor = seat(data.get("emperor"), "emperor")
        solo = data.get("solo")
        if solo not in (None, "open", "secret"):
            raise RecordError(f"start.previous.solo must be open, secret or null, got {solo!r}")
        guard = seat(data.get("guard"), "guard", nullable=True)
        declared = data.get("guard_declared")
        if declared not in (None, "open", "secret"):
            raise RecordError("start.previous.guard_declared must be open, secret or null")
        if solo is None and (guard is None or guard == emperor):
            raise RecordError("start.previous needs a guard other than the emperor unless solo")
        if solo is None and declared is None:
            # 明保 doubles the tribute (B13): a missing declaration must not read as 暗保
            raise RecordError("start.previous.guard_declared must be open or secret unless solo")
        if solo is not None:
            guard, declared = None, None
        order = data.get("finish_order")
        if (not isinstance(order, list)
                or any(not isinstance(s, int) or isinstance(s, bool) for s in order)
                or sorted(order) != list(range(SEATS))):
            raise RecordError("start.previous.finish_order must list the five seats once each")
        return cls(emperor, guard, solo, declared, tuple(order))


@dataclass(frozen=True, slots=True)
class Match:
    """Options (``multiplier``, C4) and the previous result (None: no tribute owed)."""

    multiplier: int = 1
    previous: Previous | None = None

    @property
    def options(self) -> dict:
        return {"multiplier": self.multiplier}

    def to_json(self) -> dict:
        start = {"previous": self.previous.to_json()} if self.previous else {}
        return {"options": self.options, "start": start}


def parse_options(options: Any) -> int:
    """The room multiplier from ``options`` (default 1); RecordError if invalid."""
    if options is None:
        return 1
    if not isinstance(options, dict):
        raise RecordError("options must be an object")
    m = options.get("multiplier", 1)
    problem = multiplier_problem(m)
    if problem:
        raise RecordError(problem)
    return m


class HandState:
    """One hand.  Attributes (all read-only by convention):

    ``match``, ``deal``; ``hands`` (5 × 56 counts), ``rcs`` (5 × 16 counts by rank
    value), ``sizes``; ``phase`` (``"crown"``, ``"declare"``, ``"play"``, ``"done"``,
    ``"voided"``); ``to_act``; ``bought`` (tuples ``(buyer, seller, paid card or
    None, the 3)``); crown: ``crown_first``, ``crown_holder``, ``crown_passed``,
    ``crown_pile`` (cards in transit), ``crown_second``, ``crown_twos`` (the
    number of 2s in the pile the emperor accepted: public, B8; 0 before the
    crown is accepted, when the pile itself shows it); ``emperor``, ``guard``
    (4H* holder, None when solo), ``solo``, ``guard_declared``, ``h4_played``;
    ``tribute`` (tuples ``(from, to, card)``); play: ``leader``, ``top`` (``(seat,
    cards, shape)`` or None), ``yielded`` and ``passed`` (bit masks of seats),
    ``trick_log`` (tuples ``(seat, verb, cards)`` of this round), ``last_round``
    (the previous round's log); ``finished`` (seats in finishing order);
    ``log`` (the actions so far, a tuple).

    The log is stored lazily in ``_log``: the engine's ``apply`` links the new
    action to the previous state's log (``[previous _log, action]``, a list)
    instead of copying the whole tuple; reading ``log`` builds the tuple once
    and keeps it.
    """

    __slots__ = (
        "match", "deal", "hands", "rcs", "sizes", "phase", "to_act", "bought",
        "crown_first", "crown_holder", "crown_passed", "crown_pile", "crown_second",
        "crown_twos", "emperor", "guard", "solo", "guard_declared", "h4_played", "tribute",
        "leader", "top", "yielded", "passed", "trick_log", "last_round", "finished", "_log",
    )

    @property
    def log(self) -> tuple:
        """The actions so far (a tuple of :class:`Action`), oldest first."""
        lg = self._log
        if type(lg) is not tuple:
            lg = self._log = _materialize(lg)
        return lg

    @log.setter
    def log(self, value: tuple) -> None:
        self._log = tuple(value)

    def evolve(self, **changes) -> "HandState":
        """A copy with ``changes`` applied (the original is untouched)."""
        new = _copy(self)
        for name, value in changes.items():
            setattr(new, name, value)
        return new

    def _key(self):
        return tuple(getattr(self, n) for n in _FIELDS)

    def __eq__(self, other):
        return isinstance(other, HandState) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"<HandState phase={self.phase} to_act={self.to_act} actions={len(self.log)}>"


#: The public fields of a :class:`HandState` (its slots, ``log`` for ``_log``).
_FIELDS = tuple("log" if n == "_log" else n for n in HandState.__slots__)


def _materialize(node) -> tuple:
    """The log tuple of a linked log ``node`` (``[previous node or tuple,
    action]``), walked without recursion."""
    tail = []
    while type(node) is not tuple:
        tail.append(node[1])
        node = node[0]
    tail.reverse()
    return node + tuple(tail)


def _make_copier():
    # A straight-line copy of every slot (much faster than a getattr/setattr loop).
    lines = ["def _copy(src):", "    new = _new(HandState)"]
    lines += [f"    new.{n} = src.{n}" for n in HandState.__slots__]
    lines.append("    return new")
    ns = {"_new": object.__new__, "HandState": HandState}
    exec("\n".join(lines), ns)
    return ns["_copy"]


_copy = _make_copier()


def new_state(**fields) -> HandState:
    """A :class:`HandState` with every slot given (missing ones default)."""
    defaults: dict[str, Any] = dict(
        to_act=None, bought=(), crown_first=None, crown_holder=None, crown_passed=(),
        crown_pile=(), crown_second=False, crown_twos=0, emperor=None, guard=None, solo=None,
        guard_declared=None, h4_played=False, tribute=(), leader=None, top=None,
        yielded=0, passed=0, trick_log=(), last_round=(), finished=(), log=(),
    )
    defaults.update(fields)
    st = object.__new__(HandState)
    for name in _FIELDS:
        setattr(st, name, defaults[name])
    return st


__all__ = ["Match", "Previous", "HandState", "new_state", "parse_options", "Action", "Card", "Deal"]
