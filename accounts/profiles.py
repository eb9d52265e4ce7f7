"""What a profile page shows: per-game points and title (C4) and recent play."""

from __future__ import annotations

from dataclasses import dataclass

from . import catalog, signals
from .ledger import standings
from .models import LevelTitle, PointsEntry
from hooks import Hooks

#: How many recent rows a profile lists.
RECENT_LIMIT = 20


@dataclass(frozen=True)
class GameStanding:
    """One game's line on a profile: points, current title and the next rung (C4)."""

    game: str
    label: str
    points: int
    title: LevelTitle
    next_title: LevelTitle | None

    @property
    def to_next(self) -> int | None:
        """Points still needed for the next title, ``None`` at the top of the ladder."""
        return None if self.next_title is None else self.next_title.threshold - self.points


def game_standings(user) -> list[GameStanding]:
    """The user's standings as :class:`GameStanding` rows, in ``GAME_CODES`` order."""
    rows = []
    for game, value, title in standings(user):
        upcoming = (
            LevelTitle.objects.filter(game=game, threshold__gt=max(value, title.threshold))
            .order_by("threshold")
            .first()
        )
        rows.append(GameStanding(game, str(catalog.label(game)), value, title, upcoming))
    return rows


def recent_entries(user, limit: int = RECENT_LIMIT):
    """The user's latest points entries, newest first."""
    return list(
        PointsEntry.objects.filter(user=user)
        .select_related("hand__match__room")
        .order_by("-created", "-id")[:limit]
    )


@dataclass
class MatchLine:
    """One match the user was credited in: room, game, hands credited, net points."""

    match_id: int
    room_id: int
    room_name: str
    game: str
    game_label: str
    multiplier: int
    hands: int
    delta: int
    last: object  # datetime of the latest entry
    last_hand_id: int | None = None


def recent_matches(user, limit: int = 10) -> list[MatchLine]:
    """The user's most recent matches, newest first, built from the ledger.

    A match appears once the user has a ``PointsEntry`` for one of its hands, so
    the figures shown are exactly what the ledger credited (C4).  Looks at the
    latest 500 entries at most.
    """
    entries = (
        PointsEntry.objects.filter(user=user, hand__isnull=False)
        .select_related("hand__match__room")
        .order_by("-created", "-id")[:500]
    )
    lines: dict[int, MatchLine] = {}
    hands: dict[int, set[int]] = {}
    for entry in entries:
        match = entry.hand.match
        line = lines.get(match.pk)
        if line is None:
            if len(lines) >= limit:
                continue
            room = match.room
            line = lines[match.pk] = MatchLine(
                match.pk, room.pk, room.name, room.game, str(catalog.label(room.game)),
                room.multiplier, 0, 0, entry.created,
            )
            hands[match.pk] = set()
            line.last_hand_id = entry.hand_id
        hands[match.pk].add(entry.hand_id)
        line.hands = len(hands[match.pk])
        line.delta += entry.delta
    return list(lines.values())


def profile_context(user) -> dict:
    """Template context for ``accounts/profile.html``; other apps add to it
    through :data:`accounts.signals.profile_context` (``current_seats``: the
    rooms the user sits at, from the games app; the ratings app's
    ``rating_sections``)."""
    ctx = {
        "profile_user": user,
        "game_rows": game_standings(user),
        "recent_matches": recent_matches(user),
        "current_seats": [],
        "recent_entries": recent_entries(user),
    }
    for _receiver, extra in signals.profile_context.send(sender=type(user), user=user):
        ctx.update(extra or {})
    return ctx


@dataclass(frozen=True)
class LadderRung:
    """One row of a game's title ladder on a profile."""

    level_no: int
    name: str
    threshold: int
    reached: bool
    current: bool


def ladders(user, rows: list[GameStanding] | None = None) -> dict[str, list[LadderRung]]:
    """Per game, the whole title ladder (C4, the admin-managed table) with
    the rows ``user`` has reached and the current one marked."""
    rows = rows if rows is not None else game_standings(user)
    out: dict[str, list[LadderRung]] = {}
    for row in rows:
        out[row.game] = [
            LadderRung(t.level_no, t.display_name, t.threshold, t.threshold <= row.points or t.pk == row.title.pk,
                       t.pk == row.title.pk)
            for t in LevelTitle.objects.filter(game=row.game).order_by("threshold")
        ]
    return out


def points_history(user, rows: list[GameStanding] | None = None, limit: int = RECENT_LIMIT) -> dict[str, list[dict]]:
    """Per game, the latest ``limit`` point changes, newest first, each with
    the total after it (``{"created", "delta", "total", "hand_id", "room"}``)."""
    rows = rows if rows is not None else game_standings(user)
    out: dict[str, list[dict]] = {}
    for row in rows:
        total = row.points
        lines = []
        for e in (PointsEntry.objects.filter(user=user, game=row.game)
                  .select_related("hand__match__room").order_by("-created", "-id")[:limit]):
            lines.append({"created": e.created, "delta": e.delta, "total": total, "hand_id": e.hand_id,
                          "room": e.hand.match.room.name if e.hand_id else "", "reason": e.reason_display})
            total -= e.delta
        out[row.game] = lines
    return out


#: Which hand ids a viewer may not open now (an embargoed duplicate board, a
#: private room's hand): the app that runs the hands adds an object with
#: ``hidden_hands(hand_ids, viewer) -> set of ids`` (accounts imports no other
#: app; the site's one way to ask the apps above: hooks/__init__.py).
HAND_FILTERS = Hooks("profile hand filters")


def hidden_hands(hand_ids, viewer) -> set[int]:
    """The ids among ``hand_ids`` the profile page leaves unlinked for ``viewer``."""
    hidden: set[int] = set()
    for answer in HAND_FILTERS.answers("hidden_hands", hand_ids, viewer):
        hidden |= set(answer)
    return hidden
