"""A database outage is a 503 page with ``Retry-After``, never a 500.

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
database) and without a session.  What counts as an outage is
:func:`games.services.outage.is_outage`; websockets survive one through
:func:`games.live.socket_scope.socket_survives_outage`.
"""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.http import HttpResponse
from django.template import loader
from django.views.defaults import server_error as django_server_error

from games.services.outage import is_outage

log = logging.getLogger(__name__)

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
