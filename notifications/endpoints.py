"""Where the server may POST a Web Push message: public push services only.

A browser's push subscription names an ``endpoint`` URL, and the worker POSTs
every notice there.  The URL comes from the browser, that is from whoever
signs in, so without a check the site is a blind SSRF: it would POST to
``http://127.0.0.1:6379/``, to the cloud's metadata address or to any host on
the private network.  Real push services (FCM, Mozilla's autopush, Apple's,
Microsoft's) are public ``https`` hosts on port 443, so the rule is:

* the URL is ``https``, on the default port (443), with no user name or
  password in it;
* its host, an IP literal or every address its name resolves to, is a public
  unicast address (:func:`address_allowed`: loopback, private, link-local,
  shared, reserved, documentation, multicast and unspecified are refused,
  in IPv4 and IPv6, IPv4-mapped IPv6 included);
* checked when the subscription is stored (:func:`check_endpoint`) and again
  when each message is sent, because a name can resolve elsewhere later (DNS
  rebinding): :func:`push_session`'s connections resolve the name
  themselves, refuse it unless every address passes, and connect to the
  address they checked, so nothing can change between the check and the
  connection; the TLS certificate is still verified against the name;
* no redirects are followed and no proxy from the environment is used.

Tests that run a push service on loopback swap :data:`POLICY` for one that
admits exactly their server; nothing in the site does.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass, field
from typing import Callable
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

#: Seconds to connect to a push service, and to wait for its answer.
CONNECT_TIMEOUT_S = 3
READ_TIMEOUT_S = 5


class UnsafeEndpoint(ValueError):
    """A push endpoint the server must not send to; the message says why
    (for the log: the browser only learns that the subscription was refused)."""


def address_allowed(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether the server may connect to ``address``: a globally routable
    unicast address.  ``is_global`` already excludes loopback, the private
    ranges (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16 with
    the metadata address, fe80::/10), shared address space (100.64/10),
    documentation and benchmarking ranges, 0.0.0.0 and ::.  Multicast is
    refused on top.  An IPv4-mapped IPv6 address (``::ffff:127.0.0.1``) is
    judged as the IPv4 address it carries.

    >>> address_allowed(ipaddress.ip_address("8.8.8.8"))
    True
    >>> [address_allowed(ipaddress.ip_address(a)) for a in
    ...  ("127.0.0.1", "::1", "10.1.2.3", "169.254.169.254", "::ffff:127.0.0.1", "224.0.0.1")]
    [False, False, False, False, False, False]
    """
    mapped = getattr(address, "ipv4_mapped", None)
    if mapped is not None:
        address = mapped
    return address.is_global and not address.is_multicast


