"""What a service call answers besides its effect: refusals and outcomes.

A refused request raises a :class:`ServiceError` subclass (nothing changed);
a versioned call returns an :class:`Outcome` (``applied`` False when the
version the caller saw was stale, again with nothing changed).
"""

from __future__ import annotations

from dataclasses import dataclass


class ServiceError(Exception):
    """A refused request.  ``message`` is for the player; ``status`` the HTTP
    status a view should answer with; ``rule`` the ruling id when the engine
    named one."""

    status = 400

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule


class IllegalMove(ServiceError):
    """The engine refused the action (``IllegalAction``); its message is kept."""

    status = 400


class InvalidRequest(ServiceError):
    """A payload that is not an action at all (bad verb, unknown card)."""

    status = 400


class Forbidden(ServiceError):
    """Not this user's seat, turn or room."""

    status = 403


class Conflict(ServiceError):
    """The room is not in a state that allows this (seat taken, room full …)."""

    status = 409


@dataclass(frozen=True)
class Outcome:
    """Result of a versioned call: ``applied`` False means the version was
    stale (someone else acted first) and nothing changed; ``version`` is the
    room's version after the call."""

    applied: bool
    version: int
    reason: str = ""
