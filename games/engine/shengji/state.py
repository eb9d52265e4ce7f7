"""One hand of 升級 as an immutable state machine.

Phases and who acts (S13–S15)::

    auction  bid/pass   in seat order from the opener, passed seats skipped
    trump    trump      the auction winner names a suit
    give     give       the auction winner (還牌; skipped when nobody lost cards)
    bury     bury       the dealer, holding 60 cards with the kitty, buries 8
    play     play       the dealer leads the first trick, each trick's winner the next
    done                the hand is settled (``result``)

:func:`start_hand` builds the initial state from a match and a deal; :func:`apply`
returns the next state or raises :class:`IllegalAction` (the state is never
changed).  The trick-taking rules (S3–S12) come from ``trumps`` and ``tricks``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ..base import Action, IllegalAction
from ..cards import Card, CardError, holds, parse_cards, remove_cards
from . import auction, give as give_mod, scoring
from .deal import Deal
from .match import Match, team_of
from .trumps import TrumpContext, card_points
from .tricks import check_follow, check_lead, resolve_throw, trick_winner

SUIT_LETTERS = ("S", "H", "D", "C")
KITTY_SIZE = 8


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick.  ``plays``: ``(seat, cards)`` in playing order, the
    leader's first; ``failed_throw``: the leader tried a 摔牌/甩牌 that failed
    (``attempted`` holds what he tried, ``plays`` the single actually played)."""

    leader: int
    plays: tuple[tuple[int, tuple[Card, ...]], ...]
    winner: int
    points: int
    failed_throw: bool
    attempted: tuple[Card, ...] = ()
    winner_all_trumps: bool = False


@dataclass(frozen=True, slots=True)
class HandState:
    """The whole hand (hidden cards included); never shown to a player as is
    (see ``view``).  Seat-indexed tuples are in seat order 0..3."""

    match: Match
    deal: Deal
    level: str
    phase: str
    to_act: int | None
    hands: tuple[tuple[Card, ...], ...]
    dealer: int | None = None
    # auction (S13)
    piles: tuple[tuple[Card, ...], ...] = ((), (), (), ())
    passed: tuple[int, ...] = ()
    highest: int = 0
    auction_winner: int | None = None
    taken: tuple[tuple[int, int], ...] = ()  # (loser, count) in auction order
    # trump and 還牌 (S14)
    trump: str | None = None
    ctx: Any = None
    given: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    # kitty (S15): the dealt kitty until buried, then the buried cards
    kitty: tuple[Card, ...] = ()
    buried: bool = False
    # play
    leader: int | None = None
    plays: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    lead_attempt: tuple[Card, ...] = ()  # a failed throw's cards, else ()
    tricks: tuple[Trick, ...] = ()
    # public memory derived from the tricks (kept incrementally for the bots):
    # cards played in completed tricks (card -> count; a new dict per trick,
    # never mutated) and the suits of play each seat has shown void in
    played: Any = None
    voids: tuple[frozenset, ...] = (frozenset(),) * 4
    result: Any = None
    log: tuple[Action, ...] = ()

    @property
    def complete(self) -> bool:
        return self.phase == "done"

    @property
    def auction_order(self) -> tuple[int, ...]:
        """Seats in auction order: from the opener, in seat order (C2)."""
        return tuple((self.deal.opener + i) % 4 for i in range(4))

    @property
    def owed(self) -> dict[int, int]:
        """還牌 owed: loser seat -> number of cards (auction order)."""
        return dict(self.taken)


_FIELD_NAMES = tuple(f.name for f in fields(HandState))
_FIELD_SET = frozenset(_FIELD_NAMES)


