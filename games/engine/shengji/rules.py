"""The shengji :class:`~games.engine.base.GameRules` object (``RULES``).

>>> from games.engine.base import GameRules
>>> isinstance(RULES, GameRules), RULES.game, RULES.seats
(True, 'shengji', 4)

A whole hand with the C5 automatic actions::

    match = RULES.new_match()
    state = RULES.start_hand(match, RULES.deal(match, seed=7))
    while not RULES.is_complete(state):
        seat = RULES.to_act(state)
        state = RULES.apply(state, RULES.auto_action(state, seat))
    RULES.summary(state)["attackers_points"]
"""

from __future__ import annotations

from typing import Any

from ..base import Action, GameRules, IllegalAction, Ranking, RecordStat, gettext_noop
from ..options import Option
from ..cards import Card, format_cards
from . import aids as aids_mod
from . import auction, bots, give as give_mod, scoring
from . import deal as deal_mod
from . import match as match_mod
from . import state as state_mod
from . import view as view_mod
from .match import Match
from .state import PHASE_VERBS, SUIT_LETTERS, HandState
from .trumps import card_points
from .tricks import (
    candidate_follows,
    candidate_leads,
    follow_hint,
    smallest_follow,
    smallest_lead,
)
from .review import UNIT
from .review import review_problem
from .search import search_action
from ..cards import parse_cards
# FOLLOW_LIMIT: the follows offered by ``legal_actions`` (a representative
# set, never empty), shared with the heuristic play-out
from .playout import FOLLOW_LIMIT, heuristic_playout


def low_key(ctx):
    """Key for "lowest" cards (C5 kitty, 還牌): side-suit cards before trumps,
    then by S4 order, low first; equal cards in C6 order."""
    def key(c: Card):
        s, o, _ = ctx.info(c)
        return (s == "T", o, "SHDC".index(c.suit) if c.suit else 4)

    return key


def lowest_bury(hand, ctx) -> tuple[Card, ...]:
    """C5: the 8 lowest non-point cards (point cards only if fewer than 8)."""
    key = low_key(ctx)
    pool = sorted(hand, key=lambda c: (card_points(c) > 0, key(c)))
    return tuple(pool[:8])


