"""Fixtures that start the site as real, separate processes (``stack.LiveStack``).

* ``production_stack`` (session): a fresh PostgreSQL database ``cardroom_it_*``
  migrated by a subprocess, a ``daphne`` on a free loopback port, a Celery worker
  (``--pool=solo``) and one Celery beat, all against Redis.  Tests using it are
  marked ``production`` and skip themselves unless the run has ``DATABASE_URL``
  (PostgreSQL) and ``REDIS_URL`` set, i.e. outside ``make test-production``.
* ``embedded_stack`` (module): one ``daphne`` on a temporary SQLite file with no
  Redis: bots move on the web process's in-process timers.

A failing test gets the tail of every process's log in its report.
"""

from __future__ import annotations

import os

import pytest

from .stack import LiveStack, running


def production_services_configured() -> bool:
    """True in the production half of ``make test`` (PostgreSQL + Redis)."""
    return os.environ.get("DATABASE_URL", "").startswith("postgres") and bool(
        os.environ.get("REDIS_URL")
    )


def pytest_collection_modifyitems(config, items):
    """Skip ``production`` tests cleanly when the run has no PostgreSQL/Redis."""
    if production_services_configured():
        return
    skip = pytest.mark.skip(
        reason="production topology: run with DATABASE_URL=postgres://… and REDIS_URL "
        "(make test-production)"
    )
    for item in items:
        if "production" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def production_stack(tmp_path_factory):
    """daphne + Celery worker + beat on a fresh PostgreSQL database and Redis."""
    if not production_services_configured():
        pytest.skip("needs the production topology (make test-production)")
    with running(LiveStack.production(tmp_path_factory.mktemp("production-stack"))) as stack:
        yield stack


@pytest.fixture(scope="module")
def embedded_stack(tmp_path_factory):
    """One daphne on a temporary SQLite file, no Redis, in-process timers."""
    with running(LiveStack.embedded(tmp_path_factory.mktemp("embedded-stack"))) as stack:
        yield stack
