"""What a websocket's scope says about how to render for it.

Every pushed fragment (tables, lobby, event pages, quick play) is rendered in
its connection's language and, where it holds plain POST forms, with the
browser's CSRF token; the table sockets (:mod:`games.live.consumers`), their
fan-out (:mod:`games.live.fanout`) and other apps' consumers share these.
"""

from __future__ import annotations

import functools
import logging
import re

from django.conf import settings
from django.utils import translation
from django.utils.functional import LazyObject, empty

from games.render.memo import rendering_in
from games.services.outage import is_outage

log = logging.getLogger(__name__)


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
    ``LocaleMiddleware`` picks for the same browser's pages."""
    return translation.get_language_from_request(_HandshakeRequest(scope), check_path=False)


def scope_user(scope):
    """The socket's user as the model instance itself (or ``AnonymousUser``,
    or None when no auth middleware ran).

    Channels' ``AuthMiddleware`` puts a ``UserLazyObject`` in ``scope["user"]``
    and resolves it before the consumer runs.  The proxy forwards attribute
    reads, but not everything a model instance offers: ``type(user)`` is the
    proxy class (which has no ``objects`` manager), and every access pays the
    proxy's indirection.  A consumer takes the wrapped instance once, in
    ``connect``, and uses that for the socket's life.  A proxy the middleware
    has not resolved yet is returned as it is (reading it raises channels'
    own "scope user not ready" error, which is the honest failure)."""
    user = scope.get("user")
    if isinstance(user, LazyObject):
        wrapped = user.__dict__.get("_wrapped", empty)
        if wrapped is not empty:
            return wrapped
    return user


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
    connection's :func:`scope_language` this way (the table's Jinja2 fragment
    then reads the language from :func:`games.render.memo.rendering_in`
    instead of asking Django for it again and again)."""
    with rendering_in(language):
        return render(*args)


def socket_survives_outage(handler):
    """Decorator for an async websocket consumer's handler (``receive``, a
    group message's handler): a database outage error in it is logged and the
    handler returns None, so the socket stays open (daphne closed it with 1011)
    and gets the table again when the database is back.  The user's message
    that met the outage (a chat line, a mute) is dropped, never half-stored: it
    was one transaction.  Other errors propagate as before."""
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
