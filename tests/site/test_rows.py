"""A move's writes as plain SQL (:mod:`games.services.rows`): the same rows as
the ORM's, the ORM whenever a save/init receiver listens, and the version
check still the guard (a stale or doubled move writes nothing)."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models import signals
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.models import HandAction, Room
from games.services import rows
from tests.site.test_query_counts import MOVE_WRITES, c5_record, statements

pytestmark = pytest.mark.django_db


def _move(room, users, version=None):
    room.refresh_from_db()
    seat, record = c5_record(room, "baohuang")
    return services.do_move(room.pk, None, record, room.version if version is None else version,
                            user=users[seat])


def test_a_moves_action_row_is_what_the_orm_would_write(five_humans):
    room, users = five_humans
    before = timezone.now()
    room.refresh_from_db()
    seat, record = c5_record(room, "baohuang")
    assert services.do_move(room.pk, None, record, room.version, user=users[seat]).applied
    action = HandAction.objects.get(hand=services.current_hand(room), seq=0)
    assert (action.seat, action.actor, action.user_id) == (seat, "user", users[seat].pk)
    assert action.payload == {"seat": seat, **record}
    assert action.created >= before  # auto_now_add, as the ORM fills it
    fresh = Room.objects.get(pk=room.pk)
    assert fresh.changed >= before and fresh.deadline > before and fresh.pending is None


def test_a_stale_or_doubled_move_writes_nothing(five_humans):
    room, users = five_humans
    room.refresh_from_db()
    version = room.version
    seat, record = c5_record(room, "baohuang")
    assert services.do_move(room.pk, None, record, version, user=users[seat]).applied
    hand = services.current_hand(room)
    again = services.do_move(room.pk, None, record, version, user=users[seat])  # the double click
    assert not again.applied and again.reason == "stale"
    assert HandAction.objects.filter(hand=hand).count() == 1
    assert Room.objects.get(pk=room.pk).version == version + 1


def test_a_receiver_gets_the_orms_writes(five_humans):
    room, users = five_humans
    seen = []

    def heard(sender, instance, created, **kwargs):
        seen.append((sender.__name__, created))

    signals.post_save.connect(heard, sender=HandAction)
    signals.post_save.connect(heard, sender=Room)
    try:
        assert not rows.plain(HandAction) and not rows.combines(HandAction, Room)
        with CaptureQueriesContext(connection) as ctx:
            assert _move(room, users).applied
    finally:
        signals.post_save.disconnect(heard, sender=HandAction)
        signals.post_save.disconnect(heard, sender=Room)
    assert seen == [("HandAction", True), ("Room", False)]
    assert "INSERT games_handaction" in statements(ctx)  # apart, never the combined statement
    assert rows.plain(HandAction, Room)


def test_the_move_writes_are_one_statement_on_postgresql_only(five_humans):
    room, users = five_humans
    with CaptureQueriesContext(connection) as ctx:
        assert _move(room, users).applied
    shape = statements(ctx)
    assert shape[-1 - len(MOVE_WRITES):-1] == MOVE_WRITES
    assert rows.combines(HandAction, Room) == (connection.vendor == "postgresql")


def test_an_update_of_a_gone_row_raises_and_inserts_nothing(five_humans):
    room, _users = five_humans
    hand = services.current_hand(room)
    gone = Room.objects.get(pk=room.pk)
    gone.pk = 10**9
    row = {"hand_id": hand.pk, "seq": 999, "seat": 0, "payload": {"pass": True}, "actor": "bot",
           "user_id": None}
    with pytest.raises(DatabaseError):
        with transaction.atomic():
            rows.insert_and_update(HandAction, row, gone, ("deadline", "status"))
    assert not HandAction.objects.filter(hand=hand, seq=999).exists()
    with pytest.raises(DatabaseError):
        rows.update(gone, ("deadline",))


def test_insert_returns_the_new_key_and_fills_defaults(five_humans):
    room, _users = five_humans
    hand = services.current_hand(room)
    pk = rows.insert(HandAction, {"hand_id": hand.pk, "seq": 500, "seat": 2,
                                  "payload": {"play": ["AS", "10H"]}, "actor": "auto"})
    assert isinstance(pk, int)
    action = HandAction.objects.get(pk=pk)
    assert (action.seq, action.user_id, action.payload) == (500, None, {"play": ["AS", "10H"]})
    assert action.created is not None
