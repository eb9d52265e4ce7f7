"""Websocket Origin check with the port.

Channels' ``AllowedHostsOriginValidator`` compares only the Origin's host name
with ``ALLOWED_HOSTS``: a page on ``http://localhost:9999`` could open a socket
to the site on ``localhost:8000`` with the visitor's cookies.  Django's CSRF
check compares the whole origin.  :class:`SameOriginValidator` does the same for
websockets: the Origin's host *and port* (the scheme's default port when it
names none) must equal the socket's own ``Host`` header, or the Origin must be
listed exactly in ``CSRF_TRUSTED_ORIGINS``; and the host must be allowed
(``ALLOWED_HOSTS``).  A socket without an Origin (not a browser) is refused.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin1")
    return None


def _host_port(netloc: str, scheme: str) -> tuple[str, str] | None:
    host, port = split_domain_port(netloc.lower())
    if not host:
        return None
    return host, port or DEFAULT_PORTS.get(scheme, "")


def origin_allowed(origin: str | None, host_header: str | None, scheme: str = "ws") -> bool:
    """True when ``origin`` (e.g. ``"http://localhost:8000"``) is the site
    reached through ``host_header`` (e.g. ``"localhost:8000"``) or is trusted."""
    if not origin or not host_header:
        return False
    if origin in getattr(settings, "CSRF_TRUSTED_ORIGINS", ()):
        return True
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    theirs = _host_port(parts.netloc, parts.scheme)
    # The socket's Host has no scheme: ws:// pairs with http://, wss:// with https://.
    ours = _host_port(host_header, "https" if scheme == "wss" else parts.scheme)
    if theirs is None or ours is None or theirs != ours:
        return False
    return validate_host(ours[0], settings.ALLOWED_HOSTS)


class SameOriginValidator:
    """ASGI middleware: websockets whose Origin fails :func:`origin_allowed`
    are refused (closed before accept) and never reach the application."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            origin = _header(scope, b"origin")
            host = _header(scope, b"host")
            if not origin_allowed(origin, host, scope.get("scheme", "ws")):
                denier = WebsocketDenier()
                return await denier(scope, receive, send)
        return await self.application(scope, receive, send)