def replacer(*names: str):
    """A function ``f(src, *values)`` returning a copy of the HandState
    ``src`` with the fields ``names`` set to ``values`` (in that order) and
    every other field taken from ``src``: :func:`replace` for one fixed set of
    changed fields, as straight-line code (no per-field lookup of what
    changed).  Built once per tuple of names and kept; ``TypeError`` for a
    name that is not a field."""
    f = _REPLACERS.get(names)
    if f is not None:
        return f
    unknown = set(names) - _FIELD_SET
    if unknown or len(set(names)) != len(names):
        raise TypeError(f"unknown or repeated fields {sorted(unknown) or list(names)}")
    args = {n: f"v{i}" for i, n in enumerate(names)}
    lines = [f"def replace(src{''.join(', ' + a for a in args.values())}):",
             "    new = _new(HandState)"]
    # each slot's own descriptor sets it (what object.__setattr__ finds by
    # name after a lookup in the type, past the frozen class's __setattr__)
    lines += [f"    _set_{n}(new, {args.get(n, 'src.' + n)})" for n in _FIELD_NAMES]
    lines += ["    return new"]
    ns = {"_new": object.__new__, "HandState": HandState}
    ns.update({f"_set_{n}": HandState.__dict__[n].__set__ for n in _FIELD_NAMES})
    exec("\n".join(lines), ns)
    f = _REPLACERS[names] = ns["replace"]
    return f


_REPLACERS: dict[tuple[str, ...], Any] = {}


def replace(src: HandState, **changes) -> HandState:
    """``dataclasses.replace`` for :class:`HandState`: a copy of ``src`` with
    ``changes`` (field name -> value); ``TypeError`` for an unknown field.
    Each call site's set of names gets its own straight-line copy
    (:func:`replacer`), several times faster than the generic path, which
    re-runs ``__init__``; the state is equal to ``dataclasses.replace``'s."""
    names = tuple(changes)
    f = _REPLACERS.get(names)
    if f is None:
        f = replacer(*names)
    return f(src, *changes.values())


def start_hand(match: Match, deal: Deal) -> HandState:
    """The state before the first auction decision (the opener acts, S13)."""
    return HandState(
        match=match,
        deal=deal,
        level=match.hand_level(match.dealer),
        phase="auction",
        to_act=deal.opener,
        hands=deal.hands,
        dealer=match.dealer,
        kitty=deal.kitty,
    )


PHASE_VERBS = {
    "auction": frozenset({"bid", "pass"}),
    "trump": frozenset({"trump"}),
    "give": frozenset({"give"}),
    "bury": frozenset({"bury"}),
    "play": frozenset({"play"}),
    "done": frozenset(),
}
PHASE_RULE = {"auction": "S13", "trump": "S14", "give": "S14", "bury": "S15", "play": "S15"}
PHASE_WHAT = {
    "auction": "the 比牌 auction",
    "trump": "naming trumps",
    "give": "還牌",
    "bury": "burying the kitty",
    "play": "the play",
}


_VERB_RULE = {"bid": "S13", "give": "S14", "bury": "S15", "play": "S8"}


def _cards(arg, verb: str) -> tuple[Card, ...]:
    """The cards of an action argument (cards or C1 codes); IllegalAction if not."""
    if isinstance(arg, tuple) and all(isinstance(c, Card) for c in arg):
        return arg
    try:
        return parse_cards(arg)
    except CardError as exc:
        raise IllegalAction(f"not a list of cards: {exc}", _VERB_RULE.get(verb)) from None


def _set_hand(hands, seat, cards):
    return hands[:seat] + (cards,) + hands[seat + 1 :]


