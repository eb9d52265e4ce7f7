"""Deal plans: another app may decide about a room's deals (club events).

The services ask :func:`may_deal` before dealing and :func:`plan` for the
seed and the start of the hand they are about to deal.  Apps register a
planner at start-up (``AppConfig.ready``); a planner is an object with

``may_deal(room) -> bool | None``
    False: deal no further hand at this table (a round's hands are played, or
    its clock ran out); True: deal even if every seat is a bot (an event table
    of bot entries) or every human is on 托管 (an event table deals through its
    round); None: the room is not the planner's, the usual rules apply
    (a table of bots only is not dealt to, and so on).
``plan(room) -> DealPlan | None``
    the seed (C3) and carry-in of the next hand (a duplicate board: the same
    deal and start at every table, no tribute carried in), or None for the
    usual new seed and carry-over.

``turn_seconds(room, seat) -> int | None`` (optional)
    the time limit (C5) of a human at ``seat`` when it is not the room's
    (an arena player who went berserk: half of it), or None.  Asked at every
    deadline of a human's turn: a planner answers from memory, not a query.
``scored(room) -> bool | None`` (optional)
    False: the room's hands credit no game points and rate nobody (a deal
    played again whose cards the player knows); None or True: as usual.

The first planner that answers (not None) decides.  Nothing here names a game
or an app; the services stay game-generic.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from hooks import Hooks

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DealPlan:
    """``seed``: the shuffle seed of the hand; ``start``: the engine's
    ``match_to_json`` to deal from (``rules.new_match(**start)``), replacing
    the carry-over from the previous hand."""

    seed: int
    start: dict


#: The apps' planners (the site's one way to ask the apps above: hooks/__init__.py).
_planners = Hooks("deal planners")


def register(planner) -> None:
    """Add ``planner`` (once; see the module docstring for its two methods)."""
    _planners.add(planner)


def may_deal(room) -> bool | None:
    """The first planner's verdict about dealing another hand at ``room``."""
    return _planners.first("may_deal", room)


def plan(room) -> DealPlan | None:
    """The first planner's :class:`DealPlan` for ``room``'s next hand, or None."""
    return _planners.first("plan", room)


def turn_seconds(room, seat: int) -> int:
    """The time limit (seconds) of the human at ``seat``: a planner's answer,
    else the room's ``turn_seconds``."""
    own = _planners.first("turn_seconds", room, seat)
    return int(own) if own else room.turn_seconds


def scored(room) -> bool:
    """False when a planner says ``room``'s hands are not scored (no ledger
    credit, no ``hand_scored``); True otherwise."""
    verdict = _planners.first("scored", room)
    return True if verdict is None else bool(verdict)
