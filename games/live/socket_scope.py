"""What a websocket's scope says about how to render for it (issue #11).

Every pushed fragment (tables, lobby, event pages, quick play) is rendered in
its connection's language and, where it holds plain POST forms, with the
browser's CSRF token; the table sockets (:mod:`games.live.consumers`), their
fan-out (:mod:`games.live.fanout`) and other apps' consumers share these.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.utils import translation


class _HandshakeRequest:
    """The two things :func:`translation.get_language_from_request` reads of a
    request (``COOKIES``, ``META``), taken from a websocket scope."""

    def __init__(self, scope):
        self.COOKIES = scope.get("cookies") or {}
        headers = dict(scope.get("headers") or ())
        accept = headers.get(b"accept-language", b"").decode("latin-1")
        self.META = {"HTTP_ACCEPT_LANGUAGE": accept} if accept else {}


def scope_language(scope) -> str:
    """The language a websocket's fragments are rendered in: the one the user
    chose (the ``django_language`` cookie set by ``set_language``), else the
    browser's ``Accept-Language``, else ``LANGUAGE_CODE``: what
    ``LocaleMiddleware`` picks for the same browser's pages (issue #11)."""
    return translation.get_language_from_request(_HandshakeRequest(scope), check_path=False)


def scope_csrf_token(scope) -> str:
    """The browser's CSRF cookie from a websocket's scope (the secret, which
    Django's check accepts as a form token), for pushed fragments that hold
    plain POST forms (event pages, quick play): a push replaces the
    request-rendered forms, which without it are refused with 403 "CSRF token
    missing".  "" when there is none or it is not a well-formed token."""
    token = (scope.get("cookies") or {}).get(settings.CSRF_COOKIE_NAME, "")
    return token if re.fullmatch(r"[A-Za-z0-9]{32}|[A-Za-z0-9]{64}", token) else ""


def render_in(language: str, render, *args):
    """``render(*args)`` with ``language`` active (in the calling thread): every
    pushed fragment (tables, lobby, event pages, quick play) is rendered in its
    connection's :func:`scope_language` this way (issue #11, defect 1)."""
    with translation.override(language):
        return render(*args)
