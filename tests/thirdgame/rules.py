"""High card: a tiny trick game implementing the engine contract
(:class:`games.engine.base.GameRules`), for tests only.

Three seats, the nine spades A down to 6, three cards each.  The opener
leads any card, the others play any card in turn; the highest rank takes the
trick and leads the next.  After three tricks each seat scores (tricks taken
- 1) game points times the multiplier.  A view shows a seat its own hand
only.  Pure Python, immutable states, seeded deals.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from games.engine.base import Action, GameRules, IllegalAction, RecordError
from games.engine.cards import RANKS, Card, parse_cards

DECK = ("AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S")


def rank(card: Card) -> int:
    return RANKS.index(card.code[0])


@dataclass(frozen=True)
class Match:
    multiplier: int = 1
    opener: int = 0


@dataclass(frozen=True)
class State:
    match: Match
    deal: tuple  # the three dealt hands (tuples of Card)
    hands: tuple
    trick: tuple = ()  # ((seat, card), ...)
    leader: int = 0
    taken: tuple = (0, 0, 0)
    log: tuple = ()


class HighCardRules(GameRules):
    game = "highcard"
    seats = 3

    def default_options(self):
        return {"multiplier": 1}

    def new_match(self, options=None, start=None):
        mult = int((options or {}).get("multiplier", 1))
        if mult < 1:
            raise RecordError("multiplier must be at least 1")
        return Match(mult, int((start or {}).get("opener", 0)))

    def match_to_json(self, match):
        return {"options": {"multiplier": match.multiplier}, "start": {"opener": match.opener}}

    def deal(self, match, seed):
        cards = list(DECK)
        random.Random(seed).shuffle(cards)
        return tuple(parse_cards(sorted(cards[3 * s:3 * s + 3])) for s in range(3))

    def deal_from_record(self, match, hand):
        deal = hand.get("deal") or {}
        try:
            hands = tuple(parse_cards(deal[str(s)]) for s in range(3))
        except (KeyError, ValueError) as exc:
            raise RecordError(f"bad deal: {exc}") from None
        if sorted(c.code for h in hands for c in h) != sorted(DECK) or any(len(h) != 3 for h in hands):
            raise RecordError("wrong deck")
        return hands

    def deal_to_record(self, deal):
        return {"deal": {str(s): [c.code for c in deal[s]] for s in range(3)}}

    def start_hand(self, match, deal):
        return State(match, deal, deal, leader=match.opener)

    def to_act(self, state):
        if len(state.log) == 9:
            return None
        return (state.leader + len(state.trick)) % 3

    def phase(self, state):
        return "done" if self.is_complete(state) else "play"

    def legal_verbs(self, state, seat):
        return frozenset({"play"}) if self.to_act(state) == seat else frozenset()

    def legal_actions(self, state, seat):
        if self.to_act(state) != seat:
            return []
        return [Action(seat, "play", (c,)) for c in state.hands[seat]]

    def apply(self, state, action):
        seat = self.to_act(state)
        if seat is None:
            raise IllegalAction("the hand is over")
        if action.seat != seat:
            raise IllegalAction("it is not this seat's turn")
        if action.verb != "play" or len(action.cards) != 1 or action.cards[0] not in state.hands[seat]:
            raise IllegalAction("play one card of your hand")
        card = action.cards[0]
        hands = tuple(tuple(c for c in h if c != card) if i == seat else h for i, h in enumerate(state.hands))
        trick, leader, taken = state.trick + ((seat, card),), state.leader, state.taken
        if len(trick) == 3:
            winner = max(trick, key=lambda p: rank(p[1]))[0]
            taken = tuple(t + (i == winner) for i, t in enumerate(taken))
            trick, leader = (), winner
        return replace(state, hands=hands, trick=trick, leader=leader, taken=taken, log=state.log + (action,))

    def auto_action(self, state, seat):
        return Action(seat, "play", (min(state.hands[seat], key=rank),))

    def bot_action(self, state, seat, policy, rng):
        if policy == "random":
            return rng.choice(self.legal_actions(state, seat))
        return Action(seat, "play", (max(state.hands[seat], key=rank),))

    def view(self, state, seat):
        return {
            "phase": self.phase(state),
            "to_act": self.to_act(state),
            "hand": [c.code for c in state.hands[seat]] if seat is not None else [],
            "counts": {str(s): len(h) for s, h in enumerate(state.hands)},
            "trick": [{"seat": s, "card": c.code} for s, c in state.trick],
            "taken": list(state.taken),
        }

    def is_complete(self, state):
        return len(state.log) == 9

    def actions(self, state):
        return state.log

    def summary(self, state):
        out = {"complete": self.is_complete(state), "taken": list(state.taken)}
        if out["complete"]:
            out["game_points"] = {str(s): (t - 1) * state.match.multiplier for s, t in enumerate(state.taken)}
        else:
            out.update(phase="play", to_act=self.to_act(state))
        return out

    def next_match(self, match, state):
        return replace(match, opener=(match.opener + 1) % 3)

    def match_winner(self, match):
        return None


RULES = HighCardRules()
