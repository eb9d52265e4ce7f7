"""The review governor: a hand's review runs only while live tables
leave the machine idle.

Why: on the 2-vCPU VM of docs/review.md, *any* CPU spent beside the live
stack slows it, whatever its Linux priority: a review worker at ``nice 19``
and in ``SCHED_IDLE`` took the live p95 at N = 100 from 82 to 623 ms, and a
pure CPU burner under ``chrt --idle 0`` did the same (202 → 1,489 ms).  The
host, not the guest's scheduler, decides who runs.  So the reviewer does not
ask the scheduler for the CPU that is left; it *measures* whether there is
any, and waits while there is not.

How: :class:`Governor` is the ``pause`` hook of
:func:`games.engine.review.review_hand` (called before each sampled world, a
few milliseconds apart).  After each ``slice_s`` of work it sleeps a
``window_s`` and measures, from ``/proc/stat``, how much of all the machine's
CPUs the *other* processes used meanwhile (the reviewer sleeps, so what is
counted is the live stack: web, workers, PostgreSQL, Redis, the proxy; time
stolen by the host counts as busy).  While that share is at or above
``idle_below``, it goes on sleeping, each window twice as long as the last
(up to ``max_window_s``); once below, the review resumes for another slice.
The budget of a review is CPU time (``time.thread_time``), which sleeping
does not spend, so its figures do not depend on the pauses.

The threshold, ``settings.GAMES_REVIEW_IDLE_BELOW`` (env
``GAMES_REVIEW_IDLE_BELOW``, default :data:`DEFAULT_IDLE_BELOW`).  Measured
on the bench's 2-vCPU machine (docs/review.md, "Session 12"): an idle site
uses 0.002–0.03 of its CPUs, 30 live tables ≈ 0.56, 100 tables 0.72 to all
of them (the host varies); at 0.25 reviews run beside a dozen or so tables
and wait beside more.  ``off`` (or any value ≥ 1) removes the
governor: the test suite does that where a test waits for a review while
its four parts keep the machine busy (tests/conftest.py); the governor has
its own tests (tests/site/test_review_governor.py).

A site that is busy all day never reviews here: run the review worker on a
machine of its own (the governor there measures only itself, so it never
waits).  Pages show such a review as pending.

A review never waits longer than ``max_pause_s`` in all
(``settings.GAMES_REVIEW_MAX_PAUSE_S``, default 600): past that the governor
raises :class:`Deferred` and the service sends the review to the back of its
queue (games.runtime.reviewing.run_review).  The review task is acknowledged
only when it ends (``acks_late``), and the broker does not wait for ever:
RabbitMQ closes a channel whose delivery stays unacknowledged for
``consumer_timeout`` (30 min by default; 3.10.8 here), and Redis's transport
hands it to another worker after its visibility timeout.

No Django (the engine and ``/proc`` only).
"""

from __future__ import annotations

import gc
import logging
import time
from typing import Callable

from games.engine.review import review_inputs_json
import os

__all__ = ["DEFAULT_IDLE_BELOW", "DEFAULT_MAX_PAUSE_S", "Deferred", "Governor", "cpu_times",
           "governs", "parse_idle_below", "review_paced"]

log = logging.getLogger(__name__)

#: Share of all CPUs (0–1) that the other processes may use for a review to run.
DEFAULT_IDLE_BELOW = 0.25
#: Seconds a review may wait in all before it is deferred (well under
#: RabbitMQ's default ``consumer_timeout`` of 30 min: see the module).
DEFAULT_MAX_PAUSE_S = 600.0


class Deferred(Exception):
    """The machine stayed busy for the governor's ``max_pause_s``: the work
    gave up for now, to be asked again later (nothing of it is kept)."""


def cpu_times(path: str = "/proc/stat") -> tuple[int, int] | None:
    """``(busy, total)`` jiffies of all CPUs since boot from ``/proc/stat``'s
    ``cpu`` line, or None where there is no such file (not Linux).  Idle is
    ``idle + iowait``; busy is the rest, steal included (time the host gave
    to another guest: the machine was not ours to use)."""
    try:
        with open(path, "rb") as stat:
            line = stat.readline().split()
    except OSError:
        return None
    if not line or line[0] != b"cpu":
        return None
    fields = [int(x) for x in line[1:9]]  # user nice system idle iowait irq softirq steal
    total = sum(fields)
    idle = fields[3] + fields[4]
    return total - idle, total


def parse_idle_below(value: object) -> float | None:
    """The setting as the governor takes it: a share in (0, 1), or None (no
    governor) for ``off``, ``none``, an empty string or a value ≥ 1.
    ``ValueError`` for anything else (a value ≤ 0 would never review)."""
    if value is None:
        return None
    if isinstance(value, str):
        if value.strip().lower() in ("", "off", "none"):
            return None
        value = float(value)
    share = float(value)  # type: ignore[arg-type]
    if share >= 1:
        return None
    if share <= 0:
        raise ValueError(f"GAMES_REVIEW_IDLE_BELOW must be above 0 (or 'off'), not {value!r}")
    return share


def governs(idle_below: float | None) -> bool:
    """True when ``idle_below`` (as :func:`parse_idle_below` gives it) asks for a governor."""
    return idle_below is not None and 0 < idle_below < 1


