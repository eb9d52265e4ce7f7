"""Celery entry points, thin: the work is in :mod:`games.runtime.runner` and
:mod:`games.runtime.reviewing`.

No turn is a Celery task: each worker runs the turn runner (started on
``worker_ready`` in its main process, or on ``worker_process_init`` in each
prefork child; stopped with it), which claims due rooms in the database itself.  Beat keeps a safety role only:
``sweep_deadlines`` runs the same claim once (:func:`games.runtime.runner.run_due`)
in case every runner of the site is stuck, and stamps the health keys.
"""

from __future__ import annotations

import os

from celery import shared_task
from celery.signals import (
    worker_init,
    worker_process_init,
    worker_process_shutdown,
    worker_ready,
    worker_shutdown,
)

from games.runtime import heartbeats, reviewing, runner
from games.services.turns import play_turn

__all__ = ["sweep_deadlines", "review_hand", "play_turn"]

#: A worker started with ``CARDROOM_WORKER_ROLE=reviews`` (the review worker,
#: the namespaced review queue only) runs reviews only: no turn runner.
REVIEW_ROLE = "reviews"


@shared_task(name="games.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Celery beat's safety sweep (every 2 s): the runners' own claim, run once
    in this task (:func:`games.runtime.runner.run_due`); how many rooms it
    claimed (0 while the runners keep up).  Records the time it ran (beat
    records when it sent it: ``manage.py health``)."""
    heartbeats.sweep_ran()
    return runner.run_due()


@shared_task(name="games.tasks.review_hand", ignore_result=True, acks_late=True)
def review_hand(hand_id: int) -> str:
    """Compute and store a completed hand's review (idempotent: a done review
    is never recomputed).  Sent to the review queue only."""
    return reviewing.run_review(hand_id)


def _review_worker() -> bool:
    return os.environ.get("CARDROOM_WORKER_ROLE") == REVIEW_ROLE


def _yield_cpu_across_sessions() -> bool:
    """The review worker's ``nice 19`` must hold against the live processes
    even where the kernel groups CPU time by session (Linux autogroups,
    ``/proc/sys/kernel/sched_autogroup_enabled``): a process that leads a
    session of its own (e.g. started with ``setsid``) is then in a group of its
    own, which gets a whole group's share whatever its nice value (measured
    with ``scripts/bench.py --reviews``: the nice-19 reviewer took 0.28 of a
    core from saturated live tables).  Sets that group's nice to 19, only when
    this process leads its session (so no other process's group is touched);
    True if it did.  Reviews never slow live tables."""
    try:
        if os.getsid(0) != os.getpid():
            return False
        with open("/proc/self/autogroup", "w") as group:
            group.write("19")
        return True
    except OSError:  # no autogroups (or not Linux): nice alone decides
        return False


def _idle_scheduling() -> bool:
    """Put this process (and every thread and process it starts later) in
    Linux's ``SCHED_IDLE`` class: it runs only on a CPU no other task wants,
    and a live process that wakes takes the CPU from it at once.  ``nice 19``
    alone still left the review worker a share of the CPU at every wake-up of
    the live processes: ``scripts/bench.py --reviews`` at N = 100 on a quiet
    machine, p95 81.7 ms without reviews and 623 ms with them.  True if it
    did (lowering one's own class needs no privilege); False where the
    platform has no such class.  Reviews never slow live tables."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return True
    except (AttributeError, OSError):
        return False


def _review_worker_should_idle() -> bool:
    """True unless ``CARDROOM_REVIEW_IDLE=0``: the review worker of a
    machine that is never idle (a CI run of the test suite, which keeps two
    cores saturated: a ``SCHED_IDLE`` reviewer there did not finish a 3 s
    review in 300 s) or of a deployment that bounds it by its own means
    (cgroups) keeps the normal priority."""
    return os.environ.get("CARDROOM_REVIEW_IDLE", "1") != "0"


@worker_init.connect
def _review_worker_idles(**kwargs) -> None:
    """The review worker takes only idle CPU, from before its pool starts (its
    children inherit both): its session's group at nice 19
    (:func:`_yield_cpu_across_sessions`) and the ``SCHED_IDLE`` class
    (:func:`_idle_scheduling`); not with ``CARDROOM_REVIEW_IDLE=0``
    (:func:`_review_worker_should_idle`)."""
    if _review_worker() and _review_worker_should_idle():
        _yield_cpu_across_sessions()
        _idle_scheduling()


def _prefork(consumer) -> bool:
    """True when the worker's pool is prefork (its children run the runner)."""
    pool = getattr(consumer, "pool", None)
    return type(pool).__module__ == "celery.concurrency.prefork"


@worker_ready.connect
def _start_runner(sender=None, **kwargs) -> None:
    """Every worker runs the turn runner (:mod:`games.runtime.runner`,
    ``settings.GAMES_RUNNER_THREADS`` turn threads): in its main process with
    a single-process or threads pool; with a prefork pool each child runs one instead
    (below), so bots think on as many cores as the pool has.  Several workers
    and children share the due rooms through the claim.  Not in the review
    worker."""
    if _review_worker() or _prefork(sender):
        return
    runner.start()


@worker_process_init.connect
def _start_child_runner(**kwargs) -> None:
    """A prefork pool's child runs its own turn runner."""
    if not _review_worker():
        runner.start()


@worker_shutdown.connect
def _stop_runner(**kwargs) -> None:
    """A clean stop finishes the turns under way; the rest stays due in the
    database for the next runner."""
    runner.stop()


@worker_process_shutdown.connect
def _stop_child_runner(**kwargs) -> None:
    runner.stop()
