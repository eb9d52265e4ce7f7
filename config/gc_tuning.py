"""The cyclic garbage collector's thresholds of a web process.

A daphne allocates many short-lived objects per push (each seat's render:
Jinja2 contexts, safe strings, dicts; each read's rows and model instances).
With CPython's default thresholds (700, 10, 10) a young collection runs
every 700 net allocations, so collections ran several times inside every
render, each one examining the render's live temporaries and promoting them
to the older generations, whose collections then examine them again: in
``scripts/render_bench.py`` the collector took about 12 % of the process's
CPU.  A young generation of :data:`DEFAULT` 20,000 objects lets most of a
render's temporaries die before any collection sees them (the collector's
share fell to about 5 %, figures in docs/performance.md, "Session 24").
Reference cycles are still collected, a little later.

``GAMES_GC_THRESHOLDS`` (environment): three integers separated by commas
(``gc.set_threshold``'s), or ``default`` to leave CPython's.

The engine's hot loops (a bot's search, a review's play-outs, ``simulate``)
allocate the same way: with Django's heap loaded, ``manage.py simulate`` made
about 11 % more 升级 and 6 % more 保皇 hands per CPU-second at :data:`DEFAULT`
than at CPython's 700 (session 37, docs/bots.md).

No Django imports: config.asgi calls it before anything else, a Celery worker
on ``worker_init`` (config.celery), manage.py before any command (runserver,
simulate, review); the embedded review child takes its parent's thresholds
as it starts (games.runtime.governor.nice_child: games imports nothing of
config).
"""

from __future__ import annotations

import gc
import logging
import os

log = logging.getLogger(__name__)

#: The thresholds set by :func:`tune` unless the environment says otherwise.
DEFAULT = (20_000, 10, 10)


def thresholds(value: str | None) -> tuple[int, ...] | None:
    """The thresholds ``value`` (``GAMES_GC_THRESHOLDS``) asks for: None for
    ``default`` (CPython's own), :data:`DEFAULT` when unset or not three
    positive integers (logged).

    >>> thresholds("5000,10,10"), thresholds("default"), thresholds(None) == DEFAULT
    ((5000, 10, 10), None, True)
    """
    if value is None or not value.strip():
        return DEFAULT
    if value.strip() == "default":
        return None
    try:
        found = tuple(int(part) for part in value.split(","))
    except ValueError:
        found = ()
    if len(found) != 3 or min(found) < 1:
        log.warning("GAMES_GC_THRESHOLDS=%r is not three positive integers; using %s", value, DEFAULT)
        return DEFAULT
    return found


def tune() -> tuple[int, ...]:
    """Set the collector's thresholds (:func:`thresholds` of
    ``GAMES_GC_THRESHOLDS``); returns the thresholds in force."""
    found = thresholds(os.environ.get("GAMES_GC_THRESHOLDS"))
    if found is not None:
        gc.set_threshold(*found)
    return gc.get_threshold()
