"""The client's IP address, trusting proxy headers only from configured proxies.

Behind a load balancer every request arrives from the balancer's
address, so a lockout keyed on username + IP let anyone lock a victim out.
With ``settings.TRUSTED_PROXIES`` (env ``DJANGO_TRUSTED_PROXIES``: a
comma-separated list of addresses or CIDR networks, e.g. ``127.0.0.1,10.0.0.0/8``)
a request whose ``REMOTE_ADDR`` is a trusted proxy is attributed to the
right-most ``X-Forwarded-For`` entry that is not itself a trusted proxy.  From
anyone else ``X-Forwarded-For`` is ignored: a client cannot pick its own IP.

Used by django-axes (``AXES_CLIENT_IP_CALLABLE``, lockout by username + this
IP) and by the request rate limits (:mod:`games.pages.throttle`).
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings


@lru_cache(maxsize=8)
def _networks(spec: tuple[str, ...]) -> tuple:
    nets = []
    for item in spec:
        item = item.strip()
        if item:
            nets.append(ipaddress.ip_network(item, strict=False))
    return tuple(nets)


def _trusted(address: str, nets) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in net for net in nets)


def client_ip(request) -> str:
    """The address to attribute ``request`` to (a string; ``""`` if unknown)."""
    remote = (request.META.get("REMOTE_ADDR") or "").strip()
    nets = _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ()) or ()))
    if not nets or not _trusted(remote, nets):
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [h.strip() for h in forwarded.split(",") if h.strip()][:32]
    for hop in reversed(hops):
        if not _trusted(hop, nets):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return remote  # garbage from the client side: keep the proxy's address
    return remote
