"""Celery entry points, thin: the work is in :mod:`games.services.turns`.

Both are idempotent (a turn carries the version it was scheduled for).  Where
and when they run is :mod:`games.runtime.scheduling`'s business.
"""

from __future__ import annotations

from celery import shared_task
from celery.signals import (
    worker_init,
    worker_process_init,
    worker_process_shutdown,
    worker_ready,
    worker_shutdown,
)

from django.conf import settings

from games.runtime import heartbeats, reviewing, scheduling, worker_sweep
from games.runtime.scheduling import sweep
from games.services.turns import play_turn

__all__ = ["run_turn", "sweep_deadlines", "review_hand", "play_turn", "sweep"]

#: A worker started with ``CARDROOM_WORKER_ROLE=reviews`` (the review worker,
#: the namespaced review queue only) runs reviews only: no deadline sweep, no local turns.
REVIEW_ROLE = "reviews"


# The registered names are the ones from before this module moved to
# games/runtime/: tasks already queued, beat's schedule and scheduling.RUN_TURN_TASK
# keep resolving.
@shared_task(name="games.tasks.run_turn", ignore_result=True)
def run_turn(room_id: int, version: int) -> str:
    """Celery entry point of :func:`~games.services.turns.play_turn`."""
    return play_turn(room_id, version)


@shared_task(name="games.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Celery beat entry point of :func:`~games.runtime.scheduling.sweep` (every 2 s).
    Records the time it ran (beat records when it sent it: ``manage.py health``)."""
    heartbeats.sweep_ran()
    return sweep()


@shared_task(name="games.tasks.review_hand", ignore_result=True, acks_late=True)
def review_hand(hand_id: int) -> str:
    """Compute and store a completed hand's review (idempotent: a done review
    is never recomputed).  Sent to the review queue only."""
    return reviewing.run_review(hand_id)


def _review_worker() -> bool:
    import os

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
    import os

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
    import os

    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return True
    except (AttributeError, OSError):
        return False


@worker_init.connect
def _review_worker_idles(**kwargs) -> None:
    """The review worker takes only idle CPU, from before its pool starts (its
    children inherit both): its session's group at nice 19
    (:func:`_yield_cpu_across_sessions`) and the ``SCHED_IDLE`` class
    (:func:`_idle_scheduling`)."""
    if _review_worker():
        _yield_cpu_across_sessions()
        _idle_scheduling()


@worker_ready.connect
def _start_worker_sweep(**kwargs) -> None:
    """Every worker sweeps overdue rooms itself too (beat is not a single
    point of failure; :mod:`games.runtime.worker_sweep`), and runs the next turns of
    the rooms whose moves it commits itself (:mod:`games.runtime.local_turns`,
    ``settings.GAMES_WORKER_LOCAL_TURNS`` threads).  Not in the review worker."""
    if _review_worker():
        return
    worker_sweep.start(lambda: sweep(direct=True))
    scheduling.start_local_turns(int(getattr(settings, "GAMES_WORKER_LOCAL_TURNS", 0) or 0))


@worker_shutdown.connect
def _stop_worker_sweep(**kwargs) -> None:
    worker_sweep.stop()
    scheduling.stop_local_turns()


@worker_process_init.connect
def _start_child_local_turns(**kwargs) -> None:
    """A prefork pool's child runs the tasks, so it keeps its own local turns
    (with a threads or single-process pool the main process does, above)."""
    if _review_worker():
        return
    scheduling.start_local_turns(int(getattr(settings, "GAMES_WORKER_LOCAL_TURNS", 0) or 0))


@worker_process_shutdown.connect
def _stop_child_local_turns(**kwargs) -> None:
    scheduling.stop_local_turns()
