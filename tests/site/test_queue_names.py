"""Every broker name of a site is under its CELERY_NAMESPACE, the review queue
included: two sites (or two test stacks) on one RabbitMQ virtual host must
never take each other's tasks.  The November audit found the review queue
fixed at ``reviews``, so one site's reviewer took the other's hand ids.

Each case is a fresh process (settings and the Celery app read the
environment once), as a worker would be."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, django
django.setup()
from config.celery import app
route = app.amqp.router.route({}, "games.tasks.review_hand")
print(json.dumps({
    "default": app.conf.task_default_queue,
    "control": app.conf.control_exchange,
    "review_route": route["queue"].name,
    "consumed": [q.name for q in (app.conf.task_queues or [])],
}))
"""


def probe(namespace: str, role: str = "") -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_NAMESPACE", "CARDROOM_WORKER_ROLE")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", CELERY_BROKER_URL="amqp://guest@127.0.0.1:1//")
    env.pop("DATABASE_URL", None)
    if namespace:
        env["CELERY_NAMESPACE"] = namespace
    if role:
        env["CARDROOM_WORKER_ROLE"] = role
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("namespace", ["site-a", "site-b"])
def test_the_review_queue_is_under_the_namespace(namespace):
    names = probe(namespace)
    assert names["default"] == namespace and names["control"] == namespace
    assert names["review_route"] == f"{namespace}.reviews"
    assert names["consumed"] == []  # a live worker: the default queue only


def test_the_review_worker_consumes_its_sites_review_queue_only():
    a, b = probe("site-a", role="reviews"), probe("site-b", role="reviews")
    assert a["consumed"] == ["site-a.reviews"] and b["consumed"] == ["site-b.reviews"]


def test_without_a_namespace_the_names_are_celerys_own():
    names = probe("")
    assert names["default"] == "celery" and names["review_route"] == "reviews"