def apply(state: HandState, action: Action) -> HandState:
    """The state after ``action``; :class:`IllegalAction` names the rule."""
    phase = state.phase
    if phase == "done":
        raise IllegalAction("the hand is over", None)
    rule = PHASE_RULE[phase]
    if action.seat != state.to_act:
        raise IllegalAction(
            f"it is seat {state.to_act}'s turn in {PHASE_WHAT[phase]}, not seat "
            f"{action.seat}'s ({rule})",
            rule,
        )
    if action.verb not in PHASE_VERBS[phase]:
        allowed = " or ".join(sorted(PHASE_VERBS[phase]))
        raise IllegalAction(
            f"during {PHASE_WHAT[phase]} you can only {allowed}, not {action.verb} ({rule})",
            rule,
        )
    new = _HANDLERS[action.verb](state, action)
    # Every handler returns a state it has just built and that nobody else
    # holds yet, so the log is set on it in place (a copy if a handler ever
    # returned its input, which must stay unchanged).
    if new is state:
        new = replace(state)
    object.__setattr__(new, "log", state.log + (action,))
    return new


# ---------------------------------------------------------------- auction (S13)


def _bid(state: HandState, action: Action) -> HandState:
    seat = action.seat
    cards = _cards(action.arg, action.verb)
    total = auction.check_bid(state.hands[seat], state.piles[seat], cards, state.highest, state.level)
    return replace(
        state,
        hands=_set_hand(state.hands, seat, remove_cards(state.hands[seat], cards)),
        piles=_set_hand(state.piles, seat, state.piles[seat] + cards),
        highest=total,
        to_act=auction.next_in_auction(seat, state.passed),
    )


def _pass(state: HandState, action: Action) -> HandState:
    seat = action.seat
    passed = state.passed + (seat,)
    if len(passed) < 3:
        return replace(state, passed=passed, to_act=auction.next_in_auction(seat, passed))
    winner = next(s for s in range(4) if s not in passed)
    hands = list(state.hands)
    taken = []
    gained: list[Card] = list(state.piles[winner])  # his own shown cards go back
    for s in state.auction_order:
        if s != winner and state.piles[s]:
            taken.append((s, len(state.piles[s])))
            gained.extend(state.piles[s])
    hands[winner] = hands[winner] + tuple(gained)
    return replace(
        state,
        passed=passed,
        auction_winner=winner,
        taken=tuple(taken),
        hands=tuple(hands),
        phase="trump",
        to_act=winner,
    )


# ---------------------------------------------------------- trump, 還牌 (S14)


def _trump(state: HandState, action: Action) -> HandState:
    suit = action.arg
    if not isinstance(suit, str) or suit.upper() not in SUIT_LETTERS:
        raise IllegalAction(f"name a trump suit: S, H, D or C, not {suit!r} (S14)", "S14")
    suit = suit.upper()
    dealer = state.dealer if state.dealer is not None else state.auction_winner  # S15
    level = state.match.hand_level(dealer)
    new = replace(
        state, trump=suit, ctx=TrumpContext(level, suit), dealer=dealer, level=level
    )
    if state.taken:
        return replace(new, phase="give", to_act=state.auction_winner)
    return _to_bury(new)


def _give(state: HandState, action: Action) -> HandState:
    seat = action.seat
    arg = action.arg
    if isinstance(arg, dict):
        arg = tuple(sorted(arg.items()))
    try:
        mapping = {int(s): _cards(cards, "give") for s, cards in arg}
    except (TypeError, ValueError, AttributeError):
        raise IllegalAction("還牌 maps each loser seat to cards (S14)", "S14") from None
    if len(mapping) != len(arg):
        raise IllegalAction("name each loser seat once (S14)", "S14")
    give_mod.check_give(state.hands[seat], state.owed, mapping, state.ctx)
    hands = list(state.hands)
    for loser, cards in mapping.items():
        hands[seat] = remove_cards(hands[seat], cards)
        hands[loser] = hands[loser] + cards
    given = tuple((s, mapping[s]) for s, _ in state.taken)
    return _to_bury(replace(state, hands=tuple(hands), given=given))


# ---------------------------------------------------------------- bury (S15)


def _to_bury(state: HandState) -> HandState:
    d = state.dealer
    hands = _set_hand(state.hands, d, state.hands[d] + state.kitty)
    return replace(state, hands=hands, phase="bury", to_act=d)


