"""The Celery application.

In the production topology (``REDIS_URL`` or ``CELERY_BROKER_URL`` set) tasks
go to the broker and run in separate ``celery worker`` / ``celery beat``
processes.  In the embedded default no broker exists and
``games.runtime.scheduling`` runs the same task functions on in-process timers.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# games keeps its tasks in games/runtime/tasks.py (registered names unchanged: "games.tasks.*").
app.autodiscover_tasks(["games.runtime"])
