"""The set-up the CPU measures share (``scripts/move_cpu.py``,
``scripts/push_cpu.py``): the site of a checkout, imported in this process
against its own PostgreSQL database, with nothing scheduled but what the
script does.

    with measured_site(args.tree, args.pg, args.db, keep=args.keep, tag="move-cpu"):
        run(args)

No Redis and no broker (the in-memory channel layer, no Celery), no query log
(``DJANGO_DEBUG=0``), no review after a hand, and ``GAMES_SCHEDULING_DISABLED``
so no bot or deadline moves behind the script's back.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def measured_site(tree: str, pg: str, db: str, *, keep: bool, tag: str, tune_gc: bool = False):
    """Import the site of the checkout ``tree`` (a path) against the database
    ``db`` on the server ``pg`` (a ``postgres://`` URL without a database),
    created (or, with ``keep``, reused) on entry and dropped on exit unless
    ``keep``.  ``tag`` names the local secret key (no site is served).
    ``tune_gc``: a daphne's collector thresholds (``config.gc_tuning``), for
    a measure of the push path as a daphne runs it."""
    sys.path.insert(0, str(Path(tree).resolve()))
    os.chdir(tree)
    for name in ("REDIS_URL", "CELERY_BROKER_URL"):
        os.environ.pop(name, None)
    os.environ["DATABASE_URL"] = f"{pg}/{db}"
    os.environ["DJANGO_DEBUG"] = "0"  # no query log, no template auto_reload
    os.environ.setdefault("DJANGO_SECRET_KEY", f"{tag}-" + "x" * 50)  # a local measure, no site served
    os.environ["GAMES_REVIEW_AFTER_HAND"] = "0"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if tune_gc:
        from config.gc_tuning import tune

        tune()
    import django
    from django.conf import settings

    django.setup()
    settings.GAMES_SCHEDULING_DISABLED = True  # nothing plays but this script
    from django.test.utils import setup_databases, teardown_databases

    config = setup_databases(verbosity=0, interactive=False, keepdb=keep)
    try:
        yield
    finally:
        if not keep:
            teardown_databases(config, verbosity=0)
