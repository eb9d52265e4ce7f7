"""Recompute every rating from the stored hands (``manage.py rebuild_ratings``).

Hands are replayed in rating order: completed hands never rated (older than
the ratings, or whose live update failed) first, by hand id; then the rated
ones in ``RatedHand`` id order, the order the live updates ran in.  Each hand
is rated from its stored summary and players exactly as the live update
does (:func:`ratings.services.plan`, :func:`ratings.compute.rate_hand`), so
the recomputed numbers equal the stored ones bit for bit unless something
was lost or edited.  Writing replaces the game's ``PlayerRating``,
``RatedHand`` and ``RatingChange`` rows in one transaction (on PostgreSQL the
ratings table is locked meanwhile, so a live update waits).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from games.engine import get_rules
from games.models import Hand

from . import compute
from .models import PlayerRating, RatedHand, RatingChange
from .services import Standing, change_row, plan, tally

#: Fields compared between stored and recomputed rows.
RATING_FIELDS = ("mu", "sigma", "rating", "hands", "wins", "draws")
CHANGE_FIELDS = (
    "seat", "user_id", "bot", "team", "rank", "outcome", "mu_before", "sigma_before",
    "mu_after", "sigma_after", "rating_before", "rating_after", "provisional",
)


@dataclass
class Result:
    """What a rebuild computed: per hand (in order) its changes, per user
    the final standing, and how many stored values differ from them."""

    game: str
    hands: list = field(default_factory=list)  # [(Hand, created, [Change], {user: Standing})]
    standings: dict = field(default_factory=dict)  # user id -> Standing
    differences: list = field(default_factory=list)  # human-readable lines


def _order(game: str) -> list[tuple[Hand, object]]:
    """The completed hands of ``game`` in replay order, each with the time
    it was rated (its ``RatedHand.created``, else when it was dealt)."""
    rated = list(RatedHand.objects.filter(game=game).order_by("id").values_list("hand_id", "created"))
    hands = {
        h.pk: h
        for h in Hand.objects.filter(complete=True, match__room__game=game)
        .only("id", "players", "summary", "created")
    }
    seen = {hand_id for hand_id, _ in rated}
    order = [(hands[pk], hands[pk].created) for pk in sorted(hands) if pk not in seen]
    order += [(hands[hand_id], created) for hand_id, created in rated if hand_id in hands]
    return order


def recompute(game: str) -> Result:
    """Replay every completed hand of ``game`` in rating order (no writes)."""
    rules = get_rules(game)
    result = Result(game)
    for hand, created in _order(game):
        rated = plan(hand, rules)
        if rated is None:
            continue
        current = {}
        for e in rated:
            if e.user and e.user in result.standings:
                s = result.standings[e.user]
                current[e.user] = (s.mu, s.sigma)
        changes = compute.rate_hand(rated, current)
        after = {}
        for change in changes:
            u = change.entry.user
            if u:
                s = result.standings.setdefault(u, Standing(*compute.INITIAL))
                tally(s, change)
                after[u] = Standing(s.mu, s.sigma, s.hands, s.wins, s.draws)
        result.hands.append((hand, created, changes, after))
    _compare(result)
    return result


def _compare(result: Result) -> None:
    """Fill ``result.differences`` with every stored value that differs."""
    game = result.game
    stored = {r.user_id: r for r in PlayerRating.objects.filter(game=game)}
    for u, s in result.standings.items():
        row = stored.pop(u, None)
        want = (s.mu, s.sigma, compute.display(s.mu), s.hands, s.wins, s.draws)
        have = tuple(getattr(row, f) for f in RATING_FIELDS) if row else None
        if have != want:
            result.differences.append(f"{game} user {u}: stored {have}, recomputed {want}")
    for u in stored:
        result.differences.append(f"{game} user {u}: stored a rating, recomputed none")
    stored_changes: dict[int, list] = {}
    for row in RatingChange.objects.filter(game=game).select_related("rated_hand").order_by("seat"):
        stored_changes.setdefault(row.rated_hand.hand_id, []).append(
            tuple(getattr(row, f) for f in CHANGE_FIELDS)
        )
    for hand, _created, changes, after in result.hands:
        rows = [change_row(None, game, c, after.get(c.entry.user), None) for c in changes]
        want = [tuple(getattr(r, f) for f in CHANGE_FIELDS) for r in rows]
        have = stored_changes.pop(hand.pk, None)
        if have != want:
            result.differences.append(f"{game} hand {hand.pk}: stored {have}, recomputed {want}")
    for hand_id in stored_changes:
        result.differences.append(f"{game} hand {hand_id}: stored changes, recomputed none")


def write(result: Result) -> None:
    """Replace ``result.game``'s rating rows with the recomputed ones."""
    game = result.game
    existing = set(get_user_model().objects.filter(
        pk__in=list(result.standings)).values_list("pk", flat=True))
    with transaction.atomic():
        if connection.vendor == "postgresql":
            cursor = connection.cursor()
            cursor.execute(f'LOCK TABLE "{PlayerRating._meta.db_table}" IN EXCLUSIVE MODE')
        RatedHand.objects.filter(game=game).delete()
        PlayerRating.objects.filter(game=game).delete()
        rated_hands = RatedHand.objects.bulk_create(
            [RatedHand(hand=hand, game=game, created=created) for hand, created, _c, _a in result.hands]
        )
        rows = []
        for rated_hand, (_hand, created, changes, after) in zip(rated_hands, result.hands):
            for c in changes:
                if c.entry.user and c.entry.user not in existing:
                    continue  # a deleted account: computed (others depend on it), not stored
                rows.append(change_row(rated_hand, game, c, after.get(c.entry.user), created))
        RatingChange.objects.bulk_create(rows, batch_size=1000)
        PlayerRating.objects.bulk_create(
            [
                PlayerRating(user_id=u, game=game, mu=s.mu, sigma=s.sigma,
                             rating=compute.display(s.mu), hands=s.hands, wins=s.wins,
                             draws=s.draws)
                for u, s in sorted(result.standings.items()) if u in existing
            ],
            batch_size=1000,
        )
