"""`make run` printed every log line twice: Django's default logging gives the
``django`` logger a console handler of its own and lets its records propagate
to the root's console handler too.  Each record must meet exactly one
console handler on its way up (config/settings.py LOGGING)."""

from __future__ import annotations

import logging

import pytest


def consoles_reached(name: str) -> int:
    """How many stream handlers a record logged on ``name`` is written by."""
    logger, count = logging.getLogger(name), 0
    while logger is not None:
        count += sum(type(h) is logging.StreamHandler for h in logger.handlers)  # not pytest's capture handlers
        if not logger.propagate:
            break
        logger = logger.parent
    return count


@pytest.mark.parametrize("name", ["django.request", "django.channels.server", "django", "games.runtime.scheduling",
                                  "celery.worker"])
def test_each_record_is_written_once(name):
    assert consoles_reached(name) == 1
