"""How many connections this process has handed back to its database pool in
working order: the pool's ``reset`` hook (config/settings.py passes
:func:`returned` to Django's psycopg pool).

``/healthz`` (games.pages.health.check_database) reads :func:`count` before
and after waiting for a connection: a pool with none free that still takes
connections back is *busy* (its requests finish: the database answers), one
that takes none back is stuck.  The pool's own statistics cannot tell that:
``requests_waiting`` keeps a timed-out waiter until a connection is handed
to the queue, so "served meanwhile" computed from them is wrong by one
(stop 29's CI).

No Django imports (settings imports this module).
"""

from __future__ import annotations

import threading
from psycopg.pq import TransactionStatus

__all__ = ["count", "returned"]

_lock = threading.Lock()
_returned = 0


def returned(conn) -> None:
    """psycopg_pool's ``reset`` callback: called with each connection given
    back to the pool, after the pool rolled back any transaction left open.
    Counts it when it is idle (working); leaves it as it is (a reset callback
    must leave the connection idle, and this one does nothing to it)."""

    global _returned
    if conn.pgconn.transaction_status == TransactionStatus.IDLE:
        with _lock:
            _returned += 1


def count() -> int:
    """Connections handed back in working order since this process started."""
    return _returned
