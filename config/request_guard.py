"""Refuse a request carrying NUL in its path or parameters (issue #22).

PostgreSQL cannot store or compare a string holding NUL (``\\x00``): psycopg
raises ``ValueError`` as soon as such a value reaches a query, so a NUL in a
club name, a join code or a partner's username was a 500.  No page of the site
has a use for NUL, so :class:`NulGuardMiddleware` answers 400 (Django's
``BadRequest``, through the site's 400 handler) before any view, service or
session read runs.  Values are checked as Django decoded them: the path, the
query string and, for POST, the form fields (names and values) — an invalid
UTF-8 sequence was already replaced by U+FFFD there, which is harmless.

Forms and services still check their own fields (length, NUL, lone
surrogates: :func:`accounts.validators.clean_text`), for the paths that do not
come through HTTP (websockets, admin actions, management commands).
"""

from __future__ import annotations

from django.core.exceptions import BadRequest

NUL = "\x00"


def _has_nul(query_dict) -> bool:
    """Whether any name or value of ``query_dict`` (a ``QueryDict``) holds NUL."""
    return any(NUL in key or any(NUL in v for v in values if isinstance(v, str))
               for key, values in query_dict.lists())


class NulGuardMiddleware:
    """Raises ``BadRequest`` (400) for NUL in the path, GET or POST."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if NUL in request.path_info or _has_nul(request.GET) or (
            request.method == "POST" and _has_nul(request.POST)
        ):
            raise BadRequest("NUL character in the request")
        return self.get_response(request)
