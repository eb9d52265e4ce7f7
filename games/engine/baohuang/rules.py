"""The :class:`~games.engine.base.GameRules` object of 保皇 (``RULES``).

Order of a hand: deal (B1) → 買3 (B7, automatic) → crown decisions (B8) →
tribute (B13, automatic) → one declaration (solo by the emperor if he holds
``4H*`` (B9), else guard by the ``4H*`` holder (B10)) → play led by the emperor
(B5) → scoring (B12).  A deal voided by the crown ends the hand with
``voided: true``; :meth:`BaohuangRules.next_match` then keeps the tribute owed.

>>> from games.engine.baohuang import RULES
>>> m = RULES.new_match()
>>> st = RULES.start_hand(m, RULES.deal(m, 1))
>>> RULES.phase(st), RULES.legal_verbs(st, RULES.to_act(st))
('crown', frozenset({'crown'}))
"""

from __future__ import annotations

import random
from typing import Any

from ..base import Action, GameRules, IllegalAction, Ranking, RecordError, RecordStat, gettext_noop
from ..cards import Card
from . import bots
from .buy3 import buy_threes
from .crown import apply_crown, apply_declaration, bj_holder, declaring_verb
from .deal import Deal, deal_cards
from .deal import deal_from_record as _deal_from_record
from .order import KIND_OF, KINDS, by_rank_cards, rank_counts, shape_to_cards
from .play import _FACTS as _PLAY_FACTS
from .play import apply_pass, apply_play, apply_yield
from .playout import heuristic_playout
from .scoring import score
from .sets import beating_shapes, lead_shapes
from .state import HandState, Match, Previous, new_state, parse_options
from .tribute import leave_settlement, match_after_leave
from .view import PUBLIC_KEYS, knowledge, legal_verbs, view, view_from_public
from .review import UNIT
from .review import review_problem
from .search import search_action


