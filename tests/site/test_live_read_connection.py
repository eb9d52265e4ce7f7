"""The live read pool keeps its database connection between reads
(:data:`games.live.snapshots.HOLD_S`): a busy process does not take a
connection from the pool and give it back for every room version, at most
:func:`games.live.snapshots._hold_max` threads keep one, an idle pool gives
them back, and a kept connection that fails a read is replaced and the read
done again."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import OperationalError, connections
from django.db.backends.signals import connection_created

from games.live import snapshots as live

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def one_reader(monkeypatch):
    """The read pool as one thread (which thread runs a job is then known),
    its connection closed and the count of kept connections back at the end."""
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-db-test")
    real = live._db_pool
    live._db_pool = pool
    monkeypatch.setattr(live, "_release", {"last": 0.0, "timer": None, "held": 0})
    try:
        yield pool
    finally:
        live._db_pool = real
        pool.submit(live._drop).result(timeout=10)
        pool.shutdown(wait=True)


@pytest.fixture
def created():
    """The connections opened meanwhile (``connection_created``), by thread name."""
    import threading

    opened: list[str] = []

    def count(sender, connection, **kwargs):
        opened.append(threading.current_thread().name)

    connection_created.connect(count, weak=False)
    yield opened
    connection_created.disconnect(count)


def _held_in_thread() -> bool:
    return connections["default"].connection is not None


def test_reads_in_a_row_use_one_connection(bot_room, one_reader, created):
    for _ in range(3):
        snap = one_reader.submit(live._read, bot_room.pk, None).result(timeout=30)
        assert snap is not None and snap.version == bot_room.version
    assert len([name for name in created if name.startswith("live-db-test")]) == 1
    assert one_reader.submit(_held_in_thread).result(timeout=10)
    assert live._release["held"] == 1


def test_without_a_hold_each_read_gives_its_connection_back(bot_room, one_reader, created, monkeypatch):
    monkeypatch.setattr(live, "HOLD_S", 0.0)
    for _ in range(2):
        one_reader.submit(live._read, bot_room.pk, None).result(timeout=30)
    assert len([name for name in created if name.startswith("live-db-test")]) == 2
    assert not one_reader.submit(_held_in_thread).result(timeout=10)
    assert live._release["held"] == 0


def test_no_more_threads_keep_one_than_the_cap(bot_room, one_reader, created, monkeypatch):
    monkeypatch.setattr(live, "HOLD_MAX", 0)
    one_reader.submit(live._read, bot_room.pk, None).result(timeout=30)
    assert not one_reader.submit(_held_in_thread).result(timeout=10)
    assert live._release["held"] == 0


def test_an_idle_pool_gives_its_connections_back(bot_room, one_reader, monkeypatch):
    monkeypatch.setattr(live, "HOLD_S", 3600.0)  # the timer itself never fires in the test
    one_reader.submit(live._read, bot_room.pk, None).result(timeout=30)
    assert one_reader.submit(_held_in_thread).result(timeout=10)
    timer = live._release["timer"]
    assert timer is not None
    timer.cancel()
    # past its hold: the connection's own deadline and the last read's end
    one_reader.submit(lambda: setattr(connections["default"], "close_at", 0.0)).result(timeout=10)
    live._release["last"] -= 2 * live.HOLD_S
    live._release_idle()
    live._release["timer"].cancel()
    assert not one_reader.submit(_held_in_thread).result(timeout=10)
    assert live._release["held"] == 0


def test_a_kept_connection_that_fails_is_replaced_and_the_read_retried(bot_room, one_reader, created, monkeypatch):
    one_reader.submit(live._read, bot_room.pk, None).result(timeout=30)
    real = live.load_snapshot
    calls = []

    def failing_once(room_id, kept=None):
        calls.append(room_id)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real(room_id, kept)

    monkeypatch.setattr(live, "load_snapshot", failing_once)
    snap = one_reader.submit(live._read, bot_room.pk, None).result(timeout=30)
    assert snap is not None and snap.version == bot_room.version
    assert len(calls) == 2
    assert len([name for name in created if name.startswith("live-db-test")]) == 2  # a fresh one for the retry
    assert live._release["held"] == 1


def test_a_fresh_connection_that_fails_is_not_retried(bot_room, one_reader, monkeypatch):
    calls = []

    def failing(room_id, kept=None):
        calls.append(room_id)
        raise OperationalError("no database")

    monkeypatch.setattr(live, "load_snapshot", failing)
    with pytest.raises(OperationalError):
        one_reader.submit(live._read, bot_room.pk, None).result(timeout=30)
    assert len(calls) == 1
