"""timestamptz values read with psycopg's C loader (games.services.pgtimestamps):
the same datetimes Django's own loader gives, on every connection Django opens.

PostgreSQL only (the production topology); skipped on SQLite.
"""

from __future__ import annotations

import datetime
import zoneinfo

import pytest
from django.db import connection
from django.db.backends.postgresql.psycopg_any import BaseTzLoader
from psycopg.pq import Format

from games.services import pgtimestamps

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not pgtimestamps.AVAILABLE, reason="psycopg's C implementation missing"),
]
postgresql = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's loaders")

#: Values across DST changes (Europe/London, America/New_York), leap days, the
#: ends of the range, microseconds at both ends, and offsets of every sign.
LITERALS = [
    "2026-03-29 00:59:59.999999+00", "2026-03-29 01:00:00+00", "2026-03-29 01:00:00.000001+00",
    "2026-10-25 00:59:59.5+00", "2026-10-25 01:00:00+00", "2026-10-25 01:30:00+01",
    "2026-03-08 01:59:59-05", "2026-03-08 03:00:00-04", "2026-11-01 01:30:00-04",
    "2026-11-01 01:30:00-05", "2024-02-29 23:59:59.123456+08", "2000-01-01 00:00:00+00",
    "1970-01-01 00:00:00+00", "1969-12-31 23:59:59.999999+00", "0001-01-02 00:00:00+00",
    "9999-12-30 23:59:59.999999+00", "2026-11-29 04:55:12.1+05:30", "2026-11-29 04:55:12.01-09:30",
    "1900-06-01 12:00:00+08", "1927-12-31 23:54:08+08:05:43",
]


def _fetch(sql, params=()):
    # psycopg's own cursor: Django's would put its own loader on it for another zone
    with connection.connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _set_zone(zone):
    with connection.cursor() as cursor:  # the test's transaction: undone after it
        cursor.execute("SELECT set_config('TimeZone', %s, true)", [zone])


def _read_both(sql, params=(), tz="connection"):
    """The rows of ``sql`` read with this module's loader and with Django's, both
    set to ``tz`` (the connection's timezone unless given)."""
    tz = connection.timezone if tz == "connection" else tz
    connection.ensure_connection()
    adapters = connection.connection.adapters
    mine = adapters.get_loader(pgtimestamps.TIMESTAMPTZ_OID, Format.TEXT)
    assert issubclass(mine, pgtimestamps.CTzLoader)
    djangos = type("SpecificTzLoader", (BaseTzLoader,), {"timezone": tz})
    try:
        adapters.register_loader(pgtimestamps.TIMESTAMPTZ_OID, pgtimestamps.loader_for(tz))
        fast = _fetch(sql, params)
        adapters.register_loader(pgtimestamps.TIMESTAMPTZ_OID, djangos)
        slow = _fetch(sql, params)
    finally:
        adapters.register_loader(pgtimestamps.TIMESTAMPTZ_OID, mine)
    return fast, slow


def _same(fast, slow, aware=True):
    assert len(fast) == len(slow) > 0
    for a_row, b_row in zip(fast, slow):
        for a, b in zip(a_row, b_row):
            assert a == b and (a.year, a.hour, a.microsecond) == (b.year, b.hour, b.microsecond)
            assert a.tzinfo is b.tzinfo  # the same zone object (None: both naive)
            assert (a.tzinfo is not None) == aware


@postgresql
def test_the_connection_reads_timestamptz_with_the_c_loader():
    connection.ensure_connection()
    loader = connection.connection.adapters.get_loader(pgtimestamps.TIMESTAMPTZ_OID, Format.TEXT)
    assert issubclass(loader, pgtimestamps.CTzLoader)
    assert loader.timezone == connection.timezone  # Django's create_cursor then adds none of its own
    with connection.cursor() as cursor:
        assert not cursor.adapters.get_loader(pgtimestamps.TIMESTAMPTZ_OID,
                                              Format.TEXT).__name__.startswith("Specific")


