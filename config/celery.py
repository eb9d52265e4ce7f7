"""The Celery application.

In the production topology (``REDIS_URL`` or ``CELERY_BROKER_URL`` set) tasks
go to the broker and run in separate ``celery worker`` / ``celery beat``
processes.  In the embedded default no broker exists and the work runs in
the web process.  No turn is a task: the turn runner
(``games.runtime.runner``) runs inside the workers, or in the web process.
"""

import os

from celery import Celery
from celery.signals import worker_init
from kombu import Exchange, Queue

from config.gc_tuning import tune as tune_gc

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# games keeps its tasks in games/runtime/tasks.py (registered names unchanged: "games.tasks.*").
app.autodiscover_tasks(["games.runtime"])

# The review worker (deploy/supervisord.conf: CARDROOM_WORKER_ROLE=reviews, no -Q)
# consumes the review queue and nothing else; its name comes from settings
# (GAMES_REVIEW_QUEUE, under CELERY_NAMESPACE), so no command line can name the
# queue of another site on the same virtual host.  Every other worker consumes
# the default queue only.
if os.environ.get("CARDROOM_WORKER_ROLE") == "reviews":
    from django.conf import settings

    app.conf.task_queues = [Queue(settings.GAMES_REVIEW_QUEUE, Exchange(settings.GAMES_REVIEW_QUEUE),
                                  routing_key=settings.GAMES_REVIEW_QUEUE)]


@worker_init.connect
def _tune_worker_gc(**kwargs) -> None:
    """A worker's collector gets the web process's thresholds (config.gc_tuning):
    a bot's turn allocates the same kind of short-lived rows and states."""
    tune_gc()

