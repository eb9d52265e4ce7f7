"""the review worker yields the CPU to live tables even where the kernel
groups CPU time by session (Linux autogroups), which would otherwise give a
nice-19 process leading its own session a whole group's share
(:func:`games.runtime.tasks._yield_cpu_across_sessions`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CODE = (
    "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); "
    "django.setup(); from games.runtime.tasks import _yield_cpu_across_sessions as y; "
    "print(y(), open('/proc/self/autogroup').read().strip(), sep='|')"
)
REPO = Path(__file__).resolve().parents[2]

# pure: each test runs a child process on the embedded settings (what is tested
# is the kernel's grouping and scheduling class, not a topology)
pytestmark = [pytest.mark.pure, pytest.mark.skipif(not Path("/proc/self/autogroup").exists(),
                                                   reason="no Linux autogroups here")]


def _run(new_session: bool) -> tuple[str, str]:
    """(whether it set a nice, its autogroup line).  The line is empty for a process in
    the root autogroup (the kernel prints nothing for it), as in a CI runner's."""
    # the embedded settings (the production half's DATABASE_URL without DEBUG would ask
    # for a secret key): what is tested is the kernel's grouping, not a topology
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    out = subprocess.run([sys.executable, "-c", CODE], cwd=REPO, capture_output=True, text=True,
                         timeout=120, start_new_session=new_session, check=True, env=env)
    did, _, group = out.stdout.strip().partition("|")
    return did, group


def test_a_session_leader_sets_its_own_group_to_nice_19():
    did, group = _run(new_session=True)
    assert did == "True"
    assert group.endswith("nice 19")


def test_a_process_in_another_session_touches_no_group():
    before = Path("/proc/self/autogroup").read_text().strip()
    did, group = _run(new_session=False)
    assert did == "False"
    assert group == before  # the test runner's own group, untouched


def test_the_review_worker_takes_only_idle_cpu():
    """SCHED_IDLE, set in a child (never in the test process): the class holds
    for the process and for a thread it starts after (a pool's threads)."""
    code = (
        "import django, os, threading; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); "
        "django.setup(); from games.runtime.tasks import _idle_scheduling as idle; "
        "before = os.sched_getscheduler(0); did = idle(); seen = []; "
        "t = threading.Thread(target=lambda: seen.append(os.sched_getscheduler(0))); t.start(); t.join(); "
        "print(before, did, os.sched_getscheduler(0), seen[0], os.SCHED_IDLE, sep='|')"
    )
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                         timeout=120, check=True, env=env).stdout.strip()
    before, did, after, thread, idle = out.split("|")
    assert before == "0" and did == "True"  # SCHED_OTHER, then SCHED_IDLE
    assert after == thread == idle


@pytest.mark.parametrize("idle,expected", [(None, "idle"), ("1", "idle"), ("0", "other")])
def test_the_review_workers_start_idles_unless_told_not_to(idle, expected):
    """The worker_init handler of a review worker (``CARDROOM_WORKER_ROLE=reviews``)
    puts it in SCHED_IDLE; ``CARDROOM_REVIEW_IDLE=0`` keeps the normal class (a
    machine that is never idle: the suite's own review-queue test on CI)."""
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); "
        "django.setup(); from games.runtime.tasks import _review_worker_idles as start; start(); "
        "print('idle' if os.sched_getscheduler(0) == os.SCHED_IDLE else 'other')"
    )
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CARDROOM_REVIEW_IDLE")}
    env["CARDROOM_WORKER_ROLE"] = "reviews"
    if idle is not None:
        env["CARDROOM_REVIEW_IDLE"] = idle
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                         timeout=120, check=True, env=env).stdout.strip()
    assert out.splitlines()[-1] == expected
