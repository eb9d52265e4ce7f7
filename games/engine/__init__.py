"""Pure-Python rules engines (no Django imports).

``get_rules(game)`` returns the :class:`~games.engine.base.GameRules` object of
``"baohuang"`` or ``"shengji"``.
"""

from __future__ import annotations

import importlib

from .base import Action, GameRules, IllegalAction, RecordError

GAMES = ("shengji", "baohuang")


def get_rules(game: str) -> GameRules:
    """The rules object for ``game``; ``KeyError`` for an unknown game."""
    if game not in GAMES:
        raise KeyError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    module = importlib.import_module(f"games.engine.{game}")
    return module.RULES


__all__ = ["Action", "GameRules", "IllegalAction", "RecordError", "get_rules", "GAMES"]
