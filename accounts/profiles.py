"""What a profile page shows: per-game points and title (C4) and recent play."""

from __future__ import annotations

from dataclasses import dataclass

from .ledger import standings
from .models import GAME_CHOICES, LevelTitle, PointsEntry

GAME_LABELS = dict(GAME_CHOICES)

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
        rows.append(GameStanding(game, str(GAME_LABELS[game]), value, title, upcoming))
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
                match.pk, room.pk, room.name, room.game, str(GAME_LABELS.get(room.game, room.game)),
                room.multiplier, 0, 0, entry.created,
            )
            hands[match.pk] = set()
            line.last_hand_id = entry.hand_id
        hands[match.pk].add(entry.hand_id)
        line.hands = len(hands[match.pk])
        line.delta += entry.delta
    return list(lines.values())


def current_seats(user):
    """Rooms the user is seated at now (not closed), newest first."""
    from games.models import Room, Seat

    return list(
        Seat.objects.filter(user=user)
        .exclude(room__status=Room.Status.CLOSED)
        .select_related("room")
        .order_by("-room__created")[:10]
    )


def profile_context(user) -> dict:
    """Template context for ``accounts/profile.html``."""
    return {
        "profile_user": user,
        "game_rows": game_standings(user),
        "recent_matches": recent_matches(user),
        "current_seats": current_seats(user),
        "recent_entries": recent_entries(user),
    }
