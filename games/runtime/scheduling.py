"""The topology: whether the server's work runs in this process or on Celery.

- Production topology (a Celery broker is configured,
  ``settings.GAMES_INPROCESS_TASKS`` false): the turn runner
  (:mod:`games.runtime.runner`) runs inside each Celery worker; reviews are
  Celery tasks on their own queue (:mod:`games.runtime.reviewing`).
- Embedded topology (``GAMES_INPROCESS_TASKS``): the same turn runner runs as
  one in-process thread of the web process, and the rest runs in-process too.

Turns themselves have one path whatever the topology: the deadline in the
database, claimed and run by :mod:`games.runtime.runner`.  Tests set
``settings.GAMES_SCHEDULING_DISABLED`` to drive turns by hand (no runner
starts; ``play_turn`` or ``runner.run_due()`` in the test's thread).
"""

from __future__ import annotations

from django.conf import settings
from celery import current_app


def disabled() -> bool:
    """True when tests drive turns by hand (``settings.GAMES_SCHEDULING_DISABLED``)."""
    return bool(getattr(settings, "GAMES_SCHEDULING_DISABLED", False))


def inprocess() -> bool:
    """True when the server's work runs in this process (embedded topology, or tests)."""
    return bool(settings.GAMES_INPROCESS_TASKS) or disabled()


def celery_task(name: str):
    """The registered Celery task ``name`` (the apps' ``tasks`` modules are
    loaded by Celery's own autodiscovery the first time)."""

    try:
        return current_app.tasks[name]
    except KeyError:  # NotRegistered: this process has not imported games.runtime.tasks yet
        current_app.loader.import_default_modules()
        return current_app.tasks[name]