def _system_resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (the system's resolver, as the
    connection itself would use)."""
    return sorted({info[4][0] for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)})


@dataclass(frozen=True)
class Policy:
    """What a push endpoint may be: its schemes, its ports (None: the
    scheme's default), which addresses it may reach, and how names resolve."""

    schemes: tuple[str, ...] = ("https",)
    ports: tuple[int | None, ...] = (None, 443)
    allow: Callable[[ipaddress.IPv4Address | ipaddress.IPv6Address], bool] = address_allowed
    resolve: Callable[[str, int], list[str]] = field(default=_system_resolve)


#: The policy in force (see the module's docstring).
POLICY = Policy()


def checked_addresses(host: str, port: int, policy: Policy | None = None) -> list[str]:
    """The addresses ``host`` may be reached at, all of them checked.

    ``host`` is an IP literal (IPv6 with or without brackets) or a name.
    Raises :class:`UnsafeEndpoint` when it resolves to nothing, or when *any*
    of its addresses is refused: a name with one private address among
    public ones is refused whole, since which one a connection would take is
    not ours to choose."""
    policy = policy or POLICY
    host = host.strip("[]")
    try:
        addresses = [str(ipaddress.ip_address(host))]
    except ValueError:
        try:
            addresses = policy.resolve(host, port)
        except (OSError, UnicodeError) as exc:
            raise UnsafeEndpoint(f"{host!r} does not resolve: {exc}") from None
    if not addresses:
        raise UnsafeEndpoint(f"{host!r} resolves to no address")
    for text in addresses:
        try:
            address = ipaddress.ip_address(text.split("%", 1)[0])
        except ValueError:
            raise UnsafeEndpoint(f"{host!r} resolves to {text!r}, not an address") from None
        if not policy.allow(address):
            raise UnsafeEndpoint(f"{host!r} resolves to {address}, which is not public")
    return addresses


def _checked_url(url: str, policy: Policy) -> tuple[str, int]:
    """``(host, port)`` of ``url`` when its form is allowed (the policy's
    scheme and port, no credentials, a host); :class:`UnsafeEndpoint` else.
    Resolves nothing."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise UnsafeEndpoint(f"not a URL: {exc}") from None
    if parts.scheme not in policy.schemes:
        raise UnsafeEndpoint(f"scheme {parts.scheme!r} is not allowed")
    if port not in policy.ports:
        raise UnsafeEndpoint(f"port {port} is not allowed")
    if parts.username is not None or parts.password is not None:
        raise UnsafeEndpoint("credentials in the URL")
    if not parts.hostname:
        raise UnsafeEndpoint("no host")
    return parts.hostname, port or (443 if parts.scheme == "https" else 80)


def check_endpoint(url: str, policy: Policy | None = None) -> str:
    """``url`` if the server may POST to it, else :class:`UnsafeEndpoint`.

    The rules are the module's: the policy's scheme (``https``) and port (the
    default), no credentials in the URL, and every address of its host
    allowed (:func:`checked_addresses`)."""
    policy = policy or POLICY
    checked_addresses(*_checked_url(url, policy), policy)
    return url


class _PinnedConnectionMixin:
    """A urllib3 connection that resolves its host itself, refuses it unless
    every address passes :data:`POLICY`, and connects to the first address it
    checked.  ``host`` (and so TLS's SNI and certificate check) keeps the
    name; only the TCP connection is pinned."""

    def _new_conn(self):
        addresses = checked_addresses(self._dns_host.rstrip("."), self.port)
        name = self._dns_host
        self._dns_host = addresses[0]
        try:
            return super()._new_conn()
        finally:
            self._dns_host = name


class _PinnedHTTPConnection(_PinnedConnectionMixin, HTTPConnection):
    pass


class _PinnedHTTPSConnection(_PinnedConnectionMixin, HTTPSConnection):
    pass


class _PinnedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _PinnedHTTPConnection


class _PinnedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _PinnedHTTPSConnection


class _PinnedAdapter(HTTPAdapter):
    """A requests adapter whose pools make only pinned connections."""

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _PinnedHTTPPool, "https": _PinnedHTTPSPool}


class _TimedSession(requests.Session):
    """A session whose every request has the push timeouts and follows no redirect."""

    def request(self, method, url, **kwargs):
        _checked_url(url, POLICY)  # the connection resolves and checks the host itself
        kwargs["timeout"] = (CONNECT_TIMEOUT_S, READ_TIMEOUT_S)
        kwargs["allow_redirects"] = False
        return super().request(method, url, **kwargs)


def push_session() -> requests.Session:
    """A ``requests`` session for sending push messages (pywebpush's
    ``requests_session``): it checks each URL's form (scheme, port, no
    credentials), resolves the host once per connection and connects only to
    an address it checked (:func:`checked_addresses`), follows no
    redirect (a 3xx is an answer, which pywebpush reports as a failure),
    ignores proxies from the environment, and gives up after
    :data:`CONNECT_TIMEOUT_S` / :data:`READ_TIMEOUT_S` seconds.  Raises
    :class:`UnsafeEndpoint` (from ``post``) for a URL it refuses."""
    session = _TimedSession()
    session.trust_env = False
    adapter = _PinnedAdapter()
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session