class BaohuangRules(GameRules):
    """保皇 for five seats.  Every method is documented in
    :class:`~games.engine.base.GameRules`; baohuang specifics are noted here."""

    game = "baohuang"
    seats = 5
    #: Room options a table may set besides the multiplier: none.
    option_schema: dict = {}
    partner_slots = ()  # B10: the guard is secret, no fixed partners

    # -- match -----------------------------------------------------------
    def default_options(self) -> dict:
        return {"multiplier": 1}

    def new_match(self, options: dict | None = None, start: dict | None = None) -> Match:
        """``start`` may carry ``previous`` (the previous hand's summary subset)."""
        mult = parse_options(options)
        prev = None
        if start is not None:
            if not isinstance(start, dict):
                raise RecordError("start must be an object")
            if start.get("previous") is not None:
                prev = Previous.from_json(start["previous"])
        return Match(mult, prev)

    def match_to_json(self, match: Match) -> dict:
        return match.to_json()

    def match_winner(self, match: Match) -> None:
        return None

    def leave_settlement(self, match: Match, seat: int) -> dict[int, int]:
        """B14: see :func:`.tribute.leave_settlement`."""
        return leave_settlement(match, seat)

    def match_after_leave(self, match: Match) -> Match:
        """B14: the match once a player has left (the tribute lapses)."""
        return match_after_leave(match)

    def carry_in_pending(self, state: HandState) -> bool:
        """B13/B14: tribute is paid when the crown is accepted, so it is
        still owed during the crown phase."""
        return state.phase == "crown"

    # -- deal ------------------------------------------------------------
    def deal(self, match: Match, seed: int) -> Deal:
        return deal_cards(seed)

    def deal_from_record(self, match: Match, hand: dict) -> Deal:
        return _deal_from_record(hand)

    def deal_to_record(self, deal: Deal) -> dict:
        return deal.to_record()

    def start_hand(self, match: Match, deal: Deal) -> HandState:
        """Deal and 買3 (B7); the crown offer goes to the holder of ``BJ*``."""
        hands = [[0] * len(KINDS) for _ in range(5)]
        for s, cards in enumerate(deal.hands):
            for c in cards:
                hands[s][KIND_OF[c]] += 1
        bought = buy_threes(hands)
        holder = bj_holder(hands)
        return new_state(
            match=match, deal=deal, hands=tuple(tuple(h) for h in hands),
            rcs=tuple(rank_counts(h) for h in hands), sizes=tuple(sum(h) for h in hands),
            phase="crown", to_act=holder, bought=tuple(bought), crown_first=holder,
            crown_holder=holder,
        )

    # -- actions ---------------------------------------------------------
    def apply(self, state: HandState, action: Action) -> HandState:
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}")
        verb, seat = action.verb, action.seat
        phase = state.phase
        if phase == "done" or phase == "voided":
            raise IllegalAction("the hand is over", "B11")
        if verb == "play":
            arg = action.arg
            new = apply_play(state, seat, arg)
            # A tuple of cards is in the play-facts memo once applied (it is
            # memoized exactly when every item is a Card): no per-card check.
            if type(arg) is not tuple or arg not in _PLAY_FACTS:
                for c in arg:
                    if not isinstance(c, Card):
                        action = Action(seat, "play", tuple(Card.parse(c) for c in arg))
                        break
        elif verb == "pass" or verb == "yield":
            new = apply_pass(state, seat) if verb == "pass" else apply_yield(state, seat)
            if action.arg is not True:
                action = Action(seat, verb, True)
        elif verb == "crown":
            new = apply_crown(state, seat, action.arg)
        elif verb in ("solo", "guard"):
            new = apply_declaration(state, seat, verb, action.arg)
        else:
            raise IllegalAction(f"{verb!r} is not a baohuang action")
        new._log = [state._log, action]  # the log, linked (HandState.log)
        return new

    def to_act(self, state: HandState) -> int | None:
        return state.to_act

    def phase(self, state: HandState) -> str:
        return state.phase

    def legal_verbs(self, state: HandState, seat: int) -> frozenset[str]:
        return frozenset(legal_verbs(state, seat))

    def legal_shapes(self, state: HandState, seat: int) -> list[tuple]:
        """Rank shapes of the legal plays of ``seat`` now (B3–B6), distinct."""
        if state.phase != "play" or state.to_act != seat:
            return []
        if state.top is None:
            return lead_shapes(state.rcs[seat])
        return beating_shapes(state.rcs[seat], state.top[2])

    def legal_actions(self, state: HandState, seat: int) -> list[Action]:
        """All distinct legal actions (plays distinct by rank multiset; the cards
        named are the engine's C6 choice among equal cards)."""
        if state.to_act != seat:
            return []
        ph = state.phase
        if ph == "crown":
            return [Action(seat, "crown", "accept"), Action(seat, "crown", "pass")]
        if ph == "declare":
            verb = declaring_verb(state)
            return [Action(seat, verb, "open"), Action(seat, verb, "secret")]
        if ph != "play":
            return []
        hand = state.hands[seat]
        by_rank = by_rank_cards(hand)
        out = [Action(seat, "play", shape_to_cards(hand, sh, by_rank))
               for sh in self.legal_shapes(state, seat)]
        if state.top is not None:
            if not state.yielded >> seat & 1:
                out.append(Action(seat, "yield", True))
            out.append(Action(seat, "pass", True))
        return out

    def auto_action(self, state: HandState, seat: int) -> Action:
        """C5: "pass" on a crown offer, "secret" for a declaration, 過 when
        following, and when leading the smallest set (one card of the lowest rank)."""
        ph = state.phase
        if state.to_act != seat:
            raise IllegalAction("it is not this seat's turn")
        if ph == "crown":
            return Action(seat, "crown", "pass")
        if ph == "declare":
            return Action(seat, declaring_verb(state), "secret")
        if state.top is not None:
            return Action(seat, "pass", True)
        shapes = lead_shapes(state.rcs[seat])
        best = min(shapes, key=lambda sh: (len(sh), sh[0], sh))
        return Action(seat, "play", shape_to_cards(state.hands[seat], best))

    def hint(self, state: HandState, seat: int) -> Action | None:
        """A play to suggest (提示) to ``seat``: when leading the C5 smallest set,
        when following the smallest set that beats the top (fewest jokers and
        4H*, then the lowest rank); None when no play is legal now."""
        if state.phase != "play" or state.to_act != seat:
            return None
        if state.top is None:
            return self.auto_action(state, seat)
        shapes = beating_shapes(state.rcs[seat], state.top[2])
        if not shapes:
            return None
        best = min(shapes, key=lambda sh: (sum(r >= 13 for r in sh), sh[0], sh[::-1]))
        return Action(seat, "play", shape_to_cards(state.hands[seat], best))

    # -- review --------------------------------------------------------
    @property
    def review_unit(self):
        return UNIT

    def review_problem(self, state: HandState, action: Action, rng: Any) -> Any:
        """See :mod:`.review`."""

        return review_problem(state, action, rng)

    def bot_action(self, state: HandState, seat: int, policy: str, rng: Any = None,
                   search: Any = None) -> Action:
        """``random``: uniform over :meth:`legal_actions`; ``heuristic``: see
        :mod:`.bots`; ``search``: determinized Monte Carlo (:mod:`.search`,
        ``search`` a :class:`~games.engine.search.SearchConfig`, default 300 ms).
        All decide from the seat's own knowledge only."""
        if rng is None:
            rng = random.Random()
        if state.to_act != seat:
            raise IllegalAction("it is not this seat's turn")
        if policy == "heuristic":
            return heuristic_action(state, seat, rng)
        if policy == "random":
            acts = self.legal_actions(state, seat)
            return acts[rng.randrange(len(acts))]
        if policy == "search":

            return search_action(state, seat, rng, search)
        if policy == "auto":
            return self.auto_action(state, seat)
        raise ValueError(f"unknown bot policy {policy!r}; known: random, heuristic, search, auto")

    def bot_playout(self, state: HandState, rng: Any) -> HandState | None:
        """The play phase (B5, B6, B11) with the heuristic at every seat, run
        on mutable counts (:func:`.playout.heuristic_playout`): the same
        actions and end state as stepping :meth:`bot_action` ``"heuristic"``
        and :meth:`apply`.  None before the play phase (crown and declaration
        are stepped) and once the hand is over.  The heuristic does not draw
        from ``rng`` in play."""
        if state.phase != "play":
            return None
        return heuristic_playout(state)

    # -- reading -----------------------------------------------------------
    def view(self, state: HandState, seat: int | None) -> dict:
        summ = self.summary(state) if state.phase in ("done", "voided") else None
        return view(state, seat, summ)

    #: The keys of a view that are the same for every seat (:data:`.view.PUBLIC_KEYS`).
    public_keys = PUBLIC_KEYS

    def view_from_public(self, state: HandState, seat: int | None, public: dict) -> dict:
        """:meth:`view` for ``seat`` from ``public``, ``view(state, None)``:
        only the seat's own parts worked out (:func:`.view.view_from_public`;
        hidden information as B7, B8, B9, B10, B13 say)."""
        return view_from_public(state, seat, public)

    def is_complete(self, state: HandState) -> bool:
        return state.phase in ("done", "voided")

    def actions(self, state: HandState) -> tuple[Action, ...]:
        return state.log

    def summary(self, state: HandState) -> dict:
        """The replay hand object (hand-record spec, baohuang members) plus
        ``complete``, ``phase``/``to_act`` when incomplete, ``doublings`` and
        ``crown_passes``."""
        done = state.phase == "done"
        voided = state.phase == "voided"
        out: dict[str, Any] = {"complete": done or voided}
        if not (done or voided):
            out["phase"] = state.phase
            out["to_act"] = state.to_act
        out["voided"] = voided
        out["bought_threes"] = [
            {"buyer": b, "seller": s, "paid": p.code if p else None, "three": t.code}
            for b, s, p, t in state.bought
        ]
        out["crown_passes"] = list(state.crown_passed)
        out["emperor"] = state.emperor
        out["guard"] = state.guard
        out["solo"] = state.solo
        out["guard_declared"] = state.guard_declared
        out["tribute"] = [{"from": f, "to": t, "card": c.code} for f, t, c in state.tribute]
        out["finish_order"] = list(state.finished)
        if done:
            r = score(state.finished, state.emperor, state.guard, state.solo,
                      state.guard_declared, state.match.multiplier)
            out["emperor_side_score"] = r["emperor_side_score"]
            out["doublings"] = r["doublings"]
            out["winner"] = r["winner"]
            out["game_points"] = {str(s): v for s, v in r["game_points"].items()}
        else:
            out["emperor_side_score"] = None
            out["doublings"] = []
            out["winner"] = None
            out["game_points"] = {str(s): 0 for s in range(5)} if voided else None
        return out

    record_stats = (
        RecordStat("first", gettext_noop("头科率"), "rate"),
        RecordStat("emperor", gettext_noop("皇帝率"), "rate"),
        RecordStat("last", gettext_noop("大落率"), "rate"),
    )

    def seat_stats(self, summary: dict, seat: int) -> dict[str, float]:
        """B11/B8: whether ``seat`` finished first (头科) or last (大落) and
        whether it was the emperor; empty for a voided deal."""
        order = summary.get("finish_order") or []
        if summary.get("voided") or len(order) != self.seats:
            return {}
        return {
            "first": int(order[0] == seat),
            "emperor": int(summary.get("emperor") == seat),
            "last": int(order[-1] == seat),
        }

    def ranking(self, summary: dict) -> Ranking | None:
        """B12 as two ranked sides: the emperor's side (emperor and guard; the
        emperor alone when solo, B9, open or secret) against the rebels; the
        side with the positive score ranks 1, a 0 score (draw) ranks both 1.
        None for a voided (B8) or incomplete hand."""
        if not summary.get("complete") or summary.get("voided"):
            return None
        winner = summary.get("winner")
        if winner not in ("emperor", "rebels", "draw"):
            return None
        emperor = summary["emperor"]
        if summary.get("solo"):
            side: tuple[int, ...] = (emperor,)
        else:
            side = tuple(sorted((emperor, summary["guard"])))
        rebels = tuple(s for s in range(self.seats) if s not in side)
        ranks = {"emperor": (1, 2), "rebels": (2, 1), "draw": (1, 1)}[winner]
        return Ranking((side, rebels), ranks)

    def next_match(self, match: Match, state: HandState) -> Match:
        """After a completed hand: its result becomes ``previous`` (tribute, B13);
        after a voided deal the match is unchanged (the tribute stays owed)."""
        if state.phase == "voided":
            return match
        if state.phase != "done":
            raise ValueError("next_match needs a completed hand")
        prev = Previous(state.emperor, state.guard, state.solo, state.guard_declared,
                        tuple(state.finished))
        return Match(match.multiplier, prev)


#: The ``pass``/``yield`` actions of each seat, built once (actions are immutable).
_FLAG_ACTIONS = {verb: tuple(Action(seat, verb, True) for seat in range(5))
                 for verb in ("pass", "yield")}


def heuristic_action(state: HandState, seat: int, rng: Any = None, params: dict | None = None) -> Action:
    """The heuristic's action for ``seat`` (:func:`.bots.heuristic` with
    ``params``, default :data:`.bots.PARAMS`): the ``heuristic`` policy of
    ``bot_action``, and a candidate's move in ``scripts/tune_heuristic.py``."""
    verb, arg = bots.heuristic(knowledge(state, seat), rng, params)
    if verb == "play":
        return Action(seat, verb, shape_to_cards(state.hands[seat], arg))
    if arg is True:
        return _FLAG_ACTIONS[verb][seat]
    return Action(seat, verb, arg)


RULES = BaohuangRules()
