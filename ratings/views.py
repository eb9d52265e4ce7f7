"""Leaderboard pages (thin: the queries are in :mod:`ratings.leaderboards`)."""

from __future__ import annotations

from django.apps import apps
from django.http import Http404
from django.shortcuts import redirect, render

from games.models import GAME_CHOICES

from . import compute, leaderboards

GAME_LABELS = dict(GAME_CHOICES)


def index(request):
    """``/ratings/``: the first game's board."""
    return redirect("leaderboard", game=GAME_CHOICES[0][0])


def _clubs(request, club_id: int | None):
    """``(the viewer's clubs, the chosen club or None)`` when clubs exist."""
    if not apps.is_installed("clubs"):
        return [], None
    Club = apps.get_model("clubs", "Club")
    mine = (
        list(Club.objects.filter(memberships__user=request.user).order_by("name"))
        if request.user.is_authenticated else []
    )
    chosen = Club.objects.filter(pk=club_id).first() if club_id is not None else None
    if club_id is not None and chosen is None:
        raise Http404
    return mine, chosen


def leaderboard(request, game: str):
    """One game's board: ``?period=all|month``, ``?club=<id>``, ``?page=N``
    (or ``?page=me``: the page with the viewer's own row)."""
    if game not in GAME_LABELS:
        raise Http404
    period = request.GET.get("period", "all")
    if period not in leaderboards.PERIODS:
        period = "all"
    try:
        club_id = int(request.GET["club"]) if request.GET.get("club") else None
    except ValueError:
        raise Http404 from None
    clubs, club = _clubs(request, club_id)
    number = request.GET.get("page", 1)
    if number == "me":
        _page, _rows, position = leaderboards.page(game, request.user, period, 1, club_id)
        number = 1 + (position - 1) // leaderboards.PER_PAGE if position else 1
    current, rows, position = leaderboards.page(game, request.user, period, number, club_id)
    return render(request, "ratings/leaderboard.html", {
        "game": game,
        "game_name": GAME_LABELS[game],
        "games": GAME_CHOICES,
        "period": period,
        "page_obj": current,
        "rows": rows,
        "my_position": position,
        "my_page": 1 + (position - 1) // leaderboards.PER_PAGE if position else None,
        "clubs": clubs,
        "club": club,
        "provisional_hands": compute.PROVISIONAL_HANDS,
    })
