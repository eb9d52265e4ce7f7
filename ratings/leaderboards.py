"""Leaderboards per game: all time, this month, or one club's members.

Order: established players (past their provisional hands) before provisional
ones, then by displayed rating, hands, and user id (stable pages).  "This
month" lists the players with a rated hand since the first of the month
(server time zone), with that month's hands and wins next to their current
rating.  Each row carries the title from the game's level ladder for the
player's game points (C4, :func:`accounts.ledger.title_lookup`).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Paginator
from django.db.models import Case, Count, F, IntegerField, Q, When
from django.utils import timezone

from accounts.ledger import title_lookup
from accounts.models import PlayerStanding

from . import compute
from .models import PlayerRating

PERIODS = ("all", "month")
PER_PAGE = 25


@dataclass
class Row:
    """One leaderboard line."""

    position: int
    user_id: int
    username: str
    rating: int
    provisional: bool
    hands: int
    wins: int
    title: object  # accounts.LevelTitle
    is_me: bool

    @property
    def win_rate(self) -> float:
        """Wins per hand, 0..1."""
        return self.wins / self.hands if self.hands else 0.0


def month_start(now=None):
    """The first instant of the current month in the server's time zone."""
    now = timezone.localtime(now)
    return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def ranked(game: str, period: str = "all", club_id: int | None = None):
    """The ordered ``PlayerRating`` queryset of a leaderboard, each row
    annotated with ``n_hands`` and ``n_wins`` for the period."""
    qs = PlayerRating.objects.filter(game=game, hands__gt=0)
    if club_id is not None:
        qs = qs.filter(user__club_memberships__club_id=club_id)
    if period == "month":
        start = month_start()
        in_month = Q(user__rating_changes__game=game, user__rating_changes__created__gte=start)
        qs = qs.filter(in_month).annotate(
            n_hands=Count("user__rating_changes"),
            n_wins=Count("user__rating_changes", filter=Q(user__rating_changes__outcome="win")),
        )
    else:
        qs = qs.annotate(n_hands=F("hands"), n_wins=F("wins"))
    qs = qs.annotate(
        prov=Case(When(hands__lt=compute.PROVISIONAL_HANDS, then=1), default=0,
                  output_field=IntegerField())
    )
    return qs.order_by("prov", "-rating", "-hands", "user_id")


def page(game: str, user=None, period: str = "all", number: int | str = 1,
         club_id: int | None = None, per_page: int = PER_PAGE):
    """``(page, rows, my_position)``: the Django ``Page`` of :func:`ranked`,
    its :class:`Row` list, and the viewer's 1-based position on the whole
    board (None when not on it)."""
    qs = ranked(game, period, club_id)
    paginator = Paginator(qs.select_related("user"), per_page)
    current = paginator.get_page(number)
    me = user.pk if user is not None and user.is_authenticated else None
    users = [r.user_id for r in current.object_list]
    points = dict(
        PlayerStanding.objects.filter(game=game, user_id__in=users).values_list("user_id", "points")
    )
    title = title_lookup(game)
    offset = current.start_index()
    rows = [
        Row(
            position=offset + i,
            user_id=r.user_id,
            username=r.user.get_username(),
            rating=r.rating,
            provisional=r.provisional,
            hands=r.n_hands,
            wins=r.n_wins,
            title=title(int(points.get(r.user_id, 0))),
            is_me=r.user_id == me,
        )
        for i, r in enumerate(current.object_list)
    ]
    position = None
    if me is not None:
        ids = list(qs.values_list("user_id", flat=True))
        position = ids.index(me) + 1 if me in ids else None
    return current, rows, position

