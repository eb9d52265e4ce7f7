"""``manage.py rebuild_ratings`` recomputes every rating from the stored hands
and reproduces the live updates exactly."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from games import services
from games.models import Hand
from ratings.models import PlayerRating, RatedHand, RatingChange
from ratings.rebuild import CHANGE_FIELDS, RATING_FIELDS
from tests.site.ratings_fixtures import make_user, play_out, seated_room  # noqa: F401

pytestmark = pytest.mark.django_db


def stored():
    """Every stored rating number, keyed so that row ids do not matter."""
    ratings = {
        (r.user_id, r.game): tuple(getattr(r, f) for f in RATING_FIELDS)
        for r in PlayerRating.objects.all()
    }
    changes = [
        (c.rated_hand.hand_id, *(getattr(c, f) for f in CHANGE_FIELDS))
        for c in RatingChange.objects.select_related("rated_hand").order_by("rated_hand_id", "seat")
    ]
    # games are rated independently: compare each game's hands in rating order
    changes.sort(key=lambda row: (RatedHand.objects.get(hand_id=row[0]).game, row[0]))
    return ratings, changes


def next_hand(room):
    """Deal the room's next hand (after the pause) through the services."""
    room.refresh_from_db()
    assert services.next_hand(room, room.version).applied
    room.refresh_from_db()


@pytest.fixture
def history(make_user, multipliers, monkeypatch):
    """Several rated hands in both games, players shared between rooms, bots
    of both levels: the rating of a player depends on the order of hands."""
    u = [make_user(f"h{i}") for i in range(6)]
    sj = seated_room("shengji", [u[0], u[1], u[2], "random"], seed=3, monkeypatch=monkeypatch)
    play_out(sj)
    bh = seated_room("baohuang", [u[3], u[0], "heuristic", u[4], u[5]], seed=2,
                     monkeypatch=monkeypatch)
    play_out(bh)
    for seed in (16, 1):
        monkeypatch.setattr(services.hands, "new_seed", lambda seed=seed: seed)
        next_hand(bh)
        play_out(bh)
    for seed in (5, 8):
        monkeypatch.setattr(services.hands, "new_seed", lambda seed=seed: seed)
        next_hand(sj)
        play_out(sj)
    sj2 = seated_room("shengji", [u[5], u[1], u[3], "heuristic"], seed=9, monkeypatch=monkeypatch)
    play_out(sj2)
    assert RatedHand.objects.count() == 7
    return u


def test_rebuild_reproduces_stored_ratings_exactly(history):
    before = stored()
    call_command("rebuild_ratings", "--check")  # raises on any difference
    call_command("rebuild_ratings")
    assert stored() == before
    assert RatedHand.objects.count() == 7


def test_rebuild_repairs_a_corrupted_rating_and_check_reports_it(history):
    before = stored()
    row = PlayerRating.objects.filter(game="baohuang").first()
    row.mu += 1e-9
    row.save()
    RatingChange.objects.filter(rated_hand__game="shengji", seat=0).update(rating_after=1)
    with pytest.raises(CommandError, match="differ"):
        call_command("rebuild_ratings", "--check")
    assert stored() != before
    call_command("rebuild_ratings")
    assert stored() == before


def test_rebuild_rates_hands_that_were_never_rated(history):
    """A completed hand without rating rows (older than the ratings, or a
    failed live update) is replayed first, in hand order."""
    before = stored()
    RatedHand.objects.all().delete()
    PlayerRating.objects.all().delete()
    call_command("rebuild_ratings")
    after = stored()
    assert after[0].keys() == before[0].keys()
    # the hands are the same and were rated in the same (hand id) order here
    assert after == before
    assert RatedHand.objects.count() == Hand.objects.filter(complete=True).count()

