"""Seat rules: another app may say who may take a seat of a room.

A club event's table seats only the players of the entry the pairing put at
that seat, or a substitute the organiser named (issue #21).  The games app
does not know about events: apps register a *rule* at start-up
(``AppConfig.ready``), an object with

``seat_refusal(room, user, index) -> str | None``
    None: nothing of this app's stops ``user`` taking seat ``index`` (0-based)
    of ``room`` (a ``games.models.Room``); otherwise a sentence (translated)
    saying why not.

``play_refusal(user) -> str | None`` (optional)
    None, or why ``user`` may not play at all now (a suspension): asked
    by :func:`play_refusal` for what is no seat yet (a club event's entry).

:func:`seat_refusal` asks every rule; the first sentence wins.
:func:`games.services.take_seat` asks it inside the room's lock and raises
``Forbidden`` (403) with the sentence.  Nothing here names a game or an app.
"""

from __future__ import annotations

_rules: list = []


def register(rule) -> None:
    """Add ``rule`` (once): an object with ``seat_refusal(room, user, index)``."""
    if rule not in _rules:
        _rules.append(rule)


def seat_refusal(room, user, index: int) -> str | None:
    """Why ``user`` may not take seat ``index`` of ``room``, or None."""
    for rule in _rules:
        reason = rule.seat_refusal(room, user, index)
        if reason:
            return reason
    return None


def play_refusal(user) -> str | None:
    """Why ``user`` may not play anywhere now (the rules that answer
    ``play_refusal``), or None."""
    for rule in _rules:
        ask = getattr(rule, "play_refusal", None)
        reason = ask(user) if ask else None
        if reason:
            return reason
    return None
