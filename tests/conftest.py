"""Shared fixtures: users, rooms with seated players and bots, and a driver
that plays the server's turns (bots, 托管, next deal) by hand.

Scheduling is switched off in every test (``GAMES_SCHEDULING_DISABLED``):
timers would run in other threads against the test database.  Tests drive
turns with :func:`drive` / ``games.runtime.tasks.play_turn`` instead.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest

from tests.integration.stack import LiveStack

_TMP = Path(__file__).resolve().parents[1] / "tmp"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def pytest_configure(config):
    """The SQLite test database is per process (config/settings.py:
    tmp/test-db-<pid>.sqlite3), so tmp/ must exist before it is created; files
    a killed run left (their process is gone) are removed."""
    _TMP.mkdir(exist_ok=True)
    for path in _TMP.glob("test-db-*.sqlite3*"):
        pid = path.name.split("-")[2].split(".")[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            path.unlink(missing_ok=True)


def pytest_unconfigure(config):
    """Django removes this process's test database; its WAL companions too."""
    for suffix in ("-wal", "-shm", ""):
        (_TMP / f"test-db-{os.getpid()}.sqlite3{suffix}").unlink(missing_ok=True)


@pytest.fixture(autouse=True)
def _default_language(settings):
    """Every test starts in the site's default language (zh-hans).  A request
    through the test client runs LocaleMiddleware in the test's own thread and
    leaves the language it activated (English after an ``Accept-Language: en``
    request) for the next test, whose bot names then read "Bot3", not "机器人3"."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _games_no_timers(settings):
    settings.GAMES_SCHEDULING_DISABLED = True
    # Request limits (games.pages.throttle) count per user across a whole minute;
    # tests that are not about them must not trip over each other's counts
    # (tests/site/test_input_limits.py sets its own small limits).
    settings.RATE_POSTS = "100000/m"
    settings.RATE_ROOM_CREATE = "100000/m"
    # Search bots (the default filling level) think 30 ms, not 300, in tests.
    settings.GAMES_SEARCH_BUDGET_MS = 30
    # Reviews run whatever the machine's load: the test suite's four parts keep
    # it busy, and the review governor would make a test that waits for a review
    # wait for them (its own tests: tests/site/test_review_governor.py).
    settings.GAMES_REVIEW_IDLE_BELOW = "off"
    # Django's docs' advice for test suites: a fast password hasher.  The default
    # (PBKDF2, a million rounds) costs 0.3 s of CPU a user or a login here, and the
    # suite creates and logs in thousands; a test about passwords themselves sets
    # its own (tests/site/test_accounts_auth.py keeps the site's).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    try:
        from games import services
    except Exception:  # pragma: no cover - app not importable
        yield
        return
    from games.live import snapshots as live

    # the one reset of every cached room state (games.services.roomcache)
    services.reset_caches()
    yield
    services.reset_caches()
    live.close_connections()


@pytest.fixture
async def close_thread_connections():
    """After an async (websocket) test: close the database connections of the
    thread that ran its sync parts (channels' ``database_sync_to_async``), so a
    PostgreSQL test database can be dropped (it refuses while one is open).
    The socket tests use it with ``pytest.mark.usefixtures``."""
    from channels.db import database_sync_to_async
    from django.db import connections

    yield
    await database_sync_to_async(connections.close_all)()


@pytest.fixture
def multipliers(db):
    """The seeded RoomMultiplier rows (1 default, 2, 5, 10); re-created after
    a ``transaction=True`` test flushed the data migration's rows."""
    from games.models import RoomMultiplier

    for value in (1, 2, 5, 10):
        RoomMultiplier.objects.get_or_create(value=value, defaults={"is_default": value == 1})
    return list(RoomMultiplier.objects.all())


@pytest.fixture
def make_user(django_user_model):
    """``make_user("name")`` creates a user with password ``pw-<name>-123``."""

    def make(name: str):
        return django_user_model.objects.create_user(username=name, password=f"pw-{name}-123")

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def bh_room(alice, multipliers):
    """A waiting 保皇 room owned by alice, who sits at seat 0 (not ready)."""
    from games import services

    return services.create_room(alice, "baohuang", "测试房", multiplier=2, turn_seconds=30, bot_delay_ms=0)


@pytest.fixture
def bot_room(bh_room, alice):
    """alice at seat 0, heuristic bots at seats 1-4, everyone ready: hand 1 is dealt."""
    from games import services

    services.fill_bots(bh_room, alice, "heuristic")
    services.set_ready(bh_room, alice, True)
    bh_room.refresh_from_db()
    return bh_room


@pytest.fixture
def five_humans(make_user, multipliers):
    """A 保皇 room with five human players (seat i = users[i]), all ready:
    hand 1 is dealt.  Returns ``(room, users)``."""
    from games import services

    users = [make_user(f"p{i}") for i in range(5)]
    room = services.create_room(users[0], "baohuang", "五人房", turn_seconds=30, bot_delay_ms=0)
    for i, user in enumerate(users[1:], start=1):
        services.take_seat(room, user, i)
    for user in users:
        services.set_ready(room, user, True)
    room.refresh_from_db()
    return room, users


def make_due(room) -> None:
    """Move the room's deadline into the past (without a version bump)."""
    from django.utils import timezone

    from games.models import Room

    Room.objects.filter(pk=room.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    # behind the services' back (no version bump): what this process kept of the room is stale
    from games.services import roomcache

    roomcache.forget(room.pk)


def drive(room, until, max_steps: int = 5000, stay: bool = True) -> int:
    """Run the server's due turn (``play_turn``) until ``until(room)`` is true.

    Each step moves the deadline into the past first, so humans time out
    (C5) and bots move at once.  With ``stay`` a timed-out human switches
    托管 off again (a slow player who is still there, so the next hand is
    dealt).  Returns the number of steps; fails the test after ``max_steps``.
    """
    from games.models import Seat
    from games.runtime.tasks import play_turn

    for step in range(max_steps):
        room.refresh_from_db()
        if until(room):
            return step
        make_due(room)
        if play_turn(room.pk, room.version) == "timeout" and stay:
            Seat.objects.filter(room=room, user__isnull=False).update(autoplay=False)
    raise AssertionError(f"not reached after {max_steps} steps")


@pytest.fixture
def driver():
    return drive


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Attach the live processes' logs to a failing test's report."""
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        for name, value in getattr(item, "funcargs", {}).items():
            if isinstance(value, LiveStack):
                report.sections.append((f"logs of {name}", value.logs()))


#: Fixtures through which a test reaches the topology (database, channel layer,
#: cache, live processes): a test marked ``pure`` may use none of them.
TOPOLOGY_FIXTURES = frozenset({
    "db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
    "live_server", "client", "admin_client", "django_user_model", "async_client",
})


def pytest_collection_modifyitems(config, items):
    """Refuse a ``pure`` test that reaches the topology.

    ``pure`` (pyproject's markers) says the result cannot depend on the topology:
    the production half of ``make test`` leaves such tests to the embedded half,
    as it leaves ``tests/engine`` (Makefile, ``PRODUCTION_PYTEST``).  A pure module
    that starts using the database would silently lose its production run, so
    collection fails instead (``pytest.UsageError``)."""
    for item in items:
        if item.get_closest_marker("pure") is None:
            continue
        reached = TOPOLOGY_FIXTURES & set(getattr(item, "fixturenames", ()))
        if reached or item.get_closest_marker("django_db") or item.get_closest_marker("production"):
            raise pytest.UsageError(
                f"{item.nodeid} is marked pure but reaches the topology "
                f"({', '.join(sorted(reached)) or 'django_db/production mark'})")
