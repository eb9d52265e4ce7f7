"""Web Push endpoints: the server POSTs only to public https push services.

The November audit stored ``http://127.0.0.1:8250/ssrf``, the metadata address
and ``http://localhost:6379/`` as push endpoints, and every notice then made
the worker POST to them; another user's endpoint could be taken over, and one
user kept 64 subscriptions.  Each refused class of address is tried through
the page's own POST; the send path is tried with a real listener on loopback
that must see no connection."""

from __future__ import annotations

import json
import socket
import threading

import pytest
from py_vapid import Vapid01

from notifications import endpoints, services
from notifications.models import Kind, PushSubscription

pytestmark = pytest.mark.django_db

KEYS = {"p256dh": "BPcMbnWQL5GOYX", "auth": "k2yQ"}
PUBLIC = "93.184.215.14"


def browser_keys() -> dict:
    """Real keys, as a browser gives them, so the message is encrypted and sent."""
    import base64
    import os

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    public = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    b64 = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()  # noqa: E731
    return {"p256dh": b64(public), "auth": b64(os.urandom(16))}


@pytest.fixture
def vapid(settings):
    key = Vapid01()
    key.generate_keys()
    settings.WEBPUSH_VAPID_PRIVATE_KEY = key.private_pem().decode()
    settings.WEBPUSH_VAPID_PUBLIC_KEY = "BPublicKeyForThePage"
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:td@example.org"
    return key


@pytest.fixture
def dns(monkeypatch):
    """A resolver the test writes: name -> addresses; unknown names do not resolve."""
    table: dict[str, list[str]] = {"push.example.net": [PUBLIC]}

    def resolve(host, port):
        if host not in table:
            raise socket.gaierror(f"unknown name {host}")
        return table[host]

    monkeypatch.setattr(endpoints, "POLICY", endpoints.Policy(resolve=resolve))
    return table


def subscribe(client, endpoint: str):
    return client.post("/notices/push/subscribe", json.dumps({"endpoint": endpoint, "keys": KEYS}),
                       content_type="application/json")


@pytest.mark.parametrize("endpoint", [
    "http://127.0.0.1:8250/ssrf",             # loopback v4, plain http
    "https://127.0.0.1/push",                 # loopback v4 over https
    "https://[::1]/push",                     # loopback v6
    "https://[::ffff:127.0.0.1]/push",        # loopback v4 inside v6
    "https://localhost/push",                 # a name for loopback (the system's resolver)
    "https://10.0.0.5/push",                  # private
    "https://192.168.1.1/push",               # private
    "https://172.16.0.1/push",                # private
    "https://169.254.169.254/latest/meta-data/",  # link-local: the cloud's metadata address
    "https://[fe80::1]/push",                 # link-local v6
    "https://[fd00::1]/push",                 # unique-local v6
    "https://100.64.0.1/push",                # shared address space
    "https://224.0.0.1/push",                 # multicast
    "https://0.0.0.0/push",                   # unspecified
    "http://push.example.net/push",           # a public name, but plain http
    "https://push.example.net:6379/push",     # a public name on another port
    "https://user:pw@push.example.net/push",  # credentials
    "https://rebind.example.net/push",        # a name that resolves to loopback
    "https://mixed.example.net/push",         # one public and one private address
    "https://nowhere.example.net/push",       # does not resolve
])
def test_each_refused_class_of_endpoint_gets_400_and_stores_nothing(vapid, dns, make_user, client, endpoint):
    dns["rebind.example.net"] = ["127.0.0.1"]
    dns["mixed.example.net"] = [PUBLIC, "10.1.1.1"]
    client.force_login(make_user("mia"))
    assert subscribe(client, endpoint).status_code == 400
    assert not PushSubscription.objects.exists()


def test_a_public_https_endpoint_is_kept(vapid, dns, make_user, client):
    mia = make_user("mia")
    client.force_login(mia)
    assert subscribe(client, "https://push.example.net/v1/abc").status_code == 200
    assert PushSubscription.objects.get().user == mia


