"""Heartbeats: the stamps beat and the sweeps leave in the cache as they run,
which ``/healthz`` and ``manage.py health`` (:mod:`games.pages.health`) read.

Written here, in the layer that runs the sweeps, so that running a sweep never
imports the pages that report on it.  A stamp is a UNIX time under its key, kept
an hour; a cache that does not answer loses the stamp and the health check then
says Redis is down.
"""

from __future__ import annotations

import logging
import time

from celery.signals import beat_init, before_task_publish
from django.core.cache import cache

log = logging.getLogger(__name__)

#: beat's process stamps this when it sends the deadline sweep
BEAT_KEY = "games:health:beat-sent"
#: a worker stamps this when it runs the deadline sweep that beat sent
SWEEP_RAN_KEY = "games:health:sweep-ran"
#: beat's process stamps this once, when it starts
BEAT_STARTED_KEY = "games:health:beat-started"


def _stamp(key: str) -> None:
    try:
        cache.set(key, time.time(), timeout=3600)
    except Exception:  # Redis down: the health check will say so
        log.debug("health stamp %s not stored", key, exc_info=True)


def beat_ran() -> None:
    """Called by beat's process each time it sends ``sweep_deadlines``."""
    _stamp(BEAT_KEY)


def sweep_ran() -> None:
    """Called by a worker each time it runs beat's ``sweep_deadlines``."""
    _stamp(SWEEP_RAN_KEY)


_in_beat = False


def beat_started() -> None:
    """Called once by beat's process as it starts (``beat_init``)."""
    _stamp(BEAT_STARTED_KEY)


@beat_init.connect
def _mark_beat_process(**kwargs) -> None:
    global _in_beat
    _in_beat = True
    beat_started()


@before_task_publish.connect
def _beat_sent(sender=None, **kwargs) -> None:
    """In beat's process: stamp :data:`BEAT_KEY` whenever the deadline sweep is sent."""
    if _in_beat and sender == "games.tasks.sweep_deadlines":
        beat_ran()
