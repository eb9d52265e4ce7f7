"""The per-game tournament hooks, found by game code.

A game that can be played in club events names a module of hooks in its
``GameSpec.tournament`` (:mod:`games.registry`; the two games keep theirs in
``games/engine/<game>/tournament.py``, pure, no Django) with:

``SHAPE``              ``"match"`` (entry against entry) or ``"table"`` (individuals)
``ENTRY_SIZE``         players per entry (2 for a fixed pair, 1 for an individual)
``ENTRIES_PER_TABLE``  entries at one table
``seat_plan()``        per seat: ``(entry index at the table, player index in the entry)``
``round_result(summaries)``  per entry index: a dict (``margin``/``points`` for a
                       match, ``points``/``firsts`` for a table; ``hands`` counted)
``board_scores(summary)``    per entry index: the duplicate board score, or None
``team_board_scores(summary)`` optional: per entry index, the team-duplicate board
                       score (finer than ``board_scores``; docs/tournaments.md "Team duplicate")
``board_roles(summary)``     optional: per entry index, the side or role it played
                       on the board (a msgid, translated when shown), or None
``points_in_play(view)``     optional: per entry index, the points won so far in the
                       hand in play, from the engine's spectator view (the live page)

This module never names a game: it looks the hooks up by the event's game code.
"""

from __future__ import annotations

from types import ModuleType

from games import registry


class NoTournament(LookupError):
    """The game has no tournament hooks."""


def hooks(game: str) -> ModuleType:
    """The tournament hooks of ``game`` (its ``GameSpec.tournament`` in the
    game registry); raises :class:`NoTournament`."""
    spec = registry.find(game)
    if spec is None or spec.tournament is None:
        raise NoTournament(game)
    return spec.tournament


def is_match(game: str) -> bool:
    """True for a match event (two entries per table), False for a table event."""
    return hooks(game).SHAPE == "match"