class Governor:
    """Pauses a background computation while other processes keep the machine busy.

    ``idle_below``: the share of all CPUs (0–1) the others may use for work
    to go on; ``slice_s``: seconds of work between measurements;
    ``window_s``: the first measuring sleep, doubled while busy up to
    ``max_window_s``.  ``read`` (default :func:`cpu_times`), ``sleep``
    (default :func:`time.sleep`) and ``clock`` are for tests (a reader
    returning None switches the governor off: nothing to measure).
    ``label`` names the work in the log lines written when it pauses and
    resumes (INFO, logger ``games.runtime.governor``).  ``max_pause_s``
    (None: no limit) bounds the seconds slept in all: a busy window that
    ends past it raises :class:`Deferred`.

    Figures, for the log and the stored review: ``paused_s`` (seconds slept),
    ``waits`` (windows found busy), ``last_share`` (the last measurement).

    >>> ticks = iter([(0, 100), (90, 200), (90, 200), (95, 300)])  # (busy, total)
    >>> g = Governor(0.25, read=lambda: next(ticks), sleep=lambda s: None)
    >>> g.pause()  # 90 % busy in the first window, 5 % in the second
    >>> g.waits, g.last_share
    (1, 0.05)
    """

    def __init__(self, idle_below: float, slice_s: float = 0.2, window_s: float = 0.05,
                 max_window_s: float = 1.0,
                 read: Callable[[], tuple[int, int] | None] | None = None,
                 sleep: Callable[[float], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, label: str = "work",
                 max_pause_s: float | None = None) -> None:
        if not governs(idle_below):
            raise ValueError(f"idle_below must be in (0, 1), not {idle_below!r}")
        self.idle_below = idle_below
        self.slice_s, self.window_s, self.max_window_s = slice_s, window_s, max_window_s
        self._read = read if read is not None else cpu_times
        self._sleep = sleep if sleep is not None else time.sleep
        self._clock, self.label = clock, label
        self.max_pause_s = max_pause_s
        self._next_check = clock()  # measure before the first slice
        self.enabled = True
        self.paused_s = 0.0
        self.waits = 0
        self.last_share: float | None = None

    def measure(self, window: float) -> float | None:
        """Sleep ``window`` seconds and return the share of all CPUs the
        machine's processes used meanwhile (ours sleeps), or None when it
        cannot be read."""
        before = self._read()
        self._sleep(window)
        after = self._read()
        self.paused_s += window
        if before is None or after is None:
            return None
        total = after[1] - before[1]
        if total <= 0:  # under a jiffy elapsed: nothing seen, nothing busy
            return 0.0
        return max(0.0, min(1.0, (after[0] - before[0]) / total))

    def pause(self) -> None:
        """Return at once within a slice of work; at its end, sleep and
        measure until the others' share is below ``idle_below``."""
        if not self.enabled or self._clock() < self._next_check:
            return
        window = self.window_s
        started, waited = self.paused_s, False
        while True:
            share = self.measure(window)
            if share is None:
                self.enabled = False
                return
            self.last_share = share
            if share < self.idle_below:
                break
            if not waited:
                log.info("%s paused: the other processes use %.0f %% of the CPUs "
                         "(it runs below %.0f %%)", self.label, 100 * share,
                         100 * self.idle_below)
            self.waits += 1
            waited = True
            if self.max_pause_s is not None and self.paused_s >= self.max_pause_s:
                log.info("%s deferred: the machine stayed busy for %.0f s", self.label,
                         self.paused_s)
                raise Deferred(f"{self.label}: the machine stayed busy for "
                               f"{self.paused_s:.0f} s (at most {self.max_pause_s:g} s)")
            window = min(self.max_window_s, window * 2)
        if waited:
            log.info("%s resumes after %.2f s paused", self.label, self.paused_s - started)
        self._next_check = self._clock() + self.slice_s


def review_paced(idle_below: float | None, label: str, *args,
                 max_pause_s: float | None = None) -> dict:
    """:func:`games.engine.review.review_inputs_json` of ``args`` under a
    :class:`Governor` named ``label`` in its log lines (none when
    ``idle_below`` does not govern) that waits at most ``max_pause_s`` in
    all (:class:`Deferred` past it), with the pauses added to the result:
    ``"paused_ms"`` and ``"governor"`` (the threshold, or None).
    Module-level and plain data in and out, so that it may run in the
    embedded topology's review process (``functools.partial`` for
    ``max_pause_s``: the process pool passes positional arguments)."""
    governor = (Governor(idle_below, label=label, max_pause_s=max_pause_s)
                if governs(idle_below) else None)
    out = review_inputs_json(*args, pause=governor.pause if governor else None)
    out["paused_ms"] = round(1000 * governor.paused_s, 1) if governor else 0.0
    out["governor"] = idle_below if governor else None
    return out


def nice_child(thresholds: tuple[int, int, int] | None = None) -> None:
    """The embedded review process's start: ``nice 19``, the collector
    thresholds of the web process that spawned it (``thresholds``,
    ``gc.get_threshold()`` there, tuned by config.gc_tuning: a review is
    play-outs, the engine's hot loop), and the review governor's pause and
    resume lines on its stderr (the web process's log; the spawned child has
    no logging configured otherwise).  It lives here, in a module that
    imports no Django model, because the spawned child imports it before
    Django is set up."""
    if thresholds:
        gc.set_threshold(*thresholds)
    try:
        os.nice(19)
    except OSError:  # pragma: no cover
        pass
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    governor_log = logging.getLogger("games.runtime.governor")
    governor_log.addHandler(handler)
    governor_log.setLevel(logging.INFO)
