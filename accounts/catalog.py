"""The games accounts keeps points for, as the app that runs them says.

accounts imports no other app of the project: the games app gives a provider
at start-up (:func:`provide`, from its ``AppConfig.ready``) that lists one
:class:`GameEntry` per game.  The ledger checks game codes against it, the
models' ``game`` fields take their choices from it (:func:`choices`, a
callable), profiles show its labels and ledger reasons, and every game
without a title ladder gets its default ladder after ``migrate``
(:func:`accounts.ladders.seed_missing_ladders`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from django.utils.translation import gettext_lazy as _

from hooks import Hooks


@dataclass(frozen=True)
class GameEntry:
    """One game: ``code`` (as stored in ``game`` fields), ``label`` (lazy
    text), its default ``ladder`` (``(level_no, name, threshold)`` rows, C4)
    and the ledger ``reasons`` it writes (code -> label)."""

    code: str
    label: Any
    ladder: tuple[tuple[int, str, int], ...] = ()
    reasons: Mapping[str, Any] = field(default_factory=dict)


#: Reasons any game's ledger rows may carry (``PointsEntry.reason``).
COMMON_REASONS = {"hand": _("牌局结算"), "adjustment": _("管理员调整")}

#: Who lists the games: an app adds an object with ``game_entries() -> iterable of
#: GameEntry`` (the site's one way to ask the apps above: hooks/__init__.py).
PROVIDERS = Hooks("game catalog")


def entries() -> list[GameEntry]:
    """Every game, in the providers' order (asked on every lookup, so a game
    added later is seen; empty when no app provides any)."""
    return [entry for batch in PROVIDERS.answers("game_entries") for entry in batch]


def codes() -> tuple[str, ...]:
    """The game codes, in order."""
    return tuple(e.code for e in entries())


def choices() -> list[tuple[str, Any]]:
    """``[(code, label)]``: the choices of the ``game`` fields."""
    return [(e.code, e.label) for e in entries()]


def label(code: str) -> Any:
    """The game's label, or ``code`` itself for an unknown game."""
    return next((e.label for e in entries() if e.code == code), code)


def reason_label(reason: str) -> Any | None:
    """The words for a ledger reason code, or None for free text."""
    if reason in COMMON_REASONS:
        return COMMON_REASONS[reason]
    for entry in entries():
        if reason in entry.reasons:
            return entry.reasons[reason]
    return None
