"""The 保皇 tribute tables move from ``games`` to ``games.baohuang`` and
keep their rows: ``baohuang.0001`` and ``games.0008`` move the models' state
only (``SeparateDatabaseAndState``), ``baohuang.0002`` renames the tables and
moves their content types.  The migrations run for real (``MigrationExecutor``)
on a database holding rows, backwards to before the move and forwards again.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0007_room_pending"), ("baohuang", None)]


def migrate(targets=None):
    """Migrate the test database to ``targets`` (default: every app's latest)
    and return the historical apps of that state."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    executor.loader.build_graph()  # reloads which migrations are applied
    return executor.loader.project_state(list(executor.loader.applied_migrations)).apps


def tables() -> set[str]:
    with connection.cursor() as cursor:
        return set(connection.introspection.table_names(cursor))


@pytest.mark.django_db(transaction=True)
def test_moving_the_tribute_models_keeps_their_rows(bot_room, alice):
    from django.contrib.contenttypes.models import ContentType

    from games.baohuang.models import TributeRecord, TributeSettlement
    from games.models import Hand

    hand = Hand.objects.get(match__room=bot_room)
    paid = TributeRecord.objects.create(hand=hand, from_seat=3, to_seat=0, from_user=None, to_user=alice, card="2S")
    settled = TributeSettlement.objects.create(hand=hand, seat=0, user=alice, points=[-4, 1, 1, 1, 1], carry={"x": 1})
    assert {"baohuang_tributerecord", "baohuang_tributesettlement"} <= tables()
    assert ContentType.objects.get_for_model(TributeRecord).app_label == "baohuang"

    # Back to before the move: the rows are games' again, under the old table names.
    old = migrate(BEFORE)
    assert "baohuang_tributerecord" not in tables() and "games_tributerecord" in tables()
    OldRecord = old.get_model("games", "TributeRecord")
    OldSettlement = old.get_model("games", "TributeSettlement")
    with pytest.raises(LookupError):
        old.get_model("baohuang", "TributeRecord")
    assert list(OldRecord.objects.values_list("id", "hand_id", "from_seat", "to_seat", "to_user_id", "card")) == [
        (paid.id, hand.id, 3, 0, alice.id, "2S")
    ]
    assert list(OldSettlement.objects.values_list("id", "seat", "user_id", "points", "carry")) == [
        (settled.id, 0, alice.id, [-4, 1, 1, 1, 1], {"x": 1})
    ]
    OldContentType = old.get_model("contenttypes", "ContentType")
    assert set(OldContentType.objects.filter(model="tributerecord").values_list("app_label", flat=True)) == {"games"}
    # A row written before the move (as the old code wrote it) ...
    later = OldRecord.objects.create(hand_id=hand.id, from_seat=4, to_seat=1, card="RJ")

    # ... and forwards again: the same rows, now baohuang's.
    migrate()
    ContentType.objects.clear_cache()
    assert "games_tributerecord" not in tables() and "games_tributesettlement" not in tables()
    assert list(TributeRecord.objects.order_by("id").values_list("id", "from_seat", "to_seat", "to_user_id", "card")) == [
        (paid.id, 3, 0, alice.id, "2S"),
        (later.id, 4, 1, None, "RJ"),
    ]
    assert [t.card for t in hand.tributes.all()] == ["2S", "RJ"]  # Hand's reverse relation still reaches them
    assert list(hand.settlements.values_list("id", "points", "carry")) == [(settled.id, [-4, 1, 1, 1, 1], {"x": 1})]
    assert set(ContentType.objects.filter(model="tributerecord").values_list("app_label", flat=True)) == {"baohuang"}
    # The id sequence goes on after the kept rows.
    assert TributeRecord.objects.create(hand=hand, from_seat=0, to_seat=2, card="3H").id > later.id


def test_games_models_name_no_game():
    """``games/models.py`` holds only generic tables: the tribute models are gone from it."""
    import games.models

    assert not hasattr(games.models, "TributeRecord") and not hasattr(games.models, "TributeSettlement")
