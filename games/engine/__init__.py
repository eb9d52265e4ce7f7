"""Pure-Python rules engines (no Django imports).

``get_rules(game)`` returns the :class:`~games.engine.base.GameRules` object of
``"baohuang"`` or ``"shengji"`` (the built-in engines, :data:`GAMES`), or of
a game whose rules were added with :func:`register_rules` (the site's game
registry does that for every registered game; a test game, for example).
"""

from __future__ import annotations

import importlib

from .base import Action, GameRules, IllegalAction, RecordError

GAMES = ("shengji", "baohuang")

_extra: dict[str, GameRules] = {}


def get_rules(game: str) -> GameRules:
    """The rules object for ``game``; ``KeyError`` for an unknown game."""
    extra = _extra.get(game)
    if extra is not None:
        return extra
    if game not in GAMES:
        raise KeyError(f"unknown game {game!r}; known: {', '.join(known_games())}")
    module = importlib.import_module(f"games.engine.{game}")
    return module.RULES


def register_rules(rules: GameRules) -> None:
    """Make ``rules`` (its ``game`` code) known to :func:`get_rules`; a
    built-in game's own rules object is accepted and changes nothing."""
    if rules.game in GAMES:
        if rules is not get_rules(rules.game):
            raise ValueError(f"{rules.game!r} is a built-in engine")
        return
    _extra[rules.game] = rules


def unregister_rules(game: str) -> None:
    """Forget a game added with :func:`register_rules` (tests)."""
    _extra.pop(game, None)


def known_games() -> tuple[str, ...]:
    """The built-in games and those registered since."""
    return GAMES + tuple(g for g in _extra if g not in GAMES)


__all__ = [
    "Action", "GameRules", "IllegalAction", "RecordError", "get_rules", "GAMES",
    "register_rules", "unregister_rules", "known_games",
]
