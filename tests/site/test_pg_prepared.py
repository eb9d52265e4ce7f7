"""PostgreSQL statements bound on the server and prepared after
``DB_PREPARE_THRESHOLD`` runs on a connection (config/settings.py), so
PostgreSQL parses and plans a move's statements once per connection.

PostgreSQL only (the production topology); skipped on SQLite.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection

from games.models import Room

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's prepared statements"),
]


def _prepared() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
        return cursor.fetchone()[0]


def test_the_connection_binds_on_the_server_and_prepares_after_the_threshold():
    connection.ensure_connection()
    assert settings.DB_PREPARE_THRESHOLD == connection.connection.prepare_threshold == 5
    assert settings.DATABASES["default"]["OPTIONS"]["server_side_binding"] is True
    before = _prepared()
    for pk in range(1, settings.DB_PREPARE_THRESHOLD + 2):
        list(Room.objects.filter(pk=pk, version__gte=0))
    assert _prepared() > before, "a statement run past the threshold is prepared on the server"


def test_a_prepared_statement_gives_the_same_rows(django_user_model):
    """The same query, client-bound (the first runs) and then prepared, reads the same rows."""
    owner = django_user_model.objects.create_user("prep-owner")
    room = Room.objects.create(name="prep", game="baohuang", owner=owner)
    seen = {tuple(Room.objects.filter(pk=room.pk).values_list("pk", "name", "version", "created")[0])
            for _ in range(settings.DB_PREPARE_THRESHOLD + 3)}
    assert len(seen) == 1