class ShengjiRules(GameRules):
    """Four-deck 升級 with 比牌 (rulings S1–S18, C1–C6).  Stateless: every
    method takes the match or hand state and returns new values."""

    game = "shengji"
    seats = 4
    #: Room options a table may set (validated by the site); S-rules' follow variant.
    option_schema = {"follow": Option(choices=("format", "suit"), label="follow rule")}
    partner_slots = ((0, 2), (1, 3))  # S1: partners sit opposite

    # ------------------------------------------------------------ match
    def default_options(self) -> dict:
        return dict(match_mod.DEFAULT_OPTIONS)

    def new_match(self, options: dict | None = None, start: dict | None = None) -> Match:
        return match_mod.new_match(options, start)

    def match_to_json(self, match: Match) -> dict:
        return match_mod.match_to_json(match)

    def next_match(self, match: Match, state: HandState) -> Match:
        """Levels after the hand, next dealer (S15), winner (S2)."""
        if state.result is None:
            raise ValueError("the hand is not complete")
        r = state.result
        return Match(
            match.multiplier, match.follow, r.levels_after, r.next_dealer, r.match_winner
        )

    def match_winner(self, match: Match) -> int | None:
        return match_mod.match_winner(match)

    # ------------------------------------------------------------- deal
    def deal(self, match: Match, seed: int) -> deal_mod.Deal:
        return deal_mod.make_deal(match, seed)

    def deal_from_record(self, match: Match, hand: dict) -> deal_mod.Deal:
        return deal_mod.deal_from_record(match, hand)

    def deal_to_record(self, deal: deal_mod.Deal) -> dict:
        return deal_mod.deal_to_record(deal)

    # ------------------------------------------------------------ state
    def start_hand(self, match: Match, deal: deal_mod.Deal) -> HandState:
        return state_mod.start_hand(match, deal)

    def apply(self, state: HandState, action: Action) -> HandState:
        return state_mod.apply(state, action)

    def to_act(self, state: HandState) -> int | None:
        return state.to_act

    def phase(self, state: HandState) -> str:
        return state.phase

    def is_complete(self, state: HandState) -> bool:
        return state.phase == "done"

    def actions(self, state: HandState) -> tuple[Action, ...]:
        return state.log

    def legal_verbs(self, state: HandState, seat: int) -> frozenset[str]:
        if seat != state.to_act:
            return frozenset()
        verbs = PHASE_VERBS[state.phase]
        if state.phase == "auction" and auction.cheapest_bid(
            state.hands[seat], state.piles[seat], state.highest, state.level
        ) is None:
            return frozenset({"pass"})
        return verbs

    def legal_actions(self, state: HandState, seat: int) -> list[Action]:
        """Every legal action, or for card verbs a representative legal set:
        all bids that exceed (one per point combination), a few gives and
        buries, and for play the candidate leads/follows of ``tricks``."""
        if seat != state.to_act:
            return []
        phase = state.phase
        if phase == "auction":
            bids = auction.bid_options(
                state.hands[seat], state.piles[seat], state.highest, state.level
            )
            return [Action(seat, "pass", True)] + [Action(seat, "bid", b) for b in bids]
        if phase == "trump":
            return [Action(seat, "trump", s) for s in SUIT_LETTERS]
        if phase == "give":
            return [Action(seat, "give", g) for g in self.give_choices(state)]
        if phase == "bury":
            return [Action(seat, "bury", b) for b in self.bury_choices(state)]
        if phase == "play":
            return [Action(seat, "play", c) for c in self.play_choices(state, seat)]
        return []

    def give_choices(self, state: HandState) -> list[tuple]:
        """A few legal 還牌 choices (as ``Action.arg`` tuples)."""
        hand = state.hands[state.auction_winner]
        ctx = state.ctx
        owed = state.owed
        key = low_key(ctx)
        lengths: dict[str, int] = {}
        for c in hand:
            s = ctx.suit_of(c)
            lengths[s] = lengths.get(s, 0) + 1
        out = []
        for prefer in (
            None,
            lambda c: (ctx.suit_of(c) == "T", lengths[ctx.suit_of(c)]),
            lambda c: (ctx.suit_of(c) == "T", -lengths[ctx.suit_of(c)]),
        ):
            g = give_mod.choose_give(hand, owed, ctx, low_key=key, prefer=prefer)
            arg = tuple(sorted(g.items()))
            if arg not in out:
                out.append(arg)
        return out

    def bury_choices(self, state: HandState) -> list[tuple[Card, ...]]:
        """A few legal buries: the C5 one and one that voids the shortest side suit."""
        hand = state.hands[state.dealer]
        ctx = state.ctx
        out = [lowest_bury(hand, ctx)]
        b = bots.void_bury(hand, ctx)
        if b not in out:
            out.append(b)
        return out

    def play_choices(self, state: HandState, seat: int) -> list[tuple[Card, ...]]:
        hand = state.hands[seat]
        if not state.plays:
            return [tuple(c) for c in candidate_leads(hand, state.ctx)]
        lead_cards = state.plays[0][1]
        return [
            tuple(c)
            for c in candidate_follows(
                hand, lead_cards, state.ctx, state.match.follow, limit=FOLLOW_LIMIT
            )
        ]

    def auto_action(self, state: HandState, seat: int) -> Action:
        """C5: the smallest legal play, a pass in the auction, the 8 lowest
        non-point cards for the kitty, the lowest legal 還牌; trumps: the suit
        the seat holds most cards of."""
        if seat != state.to_act:
            raise IllegalAction(f"it is not seat {seat}'s turn", None)
        phase = state.phase
        hand = state.hands[seat]
        if phase == "auction":
            return Action(seat, "pass", True)
        if phase == "trump":
            counts = {s: 0 for s in SUIT_LETTERS}
            for c in hand:
                if c.suit:
                    counts[c.suit] += 1
            return Action(seat, "trump", max(SUIT_LETTERS, key=lambda s: counts[s]))
        if phase == "give":
            g = give_mod.choose_give(hand, state.owed, state.ctx, low_key=low_key(state.ctx))
            return Action(seat, "give", tuple(sorted(g.items())))
        if phase == "bury":
            return Action(seat, "bury", lowest_bury(hand, state.ctx))
        if phase == "play":
            if not state.plays:
                return Action(seat, "play", tuple(smallest_lead(hand, state.ctx)))
            return Action(
                seat,
                "play",
                tuple(smallest_follow(hand, state.plays[0][1], state.ctx, state.match.follow)),
            )
        raise IllegalAction("the hand is over", None)

    # -- review --------------------------------------------------------
    @property
    def review_unit(self):
        return UNIT

    def review_problem(self, state: HandState, action: Action, rng: Any) -> Any:
        """See :mod:`.review`."""

        return review_problem(self, state, action, rng)

    def bot_action(self, state: HandState, seat: int, policy: str, rng: Any,
                   search: Any = None) -> Action:
        """The action of bot ``policy`` (``"random"``, ``"heuristic"`` or
        ``"search"``) for ``seat``, decided from ``seat_view`` and the legal
        actions only.  ``search``: a :class:`~games.engine.search.SearchConfig`
        for the search bot (:mod:`.search`; default 300 ms per decision)."""
        if seat != state.to_act:
            raise IllegalAction(f"it is not seat {seat}'s turn", None)
        if policy == "search":

            return search_action(self, state, seat, rng, search)
        v = view_mod.seat_view(state, seat)
        return bots.decide(policy, v, _Legal(self, state, seat), rng)

    def bot_playout(self, state: HandState, rng: Any) -> HandState | None:
        """The play phase (S8–S12, scoring S15–S17) with the heuristic at
        every seat, run on mutable lists (:func:`.playout.heuristic_playout`):
        the same actions and end state as stepping :meth:`bot_action`
        ``"heuristic"`` and :meth:`apply`.  None before the play phase (the
        auction, trumps, 還牌 and the bury are stepped) and once the hand is
        over.  The heuristic does not draw from ``rng`` in play."""
        if state.phase != "play":
            return None
        return heuristic_playout(state)

    # ------------------------------------------------------------- output
    def follow_hint(self, state: HandState, seat: int) -> str | None:
        """A hint for a follower (what the S9 obligations require), else None."""
        if state.phase != "play" or seat != state.to_act or not state.plays:
            return None
        return follow_hint(state.hands[seat], state.plays[0][1], state.ctx, state.match.follow)

    def view(self, state: HandState, seat: int | None) -> dict:
        hint = self.follow_hint(state, seat) if seat is not None else None
        legal = sorted(self.legal_verbs(state, seat)) if seat is not None else []
        return view_mod.view(state, seat, hint=hint, legal=legal)

    def seat_aids(self, state: HandState, seat: int | None) -> dict:
        """The 升级 table's aids for ``seat`` (suit of play of its cards, the
        lead's suit, the trump order, the cheapest bid, the 还牌 limits):
        :func:`.aids.seat_aids`."""
        return aids_mod.seat_aids(self, state, seat)

    def give_can_complete(self, state: HandState, partial: dict) -> tuple[bool, str | None]:
        """For the UI during 還牌: can ``partial`` (loser seat -> cards picked so
        far, codes or cards) still be completed to a legal give?  (S14)"""

        if state.phase != "give":
            return False, "not the 還牌 phase"
        sel = {int(s): parse_cards(c) for s, c in partial.items()}
        return give_mod.can_complete(
            state.hands[state.auction_winner], state.owed, sel, state.ctx
        )

    def summary(self, state: HandState) -> dict:
        """The hand object of the replay output (hand-record spec)."""
        out: dict = {"complete": state.phase == "done"}
        if state.phase != "done":
            out["phase"] = state.phase
            out["to_act"] = state.to_act
        out.update(
            opener=state.deal.opener,
            shown_card=state.deal.shown.code if state.deal.shown else None,
            auction_winner=state.auction_winner,
            trump=state.trump,
            level=state.level,
            dealer=state.dealer,
            tricks=[
                {
                    "leader": t.leader,
                    "winner": t.winner,
                    "points": t.points,
                    "plays": {str(s): format_cards(c) for s, c in t.plays},
                    "failed_throw": t.failed_throw,
                }
                for t in state.tricks
            ],
            levels_before={"0": state.match.levels[0], "1": state.match.levels[1]},
        )
        r = state.result
        if r is None:
            out.update(
                attackers_points=None,
                kitty_points=None,
                kitty_multiplier=None,
                levels_after=None,
                levels_gained=None,
                next_dealer=None,
                game_points=None,
                match_winner=state.match.winner,
            )
        else:
            out.update(
                attackers_points=r.attackers_points,
                kitty_points=r.kitty_points,
                kitty_multiplier=r.kitty_multiplier,
                kitty=format_cards(state.kitty),
                levels_after={"0": r.levels_after[0], "1": r.levels_after[1]},
                levels_gained={"0": r.levels_gained[0], "1": r.levels_gained[1]},
                next_dealer=r.next_dealer,
                game_points={str(s): r.game_points[s] for s in range(4)},
                penalties={str(s): r.penalties[s] for s in range(4)},
                match_winner=r.match_winner,
            )
        return out

    record_stats = (
        RecordStat("levels", gettext_noop("每局升级"), "mean"),
        RecordStat("dealer_side", gettext_noop("坐庄率"), "rate"),
        RecordStat("spade_ace", gettext_noop("♠A 罚分"), "total"),
    )

    def seat_stats(self, summary: dict, seat: int) -> dict[str, float]:
        """S2/S17/S18: levels gained by ``seat``'s team, whether it was on
        the dealer's side, and the ♠A penalty points it paid (negative
        penalties only, room multiplier included)."""
        gained = summary.get("levels_gained")
        if not summary.get("complete") or gained is None:
            return {}
        team = match_mod.team_of(seat)
        penalty = (summary.get("penalties") or {}).get(str(seat), 0)
        return {
            "levels": gained.get(str(team), 0),
            "dealer_side": int(match_mod.team_of(summary["dealer"]) == team),
            "spade_ace": -min(0, penalty),
        }

    def ranking(self, summary: dict) -> Ranking | None:
        """S17 as two ranked teams of partners (seats 0+2 and 1+3, S1): the
        side that wins the hand by the result table (the defenders below 160
        attackers' points, kitty included, else the attackers) ranks 1.  None
        for an incomplete hand."""
        if not summary.get("complete") or summary.get("attackers_points") is None:
            return None
        winners, _steps, _gp = scoring.result_row(summary["attackers_points"])
        dealer_team = match_mod.team_of(summary["dealer"])
        win_team = dealer_team if winners == "defenders" else 1 - dealer_team
        teams = tuple(tuple(s for s in range(self.seats) if match_mod.team_of(s) == t) for t in (0, 1))
        return Ranking(teams, (1, 2) if win_team == 0 else (2, 1))


class _Legal:
    """The ``legal`` callable handed to :func:`.bots.decide`: ``legal()`` is
    :meth:`ShengjiRules.legal_actions`; ``play_args()`` the same plays as card
    tuples (what the heuristic reads), without building the actions."""

    __slots__ = ("rules", "state", "seat")

    def __init__(self, rules: ShengjiRules, state: HandState, seat: int):
        self.rules, self.state, self.seat = rules, state, seat

    def __call__(self) -> list[Action]:
        return self.rules.legal_actions(self.state, self.seat)

    def play_args(self) -> list[tuple[Card, ...]]:
        if self.seat != self.state.to_act or self.state.phase != "play":
            return [a.arg for a in self()]
        return self.rules.play_choices(self.state, self.seat)


RULES = ShengjiRules()
