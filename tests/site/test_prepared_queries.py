"""games.services.prepared: querysets compiled once per thread."""

from __future__ import annotations

import threading

import pytest
from django.db.models import Count

from games.models import HandAction, Hand, Seat
from games.services.prepared import Prepared
from games.services import readmodel

pytestmark = pytest.mark.django_db


def _seats(room_id):
    return Seat.objects.filter(room_id=room_id).select_related("user", "room").order_by("index")


def test_objects_equal_the_querysets_own(bot_room, five_humans):
    """Same rows, same field values, same joined objects, for two rooms."""
    prepared = Prepared("seats", _seats)
    for room in (bot_room, five_humans[0]):
        plain = list(_seats(room.pk))
        got = prepared.objects(room.pk)
        assert [s.pk for s in got] == [s.pk for s in plain]
        for a, b in zip(got, plain):
            assert a.__dict__.keys() >= {"id", "room_id", "user_id", "index", "autoplay"}
            assert (a.index, a.user_id, a.autoplay, a.ready) == (b.index, b.user_id, b.autoplay, b.ready)
            assert (a.user.username if a.user else None) == (b.user.username if b.user else None)
            assert a.room.version == b.room.version and a.room.name == b.room.name
            assert a._state.adding is False and a._state.db == "default"


def test_annotations_and_json_fields_are_converted(bot_room, driver):
    """The current hand with its action count (a subquery annotation) and its
    JSON fields decoded, as the ORM gives them; a values query's rows."""
    driver(bot_room, lambda r: HandAction.objects.filter(hand__match__room=r).count() >= 6)
    hand = readmodel.current_hand_counted(bot_room)
    plain = Hand.objects.filter(match__room=bot_room).annotate(n=Count("actions")).order_by("-id").first()
    assert hand.pk == plain.pk and hand.n_actions == plain.n >= 6
    assert hand.deal == plain.deal and isinstance(hand.start, dict) and hand.start == plain.start
    assert hand.match.room.pk == bot_room.pk
    tail = Prepared("tail", lambda h, m, n: HandAction.objects.filter(hand_id=h, seq__gte=m, seq__lt=n)
                    .order_by("seq").values_list("seq", "payload"))
    rows = tail.values(hand.pk, 2, 5)
    assert rows == list(HandAction.objects.filter(hand=hand, seq__gte=2, seq__lt=5)
                        .order_by("seq").values_list("seq", "payload"))
    assert [r[0] for r in rows] == [2, 3, 4] and isinstance(rows[0][1], dict)
    assert tail.values(hand.pk, 5, 2) == []


def test_compiled_once_per_thread(bot_room):
    built = []

    def build(room_id):
        built.append(threading.get_ident())
        return _seats(room_id)

    prepared = Prepared("seats", build)
    for _ in range(3):
        assert len(prepared.objects(bot_room.pk)) == 5
    assert len(built) == 1


def test_a_parameter_missing_from_the_sql_is_an_error(bot_room):
    """``build`` ignoring its argument would run one room's query for every
    room: refused at the first call."""
    prepared = Prepared("ignores its argument", lambda room_id: Seat.objects.filter(room_id=bot_room.pk))
    with pytest.raises(ValueError, match="parameter 0"):
        prepared.objects(bot_room.pk)


def test_values_of_a_model_query_and_objects_of_a_values_query():
    seq = Prepared("seqs", lambda h: HandAction.objects.filter(hand_id=h).values_list("seq"))
    with pytest.raises(TypeError):
        seq.objects(1)
    assert seq.values(1) == []
