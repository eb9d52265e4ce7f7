"""Replaying hand records (``docs/spec/hand-record.md``) with the real engine.

>>> replay_record({"format": "hand-record/1", "game": "baohuang", "hands": []})
Traceback (most recent call last):
...
games.engine.base.RecordError: hands must list at least one hand

No database is touched.  Exit statuses: 0 every action legal; 1 an action was
illegal (the output carries ``error`` and the replay stops there); 2 the record
is not valid at all (raised as :class:`RecordError`).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from . import get_rules, known_games
from .base import Action, IllegalAction, RecordError

FORMAT = "hand-record/1"


def load_record(path: str, stdin=None) -> tuple[Any, str | None]:
    """Read and parse the hand-record file at ``path`` (``"-"``: ``stdin``,
    default ``sys.stdin``; a binary or a text stream) as the ``replay`` and
    ``review`` commands do, without checking it against the spec.

    Returns ``(record, None)`` with the parsed JSON value (any JSON value:
    :func:`replay_record` and :func:`games.engine.review.review_record`
    refuse what is not a record), or ``(None, sentence)``, one line in
    English, when the file is unusable; the commands print the sentence on
    stderr and exit 2 (the exit status of "not a valid hand record",
    ``docs/spec/hand-record.md``).  The sentences:

    * ``cannot read PATH: …`` (``OSError``: missing file, a directory, no permission);
    * ``not valid UTF-8: byte N cannot be decoded; …`` (a record is UTF-8 JSON);
    * ``not valid JSON: …`` (a syntax error, or a number Python refuses to
      parse, e.g. an integer of more than 4300 digits);
    * ``not a valid hand record: the JSON is nested too deeply``.

    Never raises for bad input; no database is touched.
    """
    try:
        if path == "-":
            stream = stdin if stdin is not None else sys.stdin
            data = getattr(stream, "buffer", stream).read()
        else:
            with open(path, "rb") as fh:
                data = fh.read()
    except OSError as exc:
        return None, f"cannot read {path}: {exc}"
    if isinstance(data, str):
        text = data
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            return None, (f"not valid UTF-8: byte {exc.start} cannot be decoded; "
                          "a hand record is UTF-8 JSON")
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON: {exc}"
    except RecursionError:
        return None, "not a valid hand record: the JSON is nested too deeply"
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        return None, f"not valid JSON: {exc}"


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
    if not hands:  # nothing to check is not a checked record
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