def _bury(state: HandState, action: Action) -> HandState:
    seat = action.seat
    cards = _cards(action.arg, action.verb)
    if len(cards) != KITTY_SIZE:
        raise IllegalAction(
            f"bury exactly {KITTY_SIZE} cards, not {len(cards)} (S15)", "S15"
        )
    if not holds(state.hands[seat], cards):
        raise IllegalAction("you can only bury cards you hold (S15)", "S15")
    return replace(
        state,
        hands=_set_hand(state.hands, seat, remove_cards(state.hands[seat], cards)),
        kitty=cards,
        buried=True,
        phase="play",
        to_act=seat,
        leader=seat,
    )


# ----------------------------------------------------------------- play (S8–S12, S15, S16)


_replace_lead = replacer("hands", "plays", "to_act", "lead_attempt")
_replace_follow = replacer("hands", "plays", "to_act")
_replace_trick = replacer(
    "hands", "plays", "lead_attempt", "tricks", "leader", "to_act", "played", "voids")


def _play(state: HandState, action: Action) -> HandState:
    seat = action.seat
    cards = _cards(action.arg, action.verb)
    hand = state.hands[seat]
    ctx = state.ctx
    if not cards:
        raise IllegalAction("play at least one card", "S8" if not state.plays else "S9")
    if not holds(hand, cards):
        raise IllegalAction("you can only play cards you hold", "S8" if not state.plays else "S9")
    attempt: tuple[Card, ...] = ()
    if not state.plays:
        lead = check_lead(hand, cards, ctx)
        stands, played = resolve_throw(lead, seat, dict(enumerate(state.hands)), ctx)
        played = tuple(played)
        if not stands:
            attempt = cards
            cards = played
    else:
        lead_cards = state.plays[0][1]
        check_follow(hand, lead_cards, cards, ctx, follow=state.match.follow)
    hands = _set_hand(state.hands, seat, remove_cards(hand, cards))
    plays = state.plays + ((seat, cards),)
    if len(plays) == 1:
        return _replace_lead(state, hands, plays, (seat + 1) % 4, attempt)
    if len(plays) < 4:
        return _replace_follow(state, hands, plays, (seat + 1) % 4)
    winner = trick_winner(plays, ctx)
    win_cards = next(c for s, c in plays if s == winner)
    trick = Trick(
        leader=state.leader,
        plays=plays,
        winner=winner,
        points=sum(card_points(c) for _, cs in plays for c in cs),
        failed_throw=bool(state.lead_attempt),
        attempted=state.lead_attempt,
        winner_all_trumps=all(ctx.is_trump(c) for c in win_cards),
    )
    tricks = state.tricks + (trick,)
    played = dict(state.played or {})
    info = ctx._t.info
    led = info[plays[0][1][0]][0]
    voids = list(state.voids)
    for s, cs in plays:
        for c in cs:
            played[c] = played.get(c, 0) + 1
        if s != plays[0][0] and led not in voids[s] and any(info[c][0] != led for c in cs):
            voids[s] = voids[s] | {led}
    new = _replace_trick(state, hands, (), (), tricks, winner, winner, played, tuple(voids))
    if any(hands):
        return new
    return _settle(new)


def _settle(state: HandState) -> HandState:
    attackers = 1 - team_of(state.dealer)
    x = sum(t.points for t in state.tricks if team_of(t.winner) == attackers)
    last = state.tricks[-1]
    penalties = scoring.spade_ace_penalties((t.plays, t.winner) for t in state.tricks)
    result = scoring.hand_result(
        state.match, state.dealer, x, state.kitty, last.winner, last.winner_all_trumps, penalties
    )
    return replace(state, phase="done", to_act=None, result=result)


_HANDLERS = {
    "bid": _bid,
    "pass": _pass,
    "trump": _trump,
    "give": _give,
    "bury": _bury,
    "play": _play,
}
