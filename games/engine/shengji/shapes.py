"""Units, tractors and shape strength of four-deck 升級 (rulings S5, S6, S7, S11).

Public API (stable names):

- :class:`Component`: one unit (single, pair, triple, quad = 炸彈) or one tractor.
- :func:`decompose` ``(cards, ctx) -> tuple[Component, ...]``: the structure of
  cards of one suit of play, strongest component first.
- :func:`classify` ``(cards, ctx) -> "unit" | "tractor" | "throw" | "mixed" | "empty"``.
- :func:`stronger` ``(a, b) -> bool``: S7 between two components of the same
  suit and the same number of cards.
- :func:`largest` ``(components) -> Component``: a throw's deciding component (S10).
- :func:`tractors_in` / :func:`units_in`: every tractor / unit that can be taken
  from a multiset of cards of one suit (move generation; structural, never subsets).

**S5 units** are groups of *identical* cards: L of ♣ and L of ♦ are equal in order
but never a pair.  **S6 tractors** are two or more units of the same size whose
adjacency ranks (:meth:`TrumpContext.adjacency_rank`) are consecutive: ranks moved
into the trumps are skipped, and 比牌/參謀/L never take part.

**Decomposition** (S11's rule, used for every play): split the cards into their
largest groups of identical cards; groups of equal size with adjacent ranks are
joined into maximal tractors (singles are never joined).  ``♣AAKKK`` is a pair of
A and a triple of K; ``♣AAAKKK`` is one triple tractor.

**S7**: between components of the same suit and the same number of cards, the
larger unit size wins whatever the ranks (4444 > 6677; 666777 > QQKKAA;
44445555 > JJQQKKAA; 666677778888 > JJJQQQKKKAAA); the same shape compares the
top card (S4).  Equal strength is a tie (the earlier play wins, S4/S10).

>>> from games.engine.cards import parse_cards
>>> from games.engine.shengji.trumps import TrumpContext
>>> ctx = TrumpContext("7", "H")
>>> [c.describe() for c in decompose(parse_cards("6C 6C 8C 8C".split()), ctx)]
['♣8866']
>>> classify(parse_cards("AC AC KC KC KC".split()), ctx)
'throw'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import MISSING, dataclass, fields
from functools import update_wrapper

from ..cards import SUIT_SYMBOLS, Card, tally
from .trumps import TrumpContext

UNIT_NAMES = {1: "单张", 2: "对子", 3: "三张", 4: "炸弹"}
UNIT_NAMES_EN = {1: "single", 2: "pair", 3: "triple", 4: "bomb"}


def card_text(card: Card) -> str:
    """Short display of a card: ``♥7``, ``♠10``, ``大王``/``小王``."""
    if card.suit is None:
        return "大王" if card.rank == "BJ" else "小王"
    rank = "10" if card.rank == "T" else card.rank
    return SUIT_SYMBOLS[card.suit] + rank


def cards_text(cards: Iterable[Card]) -> str:
    """Display of several cards, the suit symbol once per run of one suit:
    ``♥77``, ``♥AA♠K``, ``大王大王``; a run holding a 10 is spaced:
    ``♣10 10 9 9``."""
    out: list[str] = []
    run: list[str] = []
    prev = None

    def flush():
        if run:
            out.append(SUIT_SYMBOLS[prev] + (" " if "10" in run else "").join(run))
            run.clear()

    for c in cards:
        if c.suit is None:
            flush()
            prev = None
            out.append(card_text(c))
            continue
        if c.suit != prev:
            flush()
            prev = c.suit
        run.append("10" if c.rank == "T" else c.rank)
    flush()
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Component:
    """One unit or tractor of a play.

    ``size``: cards per unit (1 single, 2 pair, 3 triple, 4 quad/炸彈);
    ``length``: number of units (1 for a unit, ≥ 2 for a tractor);
    ``top``: S4 order of its highest card; ``suit``: suit of play (``"T"`` trumps);
    ``cards``: its cards, highest first.
    """

    size: int
    length: int
    top: int
    suit: str
    cards: tuple[Card, ...]

    @property
    def count(self) -> int:
        """Number of cards (size × length)."""
        return self.size * self.length

    @property
    def shape(self) -> tuple[int, int]:
        """``(size, length)``: two components have the same shape iff equal."""
        return (self.size, self.length)

    @property
    def is_tractor(self) -> bool:
        return self.length >= 2

    @property
    def strength(self) -> tuple[int, int]:
        """S7 key among components of equal ``count``: ``(size, top)``."""
        return (self.size, self.top)

    def name(self) -> str:
        """Chinese shape name: 单张, 对子, 三张, 炸弹, 拖拉机 (with unit size)."""
        if self.length == 1:
            return UNIT_NAMES[self.size]
        return f"{UNIT_NAMES[self.size]}拖拉机"

    def name_en(self) -> str:
        if self.length == 1:
            return UNIT_NAMES_EN[self.size]
        return f"{UNIT_NAMES_EN[self.size]} tractor of {self.count}"

    def describe(self) -> str:
        """Display, e.g. ``♣8866`` for a tractor, ``♥77`` for a pair."""
        return cards_text(self.cards)


def slot_builder(cls):
    """``build(*values)``: an instance of the frozen, slotted dataclass ``cls``
    from its field values in field order, each slot set through its own
    descriptor (the frozen ``__init__`` sets each by name through
    ``object.__setattr__``, a type lookup per field).  Equal to
    ``cls(*values)`` for a class without ``__post_init__`` or default
    factories; the hot constructors of the 升級 engine use it.

    Raises ``TypeError`` for a class with ``__post_init__``, a default factory
    or a field that is not a slot: the builder would skip or miss them."""
    if hasattr(cls, "__post_init__") or "__slots__" not in cls.__dict__ or any(
            f.default_factory is not MISSING for f in fields(cls)):
        raise TypeError(f"slot_builder: {cls.__name__} needs __init__ (post-init, "
                        f"default factory or no slots)")
    names = [f.name for f in fields(cls)]
    lines = [f"def build({', '.join(names)}):", "    new = _new(cls)"]
    lines += [f"    _set_{n}(new, {n})" for n in names]
    lines += ["    return new"]
    ns = {"_new": object.__new__, "cls": cls}
    ns.update({f"_set_{n}": cls.__dict__[n].__set__ for n in names})
    exec("\n".join(lines), ns)
    return ns["build"]


#: ``Component(size, length, top, suit, cards)`` through :func:`slot_builder`.
_component = slot_builder(Component)


def strength_key(comp: Component) -> tuple[int, int, int]:
    """Order of components within one play, strongest first: most cards, then the
    largest unit size, then the top card (S10 'largest unit')."""
    return (comp.count, comp.size, comp.top)


def decompose(cards: Iterable[Card], ctx: TrumpContext) -> tuple[Component, ...]:
    """The structure of ``cards`` (all of one suit of play) by S11's rule.

    Returns components sorted strongest first (:func:`strength_key`).  Raises
    ``ValueError`` if the cards are of several suits of play (a trump and a side
    card, or two side suits).
    """
    if isinstance(cards, (tuple, list)) and cards:
        t = ctx._t
        key = cards if type(cards) is tuple else tuple(cards)
        table = t.memo.get("decompose")
        if table is None:
            table = t.memo["decompose"] = {}
        got = table.get(key)
        if got is not None:
            return got
        first = key[0]
        if len(key) == 1 or all(c is first for c in key):
            # one unit (the commonest play): no counting needed
            s, o, _a = t.info[first]
            got = (_component(len(key), 1, o, s, key),)
        else:
            got = decompose_counts(tally(key), ctx)
        if len(table) >= _MEMO_LIMIT:
            table.clear()
        table[key] = got
        return got
    return decompose_counts(tally(cards), ctx)


#: :func:`decompose` memoizes per trump context (``ctx._t.memo["decompose"]``:
#: ``{cards: components}``), cleared when it reaches ``_MEMO_LIMIT`` entries.
#: Components are immutable, so sharing them between callers is safe.
_MEMO_LIMIT = 1 << 15


def decompose_counts(counts: dict[Card, int], ctx: TrumpContext) -> tuple[Component, ...]:
    """:func:`decompose` for card counts (card → multiplicity: a ``Counter`` or
    :func:`~games.engine.cards.tally`)."""
    info = ctx._t.info
    suit = None
    comps: list[Component] = []
    ordinary: list[tuple[int, Card, int, int]] = []  # (adj, card, n, order)
    for card, n in counts.items():
        if n <= 0:
            continue
        s, o, a = info[card]
        if suit is None:
            suit = s
        elif s != suit:
            raise ValueError("cards of several suits of play have no single structure")
        if a is None or n == 1:
            comps.append(_component(n, 1, o, suit, (card,) * n))
        else:
            ordinary.append((a, card, n, o))
    if ordinary:
        ordinary.sort()
        run: list[tuple[int, Card, int, int]] = []
        for item in ordinary:
            if run and item[0] == run[-1][0] + 1 and item[2] == run[-1][2]:
                run.append(item)
            else:
                if run:
                    comps.append(_run_component(run, suit))
                run = [item]
        comps.append(_run_component(run, suit))
    comps.sort(key=strength_key, reverse=True)
    return tuple(comps)


def _run_component(run, suit) -> Component:
    n = run[0][2]
    cards: list[Card] = []
    for _a, card, _n, _o in reversed(run):
        cards.extend((card,) * n)
    return _component(n, len(run), run[-1][3], suit, tuple(cards))


def suit_of_play(cards: Iterable[Card], ctx: TrumpContext) -> str | None:
    """The common suit of play of ``cards`` (``"T"`` for all trumps), or None if
    they are of several suits (or empty)."""
    info = ctx._t.info
    suit = None
    for c in cards:
        s = info[c][0]
        if suit is None:
            suit = s
        elif s != suit:
            return None
    return suit


def classify(cards: Sequence[Card], ctx: TrumpContext) -> str:
    """``"unit"``, ``"tractor"``, ``"throw"`` (several components of one suit),
    ``"mixed"`` (several suits of play) or ``"empty"``."""
    if not cards:
        return "empty"
    if suit_of_play(cards, ctx) is None:
        return "mixed"
    comps = decompose(cards, ctx)
    if len(comps) > 1:
        return "throw"
    return "tractor" if comps[0].is_tractor else "unit"


def stronger(a: Component, b: Component) -> bool:
    """S7: True if ``a`` beats ``b`` (same suit of play and same number of cards
    assumed): a larger unit size whatever the ranks, else a higher top card.
    Equal strength returns False (the earlier play keeps the trick)."""
    return (a.size, a.top) > (b.size, b.top)


def largest(components: Sequence[Component]) -> Component:
    """A play's deciding component (S10): most cards, then largest unit size,
    then highest top card."""
    return max(components, key=strength_key)


def tractors_in(counts: dict[Card, int], ctx: TrumpContext, size: int,
                length: int | None = None) -> list[tuple[Card, ...]]:
    """Every tractor of unit size ``size`` that can be taken from ``counts`` (one
    suit of play or a whole hand): runs of ≥ 2 consecutive ordinary ranks of one
    suit each held at least ``size`` times.  With ``length`` only tractors of that
    many units; otherwise every sub-run.  Cards highest first.
    """
    info = ctx._t.info
    by_suit: dict[str, list[tuple[int, Card]]] = {}
    for card, n in counts.items():
        if n >= size:
            s, _o, a = info[card]
            if a is not None:
                by_suit.setdefault(s, []).append((a, card))
    out: list[tuple[Card, ...]] = []
    for items in by_suit.values():
        items.sort()
        runs: list[list[Card]] = []
        prev = None
        for a, card in items:
            if prev is not None and a == prev + 1:
                runs[-1].append(card)
            else:
                runs.append([card])
            prev = a
        for run in runs:
            n = len(run)
            if n < 2:
                continue
            lengths = [length] if length else range(2, n + 1)
            for ln in lengths:
                if ln > n:
                    continue
                for i in range(0, n - ln + 1):
                    seg = run[i:i + ln]
                    cards: list[Card] = []
                    for c in reversed(seg):
                        cards.extend((c,) * size)
                    out.append(tuple(cards))
    return out


def units_in(counts: dict[Card, int], size: int) -> list[tuple[Card, ...]]:
    """Every unit of ``size`` identical cards that can be taken from ``counts``."""
    return [(card,) * size for card, n in counts.items() if n >= size]


def keep_last_lead(make):
    """Decorator: ``make(lead_cards, ctx)`` with its last answer for a tuple lead kept.

    A trick's followers (and the engine's trick winner) ask for the same lead's
    derived data in turn; a tuple lead is immutable and held here, so the same
    object with the same :class:`TrumpContext` always means the same answer.
    The kept ``(lead_cards, ctx, answer)`` is replaced as a whole and read once
    per call, so threads sharing the engine never see a half-written entry."""
    last = (None, None, None)

    def kept(lead_cards, ctx):
        nonlocal last
        held = last
        if lead_cards is held[0] and ctx is held[1]:
            return held[2]
        got = make(lead_cards, ctx)
        if type(lead_cards) is tuple:
            last = (lead_cards, ctx, got)
        return got

    update_wrapper(kept, make)
    return kept
