"""Computing hand reviews, away from the live tables.

A completed hand's review is asked for by the services
(:func:`games.services.reviews.request_review`, which sends the ``review_due``
signal after its commit); this module decides where and when it is computed:

* :func:`schedule_review` — production: the Celery task ``games.tasks.review_hand``
  on the review queue (``settings.GAMES_REVIEW_QUEUE``, under
  ``CELERY_NAMESPACE``), which only the review worker consumes
  (``CARDROOM_WORKER_ROLE=reviews``, one process at ``nice 19``), so a review
  never holds a live worker's slot.  Embedded: one daemon thread takes hand
  ids in order and has each computed in a child process at ``nice 19``.
* :func:`run_review` — what the task runs: the engine's reviewer
  (:func:`games.engine.review.review_hand`) within the hand's budget, paused
  while live tables keep the machine busy (:mod:`games.runtime.governor`,
  ``settings.GAMES_REVIEW_IDLE_BELOW``), then stored by
  :func:`games.services.reviews.store_review`.  Idempotent: a review that is
  done is never recomputed.
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import queue
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Callable

from django.conf import settings
from django.db import connections
from django.dispatch import receiver

from games import signals
from games.models import Hand, HandReview
from games.runtime import governor, scheduling
from games.services import reviews

log = logging.getLogger(__name__)

#: Hand reviews: a low-priority task on its own queue (settings.GAMES_REVIEW_QUEUE,
#: under CELERY_NAMESPACE; CELERY_TASK_ROUTES sends it there), which the live
#: worker does not consume (a separate review worker, ``CARDROOM_WORKER_ROLE=reviews``,
#: one process at ``nice 19``, does: deploy/supervisord.conf).
REVIEW_TASK = "games.tasks.review_hand"

_review_lock = threading.Lock()

_review_queue = None
_review_thread: threading.Thread | None = None
_review_pool = None


def schedule_review(hand_id: int) -> None:
    """Review hand ``hand_id`` in the background, after live turns.

    Production: the task :data:`REVIEW_TASK` on the review queue (``settings.GAMES_REVIEW_QUEUE``)
    (only the review worker consumes it, so a review never holds a live
    worker's slot).  Embedded: one daemon thread takes hand ids in order and
    has each review computed in a child process at ``nice 19``
    (:func:`run_review_job`), so the web process's threads never wait for it
    (a review in a thread would share the GIL with the live tables).
    Disabled scheduling (tests): nothing; tests call the review directly."""
    if scheduling.disabled():
        return
    if settings.GAMES_INPROCESS_TASKS:
        _review_thread_queue().put(hand_id)
    else:
        scheduling.celery_task(REVIEW_TASK).apply_async(args=(hand_id,), priority=9)  # routed to
        # settings.GAMES_REVIEW_QUEUE by CELERY_TASK_ROUTES


def _review_thread_queue():
    global _review_queue, _review_thread

    with _review_lock:
        if _review_queue is None:
            _review_queue = queue.Queue()
        if _review_thread is None or not _review_thread.is_alive():
            _review_thread = threading.Thread(target=_review_forever, name="games-review",
                                              daemon=True)
            _review_thread.start()
    return _review_queue


def _review_forever() -> None:
    while True:
        hand_id = _review_queue.get()
        try:
            run_review(hand_id)
        except Exception:
            log.exception("review of hand %s failed", hand_id)
        finally:
            connections.close_all()


def run_review_job(fn: Callable, args: tuple):
    """``fn(*args)`` (plain data in and out): in a child process at nice 19
    when called from the embedded topology's review thread, else here (a
    Celery review worker is itself a low-priority process; tests)."""
    global _review_pool
    if threading.current_thread() is not _review_thread:
        return fn(*args)
    if _review_pool is None:
        _review_pool = review_pool()
    return _review_pool.submit(fn, *args).result()


def review_pool() -> ProcessPoolExecutor:
    """The embedded topology's review process: one spawned child at nice 19
    with this process's collector thresholds (governor.nice_child)."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=governor.nice_child, initargs=(gc.get_threshold(),))


def idle_below() -> float | None:
    """The governor's threshold (``GAMES_REVIEW_IDLE_BELOW``): the share of all
    CPUs the other processes may use while a review runs, or None (no
    governor).  ``ValueError`` on a value that is not a share or ``off``."""
    return governor.parse_idle_below(getattr(settings, "GAMES_REVIEW_IDLE_BELOW",
                                             governor.DEFAULT_IDLE_BELOW))


def max_pause_s() -> float:
    """Seconds a review may wait for an idle machine in all
    (``GAMES_REVIEW_MAX_PAUSE_S``), then it is deferred (:func:`run_review`)."""
    return float(getattr(settings, "GAMES_REVIEW_MAX_PAUSE_S", governor.DEFAULT_MAX_PAUSE_S))



def compute(hand: Hand, budget: float | None = None) -> dict:
    """The engine's review of the completed ``hand`` as JSON (not stored),
    computed where :func:`run_review_job` says: in this
    thread, or in the embedded topology's low-priority review process; under
    the governor (:func:`idle_below`), whose pauses it reports as
    ``"paused_ms"``."""
    return run_review_job(partial(governor.review_paced, max_pause_s=max_pause_s()),
                                     (idle_below(), f"review of hand {hand.pk}",
                                      *reviews.review_inputs(hand, budget)))


def run_review(hand_id: int, budget: float | None = None) -> str:
    """Compute and store the review of hand ``hand_id`` unless it is done.
    Returns ``"done"``, ``"already"`` (stored before: never recomputed),
    ``"missing"`` (no such completed hand), ``"failed"``, or ``"deferred"``:
    the governor waited ``GAMES_REVIEW_MAX_PAUSE_S`` for an idle machine, so
    the review stays pending and is scheduled again, at the back of the queue
    (the task ends, and its delivery is acknowledged before the broker's
    timeout: :mod:`games.runtime.governor`)."""
    hand = Hand.objects.select_related("match__room").filter(pk=hand_id, complete=True).first()
    if hand is None:
        return "missing"
    existing = HandReview.objects.filter(hand=hand).first()
    if existing is not None and existing.status == HandReview.Status.DONE:
        return "already"
    started = time.perf_counter()
    try:
        result = compute(hand, budget)
    except governor.Deferred as exc:
        log.info("review of hand %s deferred: %s", hand_id, exc)
        schedule_review(hand_id)
        return "deferred"
    except Exception as exc:  # a corrupt log must not kill the worker
        log.exception("review of hand %s failed", hand_id)
        HandReview.objects.update_or_create(
            hand=hand, defaults={"status": HandReview.Status.FAILED, "error": str(exc)[:200]})
        return "failed"
    if not reviews.store_review(hand, result):
        return "already"
    log.info("review of hand %s: %.0f ms CPU (budget %.0f), %.0f ms wall, %.0f ms paused "
             "by the governor", hand_id, result["cpu_ms"], result["budget_ms"],
             1000 * (time.perf_counter() - started), result.get("paused_ms", 0.0))
    return "done"


@receiver(signals.review_due, dispatch_uid="games.runtime.reviewing.schedule")
def _on_review_due(sender, hand_id: int, **kwargs) -> None:
    """The services asked for a review (after their commit): schedule it."""
    schedule_review(hand_id)