def test_another_users_endpoint_is_not_taken_over(vapid, dns, make_user, client):
    victim, attacker = make_user("victim"), make_user("attacker")
    services.subscribe_push(victim, {"endpoint": "https://push.example.net/v1/victim", "keys": KEYS})
    client.force_login(attacker)
    assert subscribe(client, "https://push.example.net/v1/victim").status_code == 400
    row = PushSubscription.objects.get()
    assert row.user == victim and row.p256dh == KEYS["p256dh"]
    # the owner may renew its own keys
    services.subscribe_push(victim, {"endpoint": row.endpoint, "keys": {"p256dh": "new", "auth": "new"}})
    assert PushSubscription.objects.get().p256dh == "new"


def test_a_user_keeps_at_most_the_cap_and_the_oldest_goes(vapid, dns, make_user, client):
    mia = make_user("mia")
    client.force_login(mia)
    cap = services.MAX_SUBSCRIPTIONS_PER_USER
    for i in range(cap + 3):
        assert subscribe(client, f"https://push.example.net/v1/{i}").status_code == 200
    kept = sorted(int(e.rsplit("/", 1)[1]) for e in PushSubscription.objects.values_list("endpoint", flat=True))
    assert kept == list(range(3, cap + 3))


class Listener:
    """A TCP listener on loopback that counts the connections it accepts."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            conn.close()

    def close(self):
        self.stop.set()
        self.thread.join(2)
        self.sock.close()


@pytest.fixture
def listener():
    got = Listener()
    yield got
    got.close()


def test_send_refuses_a_name_that_resolves_privately_at_send_time(vapid, make_user, monkeypatch, listener,
                                                                  django_capture_on_commit_callbacks):
    """Stored while its name resolved publicly; at send time the system's
    resolver (which every HTTP client here would use) answers loopback (DNS
    rebinding): no connection reaches the listener on that address."""
    answer = {"rebind.example.net": PUBLIC}
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host in answer:
            return real(answer[host], port, *args, **kwargs)
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(endpoints, "POLICY", endpoints.Policy(ports=(None, 443, listener.port)))
    mia = make_user("mia")
    services.subscribe_push(mia, {"endpoint": f"https://rebind.example.net:{listener.port}/v1/x", "keys": browser_keys()})
    answer["rebind.example.net"] = "127.0.0.1"
    with django_capture_on_commit_callbacks(execute=False):
        row = services.notify(mia, Kind.RESULTS, "event:1", "成绩已公布")
    assert services.deliver_push(row.pk) == 0
    assert listener.accepted == 0
    assert PushSubscription.objects.filter(user=mia).exists()  # kept: nothing was learnt about the browser


def test_the_pinned_connection_goes_to_the_checked_address(monkeypatch, listener):
    """The control for the test above: with loopback admitted, the same
    session does connect, to the address it checked (not the name's)."""
    monkeypatch.setattr(endpoints, "POLICY", endpoints.Policy(
        schemes=("http",), ports=(listener.port,), allow=lambda a: str(a) == "127.0.0.1",
        resolve=lambda host, port: ["127.0.0.1"]))
    with pytest.raises(Exception):  # the listener closes without answering
        endpoints.push_session().post(f"http://push.invalid:{listener.port}/x", data=b"")
    assert listener.accepted >= 1
    monkeypatch.setattr(endpoints, "POLICY", endpoints.Policy(
        schemes=("http",), ports=(listener.port,), resolve=lambda host, port: ["127.0.0.1"]))
    before = listener.accepted
    with pytest.raises(endpoints.UnsafeEndpoint):
        endpoints.push_session().post(f"http://push.invalid:{listener.port}/x", data=b"")
    assert listener.accepted == before


def test_no_redirect_is_followed(monkeypatch):
    """A 3xx is an answer: the session never asks the Location it names."""
    from http.server import BaseHTTPRequestHandler, HTTPServer

    asked = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            asked.append(self.path)
            self.send_response(307)
            self.send_header("Location", "/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    monkeypatch.setattr(endpoints, "POLICY", endpoints.Policy(
        schemes=("http",), ports=(port,), allow=lambda a: str(a) == "127.0.0.1"))
    try:
        resp = endpoints.push_session().post(f"http://127.0.0.1:{port}/push", data=b"x")
        assert resp.status_code == 307 and asked == ["/push"]
    finally:
        server.shutdown()
        server.server_close()