@postgresql
def test_literal_values_are_the_same_as_djangos():
    sql = "SELECT " + ", ".join(["%s::timestamptz"] * len(LITERALS))
    for zone in ("UTC", "Europe/London", "America/New_York", "Asia/Shanghai", "Asia/Kolkata"):
        _set_zone(zone)
        fast, slow = _read_both(sql, LITERALS)
        _same(fast, slow)  # in another session zone, both give its wall clock (Django's replace)
    _set_zone("UTC")  # what Django sets: the true instants
    fast, slow = _read_both(sql, LITERALS)
    _same(fast, slow)
    assert fast[0][0] == datetime.datetime(2026, 3, 29, 0, 59, 59, 999999, tzinfo=datetime.UTC)
    assert fast[0][-1] == datetime.datetime(1927, 12, 31, 15, 48, 25, tzinfo=datetime.UTC)


@postgresql
def test_many_values_are_the_same_as_djangos():
    # every 7 minutes 13.000357 seconds over two years in London's zone: both DST
    # changes of each year, and a fraction of a second that changes every row
    _set_zone("Europe/London")
    fast, slow = _read_both(
        "SELECT t FROM generate_series('2025-01-01 00:00:00.5+00'::timestamptz, "
        "'2026-12-31'::timestamptz, interval '433.000357 seconds') t")
    assert len(fast) > 140_000
    _same(fast, slow)
    assert len({v.microsecond for (v,) in fast}) > 1000


@postgresql
@pytest.mark.parametrize("tz", [None, zoneinfo.ZoneInfo("Asia/Shanghai")])
def test_another_timezone_or_none_is_set_as_djangos_is(tz):
    # Django's loader replaces the tzinfo (None: naive values, USE_TZ off)
    _set_zone("America/New_York")
    moments = [datetime.datetime(2026, 11, 29, 4, 55, 12, 123456, tzinfo=datetime.UTC),
               datetime.datetime(2026, 3, 29, 1, 0, 0, 1, tzinfo=zoneinfo.ZoneInfo("Europe/London"))]
    fast, slow = _read_both("SELECT %s::timestamptz, %s::timestamptz", moments, tz=tz)
    _same(fast, slow, aware=tz is not None)
    assert fast[0][0].tzinfo is tz
    assert fast[0][0].replace(tzinfo=None) == datetime.datetime(2026, 11, 28, 23, 55, 12, 123456)


@postgresql
def test_the_receiver_registers_the_loader_once_per_connection():
    connection.ensure_connection()
    adapters = connection.connection.adapters
    mine = pgtimestamps.loader_for(connection.timezone)
    pgtimestamps.use_c_loader(None, connection)  # a pooled connection checked out again: kept
    assert adapters.get_loader(pgtimestamps.TIMESTAMPTZ_OID, Format.TEXT) is mine
    djangos = type("SpecificTzLoader", (BaseTzLoader,), {"timezone": connection.timezone})
    adapters.register_loader(pgtimestamps.TIMESTAMPTZ_OID, djangos)
    try:
        pgtimestamps.use_c_loader(None, connection)  # a connection without it: registered
        assert adapters.get_loader(pgtimestamps.TIMESTAMPTZ_OID, Format.TEXT) is mine
    finally:
        adapters.register_loader(pgtimestamps.TIMESTAMPTZ_OID, mine)


@pytest.mark.skipif(connection.vendor == "postgresql", reason="another backend's connection")
def test_another_backends_connection_is_left_alone():
    connection.ensure_connection()
    before = vars(connection.connection).copy() if hasattr(connection.connection, "__dict__") else None
    pgtimestamps.use_c_loader(None, connection)  # no error, nothing registered
    assert not hasattr(connection.connection, "adapters")
    assert before is None or vars(connection.connection) == before


def test_loader_for_keeps_one_class_per_zone():
    utc = pgtimestamps.loader_for(datetime.UTC)
    assert pgtimestamps.loader_for(datetime.UTC) is utc and utc.timezone is datetime.UTC
    assert pgtimestamps.loader_for(None).timezone is None
