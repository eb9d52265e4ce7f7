"""The bench's count of SQL statements per served move (``manage.py bench_live``,
:mod:`games.management.move_queries`) reports the shapes the query-count tests
pin: a player's whole POST in 7 statements, a bot's first turn of a chain in 5
(6 and 4 on PostgreSQL, where a move's action INSERT and the room's closing
UPDATE are one statement)."""

from __future__ import annotations

import pytest
from django.db import connection

from games.management import move_queries
from games.models import Room
from tests.site.test_query_counts import BOT_TURN, WHOLE_POST, SAVEPOINTS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", ["baohuang", "shengji"])
def test_bench_counts_the_pinned_shapes(game, multipliers):
    found = move_queries.measure(game, moves=2)
    assert found["player"].queries == WHOLE_POST
    assert found["player"].savepoints == 2  # the test's transaction: do_move's atomic is a savepoint
    assert found["bot"].queries == [s for s in BOT_TURN if s not in SAVEPOINTS]
    assert found["bot"].as_dict()["queries"] == (4 if connection.vendor == "postgresql" else 5)
    assert len(found["player"].queries) == (6 if connection.vendor == "postgresql" else 7)
    # the measuring room is closed: nothing keeps playing in it
    assert Room.objects.get(name__startswith="queries ").status == Room.Status.CLOSED
