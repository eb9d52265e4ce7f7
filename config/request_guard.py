"""Refuse a request carrying NUL or invalid UTF-8 in its path or parameters.

PostgreSQL cannot store or compare a string holding NUL (``\\x00``): psycopg
raises ``ValueError`` as soon as such a value reaches a query, so a NUL in a
club name, a join code or a partner's username was a 500.  No page of the site
has a use for NUL, so :class:`InputGuardMiddleware` answers 400 (Django's
``BadRequest``, through the site's 400 handler; to htmx with ``HX-Reswap:
none``, so the page stays as it was) before any view, service or session read
runs.  Values are checked as Django decoded them: the path, the
query string and, for POST, the form fields (names and values).

A form field or query parameter whose percent-decoded bytes are not UTF-8
(``%FF``, or ``%ED%A0%80``, a surrogate's encoding) is refused the same way:
Django would silently replace them with U+FFFD and store a name nobody typed.

Forms and services still check their own fields (length, NUL, lone
surrogates: :func:`accounts.validators.clean_text`), for the paths that do not
come through HTTP (websockets, admin actions, management commands).
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from django.core.exceptions import BadRequest
from django.core.handlers.exception import response_for_exception
from django.http import Http404

NUL = "\x00"
#: Largest id a URL may name: the id columns are signed 64-bit integers.
MAX_ID = 2**63 - 1
FORM = "application/x-www-form-urlencoded"


def _not_utf8(raw: bytes) -> bool:
    """Whether a field of the urlencoded ``raw`` decodes to bytes that are not UTF-8."""
    for part in raw.replace(b";", b"&").split(b"&"):
        try:
            unquote_to_bytes(part.replace(b"+", b" ")).decode("utf-8")
        except UnicodeDecodeError:
            return True
    return False


def _has_nul(query_dict) -> bool:
    """Whether any name or value of ``query_dict`` (a ``QueryDict``) holds NUL."""
    return any(NUL in key or any(NUL in v for v in values if isinstance(v, str))
               for key, values in query_dict.lists())


class InputGuardMiddleware:
    """Raises ``BadRequest`` (400) for NUL in the path, GET or POST, or
    invalid UTF-8 in the query string or a urlencoded POST body; ``Http404``
    for an id in the URL past 64 bits."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            self.check(request)
        except BadRequest as exc:
            response = response_for_exception(request, exc)  # the site's 400 page
            if request.headers.get("HX-Request"):
                response["HX-Reswap"] = "none"  # htmx leaves the page as it was
            return response
        return self.get_response(request)

    @staticmethod
    def check(request) -> None:
        """Raise ``BadRequest`` if ``request`` carries NUL or non-UTF-8."""
        if NUL in request.path_info or _has_nul(request.GET) or (
            request.method == "POST" and _has_nul(request.POST)
        ):
            raise BadRequest("NUL character in the request")
        if _not_utf8(request.META.get("QUERY_STRING", "").encode("latin-1", "replace")) or (
            request.method == "POST" and request.content_type == FORM and _not_utf8(request.body)
        ):
            raise BadRequest("a parameter is not UTF-8")

    def process_view(self, request, view_func, view_args, view_kwargs):
        """404 for a URL's integer (an ``<int:…>`` argument) past :data:`MAX_ID`:
        it names nothing, but a foreign-key lookup with it overflowed the
        database driver (a 500)."""
        if any(isinstance(v, int) and v > MAX_ID for v in (*view_args, *view_kwargs.values())):
            raise Http404
        return None
