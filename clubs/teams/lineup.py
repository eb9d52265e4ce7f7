"""A team's players and the pair each table of a match seats.

A team entry has ``2 × ENTRY_SIZE`` players (the game's pair twice: players
0-1 the first pair, 2-3 the second) and up to :data:`MAX_SUBSTITUTES`
substitutes after them.  At the first table of a match (leg 0) a team seats
its first pair, at the second (leg 1) its second pair; an organiser (or the
team's captain, player 0) swaps a substitute in for a player before a round
(:func:`clubs.running.teams.swap_players`).  Tables know their leg from the round's pairing
(``pairing["legs"]``, one per table).
"""

from __future__ import annotations

from .. import formats
from ..models import Event, EventTable
from ..tournament.teams import team_tables


def team_size(event: Event) -> int:
    """Players who sit in a team's match: two of the game's entries (2 × 2 for a pair game)."""
    return 2 * formats.hooks(event.game).ENTRY_SIZE


def entry_size(event: Event) -> int:
    """Players of one entry: a team's for team duplicate, else the game's."""
    return team_size(event) if event.is_teams else formats.hooks(event.game).ENTRY_SIZE


def leg_of(table: EventTable) -> int:
    """The leg (0: the first table of its match, 1: the second) of ``table``;
    0 outside team duplicate."""
    legs = (table.round.pairing or {}).get("legs") or []
    k = table.number - 1
    return int(legs[k]) if 0 <= k < len(legs) else 0


def player_offset(table: EventTable) -> int:
    """Where the pair a team seats at ``table`` starts among the team's players
    (0 for the first leg, ``ENTRY_SIZE`` for the second); 0 outside team duplicate."""
    event = table.round.event
    if not event.is_teams:
        return 0
    return leg_of(table) * formats.hooks(event.game).ENTRY_SIZE


def expand_pairing(pairing: dict) -> dict:
    """A pairing of teams (``tables`` of ``[A, B]``) made into the round's
    tables: each match twice, ``[A, B]`` then ``[B, A]``
    (:func:`clubs.tournament.teams.team_tables`), with ``matches`` (the
    pairs of teams) and ``legs`` (per table)."""
    matches = [list(t) for t in pairing.get("tables", [])]
    tables = team_tables(matches)
    return {**pairing, "matches": matches, "tables": [t["entries"] for t in tables],
            "legs": [t["leg"] for t in tables]}


__all__ = ["entry_size", "expand_pairing", "leg_of", "player_offset", "team_size"]
