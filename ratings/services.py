"""Writing ratings: the live update after each completed hand, and the
queries the result panel, leaderboards and profile read.

The live update runs inside the transaction that completes the hand
(:data:`games.signals.hand_scored`), in a savepoint of its own: the
rating rows commit with the hand or not at all, and a failure here is logged
and leaves the table playing (``rebuild_ratings`` repairs it).  The players'
``PlayerRating`` rows are locked in user-id order (``SELECT … FOR UPDATE``),
so two tables finishing hands with a common player apply them one after the
other, in the order of their ``RatedHand`` ids, which is the order
``rebuild_ratings`` replays.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from . import compute
from .models import PlayerRating, RatedHand, RatingChange

log = logging.getLogger(__name__)


@dataclass
class Standing:
    """A player's running totals while hands are applied (live or rebuild)."""

    mu: float
    sigma: float
    hands: int = 0
    wins: int = 0
    draws: int = 0


def plan(hand, rules) -> list[compute.Entry] | None:
    """The rated seats of the completed ``hand`` (``rules`` of its game), or
    None when it is not rated: the game's ranking of the stored summary
    (``rules.ranking``) and the players it was dealt to (``Hand.players``)."""
    ranking = rules.ranking(hand.summary or {})
    if ranking is None:
        return None
    return compute.entries(hand.players or [], ranking.teams, ranking.ranks)


def tally(standing: Standing, change: compute.Change) -> None:
    """Apply one human's ``change`` to his running ``standing``."""
    standing.mu, standing.sigma = change.mu_after, change.sigma_after
    standing.hands += 1
    standing.wins += change.entry.outcome == "win"
    standing.draws += change.entry.outcome == "draw"


def change_row(rated_hand: RatedHand, game: str, change: compute.Change,
               standing: Standing | None, when) -> RatingChange:
    """The (unsaved) ``RatingChange`` of one seat; ``standing`` is the
    human's standing after the hand (None for a bot)."""
    e = change.entry
    return RatingChange(
        rated_hand=rated_hand, game=game, seat=e.seat, user_id=e.user, bot=e.bot or "",
        team=e.team, rank=e.rank, outcome=e.outcome,
        mu_before=change.mu_before, sigma_before=change.sigma_before,
        mu_after=change.mu_after, sigma_after=change.sigma_after,
        rating_before=change.rating_before, rating_after=change.rating_after,
        provisional=standing is not None and compute.is_provisional(standing.hands),
        created=when,
    )


def record_hand(hand, game: str, rules) -> RatedHand | None:
    """Rate the completed ``hand`` of ``game`` (inside the caller's
    transaction): lock the players' ratings, run the model, store the
    ``RatedHand``, one ``RatingChange`` per seat and the new
    ``PlayerRating`` values.  Returns None when the hand is not rated
    (:func:`plan`) or was rated already."""
    rated = plan(hand, rules)
    if rated is None or RatedHand.objects.filter(hand=hand).exists():
        return None
    users = sorted({e.user for e in rated if e.user})
    PlayerRating.objects.bulk_create(
        [PlayerRating(user_id=u, game=game) for u in users], ignore_conflicts=True
    )
    rows = {
        r.user_id: r
        for r in PlayerRating.objects.select_for_update()
        .filter(game=game, user_id__in=users).order_by("user_id")
    }
    standings = {
        u: Standing(r.mu, r.sigma, r.hands, r.wins, r.draws) for u, r in rows.items()
    }
    changes = compute.rate_hand(rated, {u: (s.mu, s.sigma) for u, s in standings.items()})
    now = timezone.now()
    rated_hand = RatedHand.objects.create(hand=hand, game=game, created=now)
    out = []
    for change in changes:
        standing = standings.get(change.entry.user) if change.entry.user else None
        if standing is not None:
            tally(standing, change)
        out.append(change_row(rated_hand, game, change, standing, now))
    RatingChange.objects.bulk_create(out)
    for u, row in rows.items():
        s = standings[u]
        row.mu, row.sigma, row.rating = s.mu, s.sigma, compute.display(s.mu)
        row.hands, row.wins, row.draws, row.updated = s.hands, s.wins, s.draws, now
    PlayerRating.objects.bulk_update(
        list(rows.values()), ["mu", "sigma", "rating", "hands", "wins", "draws", "updated"]
    )
    return rated_hand


def on_hand_scored(sender, room, hand, rules, **kwargs) -> None:
    """:data:`games.signals.hand_scored` receiver: :func:`record_hand` in
    a savepoint (its failure is logged by the sender and rolls back only the
    rating rows)."""
    with transaction.atomic():
        record_hand(hand, room.game, rules)


def hand_note(sender, hand, **kwargs) -> dict | None:
    """:data:`games.signals.result_notes` receiver: each human's displayed
    rating change in ``hand`` (``{"key": "rating", "label": "等级分",
    "seats": {seat: "+12"}, "marks": {seat: "暂定"}}``: a mark for each seat
    whose rating is still provisional), or None when the hand was not rated.
    (The provisional mark was a "?" after the number, "+12?", which read as
    a help link beside the panel's "?" links: session 20.)"""
    rows = list(
        RatingChange.objects.filter(rated_hand__hand=hand, user__isnull=False)
        .order_by("seat").values_list("seat", "rating_before", "rating_after", "provisional")
    )
    if not rows:
        return None
    return {
        "key": "rating",
        "label": gettext_lazy("等级分"),  # shown in each reader's language
        "seats": {seat: f"{after - before:+d}" for seat, before, after, _provisional in rows},
        "marks": {seat: gettext_lazy("暂定") for seat, _b, _a, provisional in rows if provisional},
    }


def rating_of(user, game: str) -> PlayerRating | None:
    """``user``'s rating row in ``game`` (None before his first rated hand)."""
    return PlayerRating.objects.filter(user=user, game=game).first()
