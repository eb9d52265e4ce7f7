"""A database outage is a 503 page with ``Retry-After``, never a 500 (issue #22).

When PostgreSQL restarts, or every connection of this process's pool is busy
for longer than ``DB_POOL_TIMEOUT``, a request fails with a database error
(:class:`django.db.OperationalError` or :class:`~django.db.InterfaceError`;
psycopg-pool's ``PoolTimeout`` arrives wrapped as the former).  The user then
gets ``templates/503.html`` ("the site is catching its breath, your table is
safe") with status 503 and ``Retry-After: OUTAGE_RETRY_AFTER_S`` seconds; the
page reloads itself after that long.  Nothing was lost: a change is one
transaction, so a request that failed changed nothing, and a table's deadline
lives in the database.

Two hooks catch the two places an error can arise:

* :class:`DatabaseOutageMiddleware` (first in ``MIDDLEWARE``): an exception of
  a view (``process_exception``), in every ``DEBUG`` mode;
* :func:`server_error` (``handler500`` in ``config/urls.py``): an exception of
  a middleware, e.g. the session saved or the user loaded while the database is
  down (an ``AttributeError`` about ``_session_cache`` follows a failed session
  load: its cause chain holds the database error, which is what counts).

The page is rendered without the request's context processors (they query the
database) and without a session.
"""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.template import loader
from django.views.defaults import server_error as django_server_error

log = logging.getLogger(__name__)

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


def retry_after() -> int:
    """Seconds a client should wait before trying again (``OUTAGE_RETRY_AFTER_S``)."""
    return int(getattr(settings, "OUTAGE_RETRY_AFTER_S", 5))


def outage_response(request=None) -> HttpResponse:
    """The 503 page: status 503, ``Retry-After``, ``Cache-Control: no-store``."""
    seconds = retry_after()
    html = loader.render_to_string("503.html", {"retry_after": seconds})
    response = HttpResponse(html, status=503)
    response["Retry-After"] = str(seconds)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseOutageMiddleware:
    """A view's database outage error becomes the 503 page (see the module)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if is_outage(exception):
            log.warning("database unavailable, answered 503: %s %s: %r",
                        request.method, request.path, exception)
            return outage_response(request)
        return None


def server_error(request, *args, **kwargs):
    """``handler500``: the 503 page when the error being handled is a database
    outage (from a middleware), Django's own 500 page otherwise."""
    exc = sys.exc_info()[1]
    if is_outage(exc):
        log.warning("database unavailable, answered 503: %s %s: %r",
                    getattr(request, "method", "?"), getattr(request, "path", "?"), exc)
        return outage_response(request)
    return django_server_error(request, *args, **kwargs)


def socket_survives_outage(handler):
    """Decorator for an async websocket consumer's handler (``receive``, a
    group message's handler): a database outage error in it is logged and the
    handler returns None, so the socket stays open (daphne closed it with 1011)
    and gets the table again when the database is back.  The user's message
    that met the outage (a chat line, a mute) is dropped, never half-stored: it
    was one transaction.  Other errors propagate as before."""
    import functools

    @functools.wraps(handler)
    async def wrapper(self, *args, **kwargs):
        try:
            return await handler(self, *args, **kwargs)
        except Exception as exc:
            if not is_outage(exc):
                raise
            log.warning("database unavailable, socket %s kept open: %r",
                        getattr(self, "scope", {}).get("path", "?"), exc)
            return None

    return wrapper
