"""What a database outage looks like from Python: the errors that mean "the
database is not available right now" (PostgreSQL restarting, every pooled
connection busy for longer than ``DB_POOL_TIMEOUT``).

The pages answer such an error with a 503 and ``Retry-After``
(:mod:`games.pages.outage`); a websocket keeps its connection open
(:func:`games.live.socket_scope.socket_survives_outage`).  Both ask
:func:`is_outage`, which lives here, below both layers.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError

#: The exception classes that mean "the database is not available right now".
OUTAGE_ERRORS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError)


def is_outage(exc: BaseException | None) -> bool:
    """True when ``exc``, or an exception in its cause/context chain (at most
    10 deep), is a database outage error (:data:`OUTAGE_ERRORS`)."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, OUTAGE_ERRORS):
            return True
        try:
            import psycopg

            if isinstance(exc, psycopg.OperationalError):  # psycopg_pool.PoolTimeout unwrapped
                return True
        except ImportError:  # SQLite-only installs
            pass
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False
