"""Replaying hand records (``shared/spec/hand-record.md``) with the real engine.

>>> replay_record({"format": "hand-record/1", "game": "baohuang", "hands": []})
Traceback (most recent call last):
...
games.engine.base.RecordError: hands must list at least one hand

No database is touched.  Exit statuses: 0 every action legal; 1 an action was
illegal (the output carries ``error`` and the replay stops there); 2 the record
is not valid at all (raised as :class:`RecordError`).
"""

from __future__ import annotations

from typing import Any

from . import get_rules, known_games
from .base import Action, IllegalAction, RecordError

FORMAT = "hand-record/1"


def replay_record(record: Any) -> tuple[dict, int]:
    """Replay ``record`` (parsed JSON).  Returns ``(output, status)`` with
    status 0 or 1; raises :class:`RecordError` for an invalid record (status 2).
    """
    if not isinstance(record, dict):
        raise RecordError("a hand record must be a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, got {record.get('format')!r}")
    game = record.get("game")
    if game not in known_games():
        raise RecordError(f"unknown game {game!r}; expected one of {', '.join(known_games())}")
    rules = get_rules(game)
    options = record.get("options")
    if options is not None and not isinstance(options, dict):
        raise RecordError("options must be an object")
    start = record.get("start")
    if start is not None and not isinstance(start, dict):
        raise RecordError("start must be an object")
    players = record.get("players")
    if players is not None and (
        not isinstance(players, list) or len(players) != rules.seats
    ):
        raise RecordError(f"players must list {rules.seats} names")
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RecordError("hands must be a list")
    if not hands:  # nothing to check is not a checked record (#22)
        raise RecordError("hands must list at least one hand")

    # Shape of every action first: a malformed action anywhere makes the whole
    # file invalid (status 2), even after an illegal one.
    parsed: list[list[Action]] = []
    for h, hand in enumerate(hands):
        if not isinstance(hand, dict):
            raise RecordError(f"hand {h} must be an object")
        raw = hand.get("actions", [])
        if not isinstance(raw, list):
            raise RecordError(f"hand {h}: actions must be a list")
        try:
            parsed.append([Action.from_record(a, rules.seats) for a in raw])
        except RecordError as exc:
            raise RecordError(f"hand {h}: {exc}") from None

    match = rules.new_match(options, start)
    out_hands: list[dict] = []
    for h, (hand, actions) in enumerate(zip(hands, parsed)):
        try:
            deal = rules.deal_from_record(match, hand)
        except RecordError as exc:
            raise RecordError(f"hand {h}: {exc}") from None
        state = rules.start_hand(match, deal)
        for a, action in enumerate(actions):
            try:
                state = rules.apply(state, action)
            except IllegalAction as exc:
                out_hands.append(rules.summary(state))
                return (
                    {
                        "hands": out_hands,
                        "error": {"hand": h, "action": a, "message": exc.message},
                    },
                    1,
                )
        out_hands.append(rules.summary(state))
        if rules.is_complete(state):
            match = rules.next_match(match, state)
        elif h < len(hands) - 1:
            return (
                {
                    "hands": out_hands,
                    "error": {
                        "hand": h,
                        "action": len(actions),
                        "message": f"hand {h} is not complete but another hand follows",
                    },
                },
                1,
            )
    return {"hands": out_hands}, 0
