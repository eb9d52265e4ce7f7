"""The game-points ledger: the only way game points change (ruling C4).

C4: each account has game points (游戏积分) per game.  A ladder of titles maps
points to a title: the highest row whose threshold is ≤ the points; negative
points keep the first title.  Admins edit the ladder per game (``LevelTitle``).
Every change is multiplied by the room multiplier *before* it reaches
:func:`credit` — the ledger records the final figure.

Public API (used by ``games.services``; keep the names).  The games
themselves come from :mod:`accounts.catalog`:

- :func:`credit` — record one change and update the standing, atomically.
- :func:`points` — a user's points in one game.
- :func:`title_for` — the ladder row for a number of points.
- :func:`title_lookup` — the same for many point values from one read of the ladder.
- :func:`standings` — every game's (game, points, title) for one user.

Example::

    >>> entry = credit(alice, room.game, 2 * room.multiplier, hand=hand)  # doctest: +SKIP
    >>> points(alice, room.game)                                          # doctest: +SKIP
    2
    >>> title_for(room.game, 20).name                                     # doctest: +SKIP
    '學前班'
"""

from __future__ import annotations

import bisect

from django.db import transaction
from django.db.models import F

from .models import GAME_CODES, LevelTitle, PlayerStanding, PointsEntry

__all__ = ["credit", "points", "title_for", "title_lookup", "standings", "GAME_CODES"]


def _check_game(game: str) -> None:
    if game not in GAME_CODES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAME_CODES)}")


def credit(user, game: str, points: int, hand=None, reason: str = "hand") -> PointsEntry:
    """Add ``points`` (may be negative or 0) to ``user``'s standing in ``game`` (C4).

    ``points`` is the final figure: the caller has already multiplied it by the
    room multiplier (C4).  ``hand`` is the ``games`` hand that
    caused the change (a ``games.Hand``, its primary key, or ``None`` for an admin
    adjustment); ``reason``
    is a short code: ``"hand"``, ``"adjustment"`` or one of the game's own
    (``accounts.catalog.reason_label``).

    Runs in one transaction (joining the caller's, if any): the ``PointsEntry`` row
    is inserted and the ``PlayerStanding`` row is created if missing and then
    incremented with an ``F()`` expression, so concurrent credits never lose an
    update.  Returns the new entry.

    Raises ``ValueError`` for an unknown game and ``TypeError`` when ``points`` is
    not an ``int``.
    """
    _check_game(game)
    if isinstance(points, bool) or not isinstance(points, int):
        raise TypeError(f"points must be an int, got {type(points).__name__}")
    hand_id = hand if isinstance(hand, int) or hand is None else hand.pk
    with transaction.atomic():
        standing, _created = PlayerStanding.objects.get_or_create(user=user, game=game)
        PlayerStanding.objects.filter(pk=standing.pk).update(points=F("points") + points)
        return PointsEntry.objects.create(
            user=user, game=game, delta=points, hand_id=hand_id, reason=reason
        )


def points(user, game: str) -> int:
    """``user``'s current game points in ``game`` (0 for a user who never played it; C4)."""
    _check_game(game)
    value = (
        PlayerStanding.objects.filter(user=user, game=game).values_list("points", flat=True).first()
    )
    return int(value or 0)


def title_for(game: str, points: int) -> LevelTitle:
    """The ladder row for ``points`` in ``game`` (C4).

    C4: the highest row whose threshold is ≤ ``points``; negative points (below
    every threshold) keep the first row.  With the seeded ladder::

        title_for(game, -7).name     == "幼兒班"
        title_for(game, 19).name     == "幼兒班"
        title_for(game, 20).name     == "學前班"
        title_for(game, 371572).name == "校長"

    Raises ``ValueError`` for an unknown game and ``LevelTitle.DoesNotExist`` when
    the game's ladder is empty.
    """
    _check_game(game)
    ladder = LevelTitle.objects.filter(game=game)
    row = ladder.filter(threshold__lte=points).order_by("-threshold").first()
    if row is None:
        row = ladder.order_by("threshold").first()
    if row is None:
        raise LevelTitle.DoesNotExist(f"no LevelTitle rows for game {game!r}")
    return row


def title_lookup(game: str):
    """A function ``points -> LevelTitle`` answering :func:`title_for` for
    ``game`` from one read of the ladder (for lists: leaderboards)."""
    _check_game(game)
    ladder = list(LevelTitle.objects.filter(game=game).order_by("threshold"))
    if not ladder:
        raise LevelTitle.DoesNotExist(f"no LevelTitle rows for game {game!r}")
    thresholds = [row.threshold for row in ladder]

    def lookup(points: int) -> LevelTitle:
        return ladder[max(0, bisect.bisect_right(thresholds, points) - 1)]

    return lookup


def standings(user) -> list[tuple[str, int, LevelTitle]]:
    """``[(game, points, title), …]`` for ``user``, one per game in ``GAME_CODES`` order (C4).

    Games the user never played appear with 0 points and the first title.
    """
    held = dict(PlayerStanding.objects.filter(user=user).values_list("game", "points"))
    result = []
    for game in GAME_CODES:
        value = int(held.get(game, 0))
        result.append((game, value, title_for(game, value)))
    return result
