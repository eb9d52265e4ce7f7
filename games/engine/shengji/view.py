"""What one seat may know about a hand (hidden information is sacred).

:func:`seat_view` builds a :class:`SeatView` (cards as :class:`Card` objects, used
by the bots); :func:`view` turns it into the JSON the site renders.  A seat sees
its own cards, the number of cards of the others, everything played or shown
face up (比牌 piles, tricks), the 還牌 cards only if it gave or received them,
and the kitty only as the dealer (from the bury on) or after the hand.  ``seat``
None is a spectator: no hand, no 還牌 cards, no kitty before the end.

JSON shape (members may be added, never removed)::

    {"game": "shengji", "seat", "phase", "to_act", "hand": [codes], "counts":
     {"0": n, ...}, "levels": {"0", "1"}, "level", "dealer", "trump", "opener",
     "shown_card", "piles": {"0": [codes], ...}, "pile_points": {...}, "highest",
     "passed": [seats], "auction_winner", "owed": {"1": n, ...}, "given": {...},
     "kitty": [codes] | null, "trick": {"leader", "plays": [{"seat", "cards"}],
     "winning": seat | null (the play winning so far, S10)},
     "last_trick": {...} | null, "tricks_played", "points_won": {"0": n, ...},
     "attackers_points", "failed_throw": {"seat", "played", "attempted"} | null,
     "legal": [verbs], "hint": str | null, "result": null | {...}}

``failed_throw`` never says who stopped the throw (S11/S12).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Card, format_cards
from .match import team_of
from .shapes import slot_builder
from .state import PHASE_VERBS, HandState
from .tricks import current_winner
from .trumps import bid_points


@dataclass(frozen=True, slots=True)
class SeatView:
    """The information of one seat, as engine objects (for bots).

    ``played``: card -> count of every card in the completed tricks (public);
    ``voids``: by seat, the suits of play it showed void in (public); ``tricks``:
    the completed tricks; ``hand`` is empty for a spectator.
    """

    seat: int | None
    phase: str
    to_act: int | None
    hand: tuple[Card, ...]
    counts: tuple[int, int, int, int]
    levels: tuple[str, str]
    level: str
    dealer: int | None
    trump: str | None
    ctx: Any
    opener: int
    shown_card: Card | None
    piles: tuple[tuple[Card, ...], ...]
    highest: int
    passed: tuple[int, ...]
    auction_winner: int | None
    owed: tuple[tuple[int, int], ...]
    given: tuple[tuple[int, tuple[Card, ...]], ...]
    kitty: tuple[Card, ...] | None
    leader: int | None
    plays: tuple[tuple[int, tuple[Card, ...]], ...]
    tricks: tuple
    played: dict
    voids: tuple
    failed_attempt: tuple[Card, ...]
    multiplier: int
    follow: str
    result: Any

    @property
    def attackers_points(self) -> int | None:
        """Points the attackers have won in tricks so far (kitty added at the end)."""
        if self.dealer is None:
            return None
        if self.result is not None:
            return self.result.attackers_points
        att = 1 - team_of(self.dealer)
        return sum(t.points for t in self.tricks if team_of(t.winner) == att)


#: ``SeatView(*values)`` in field order, each slot set through its own
#: descriptor (:func:`.shapes.slot_builder`; tests/engine/test_shengji_view.py).
_build_view = slot_builder(SeatView)


def seat_view(state: HandState, seat: int | None) -> SeatView:
    """The :class:`SeatView` of ``seat`` (None: a spectator)."""
    done = state.phase == "done"
    hand = state.hands[seat] if seat is not None else ()
    if seat is None:
        given: tuple = ()
    elif seat == state.auction_winner:
        given = state.given
    else:
        given = tuple((s, c) for s, c in state.given if s == seat)
    if done:
        kitty = state.kitty
    elif seat is not None and seat == state.dealer and state.phase in ("bury", "play"):
        # bury: the dealt kitty (already in his hand); play: what he buried
        kitty = state.kitty
    else:
        kitty = None
    match = state.match
    deal = state.deal
    return _build_view(
        seat, state.phase, state.to_act, hand, tuple(map(len, state.hands)),
        match.levels, state.level, state.dealer, state.trump, state.ctx, deal.opener,
        deal.shown, state.piles, state.highest, state.passed, state.auction_winner,
        state.taken, given, kitty, state.leader, state.plays, state.tricks,
        state.played or {}, state.voids, state.lead_attempt, match.multiplier,
        match.follow, state.result,
    )


def _sorted_codes(cards, ctx, level: str | None = None) -> list[str]:
    if ctx is not None:
        return format_cards(sorted(cards, key=ctx.sort_key))
    return format_cards(sorted(cards, key=lambda c: _neutral_key(c, level)))


_SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3, None: 4}
_RANK_INDEX = {r: i for i, r in enumerate("23456789TJQKA")} | {"SJ": 20, "BJ": 21}


def _neutral_key(card: Card, level: str | None):
    """Before trumps are named: the 比牌 first (most auction points first), then
    the suits S, H, D, C, each high to low (C6 between equal cards)."""
    bp = bid_points(card, level) if level else 0
    return (-bp, _SUIT_INDEX[card.suit], -_RANK_INDEX[card.rank])


def _plays_json(plays) -> list[dict]:
    return [{"seat": s, "cards": format_cards(c)} for s, c in plays]


def result_json(state: HandState) -> dict | None:
    """The settled result (S16–S18) as JSON, or None before the end."""
    r = state.result
    if r is None:
        return None
    return {
        "attackers_points": r.attackers_points,
        "kitty_points": r.kitty_points,
        "kitty_multiplier": r.kitty_multiplier,
        "winners": r.winners,
        "levels_before": {"0": r.levels_before[0], "1": r.levels_before[1]},
        "levels_after": {"0": r.levels_after[0], "1": r.levels_after[1]},
        "levels_gained": {"0": r.levels_gained[0], "1": r.levels_gained[1]},
        "next_dealer": r.next_dealer,
        "game_points": {str(s): r.game_points[s] for s in range(4)},
        "penalties": {str(s): r.penalties[s] for s in range(4)},
        "match_winner": r.match_winner,
    }


def view(state: HandState, seat: int | None, hint: str | None = None,
         legal: list[str] | None = None) -> dict:
    """The JSON view of ``seat`` (see the module docstring); ``legal`` overrides
    the verbs of the phase (e.g. only ``pass`` when no bid can exceed)."""
    v = seat_view(state, seat)
    ctx = state.ctx
    level = state.level
    last = state.tricks[-1] if state.tricks else None
    failed = None
    if state.lead_attempt and state.plays:
        failed = {
            "seat": state.plays[0][0],
            "played": format_cards(state.plays[0][1]),
            "attempted": format_cards(state.lead_attempt),
        }
    points_won = [0, 0, 0, 0]
    for t in state.tricks:
        points_won[t.winner] += t.points
    if legal is None:
        legal = sorted(PHASE_VERBS[state.phase]) if seat is not None and seat == state.to_act else []
    return {
        "game": "shengji",
        "seat": seat,
        "phase": state.phase,
        "to_act": state.to_act,
        "hand": _sorted_codes(v.hand, ctx, level),
        "counts": {str(s): n for s, n in enumerate(v.counts)},
        "levels": {"0": v.levels[0], "1": v.levels[1]},
        "level": level,
        "dealer": v.dealer,
        "trump": v.trump,
        "opener": v.opener,
        "shown_card": v.shown_card.code if v.shown_card is not None else None,
        "piles": {str(s): format_cards(p) for s, p in enumerate(v.piles)},
        "pile_points": {
            str(s): sum(bid_points(c, level) for c in p) for s, p in enumerate(v.piles)
        },
        "highest": v.highest,
        "passed": list(v.passed),
        "auction_winner": v.auction_winner,
        "owed": {str(s): n for s, n in v.owed},
        "given": {str(s): format_cards(c) for s, c in v.given},
        "kitty": _sorted_codes(v.kitty, ctx) if v.kitty is not None else None,
        "trick": {"leader": state.leader, "plays": _plays_json(state.plays),
                  "winning": current_winner(state.plays, ctx)}
        if state.phase == "play"
        else None,
        "last_trick": {
            "leader": last.leader,
            "winner": last.winner,
            "points": last.points,
            "plays": _plays_json(last.plays),
            "failed_throw": bool(last.failed_throw),
        }
        if last
        else None,
        "tricks_played": len(state.tricks),
        "points_won": {str(s): points_won[s] for s in range(4)},
        "attackers_points": v.attackers_points,
        "failed_throw": failed,
        "legal": legal,
        "hint": hint,
        "result": result_json(state),
    }
