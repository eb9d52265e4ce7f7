"""Optional Web Push (pywebpush): with VAPID keys in settings, a new
notice is pushed once to each of the user's browsers, encrypted for that
browser (aes128gcm) and VAPID-signed.  The push service here is a real HTTP
server on loopback; the test decrypts what it received with the browser's
private key, as the browser would.  A subscription the service says is gone
(410) is deleted.  Without keys, nothing is pushed and the button is absent."""

from __future__ import annotations

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid01

from notifications import endpoints, services
from notifications.models import Kind, PushSubscription

pytestmark = pytest.mark.django_db


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService:
    """A loopback push service: records each POST; answers ``status``."""

    def __init__(self, status: int = 201):
        self.received: list[tuple[dict, bytes]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                outer.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/push/abc"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def vapid(settings):
    key = Vapid01()
    key.generate_keys()
    settings.WEBPUSH_VAPID_PRIVATE_KEY = key.private_pem().decode()
    raw_public = key.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    settings.WEBPUSH_VAPID_PUBLIC_KEY = b64(raw_public)
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:td@example.org"
    return key


def browser_keys():
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    auth = os.urandom(16)
    return private, public, auth


def admit_only(monkeypatch, service: "PushService"):
    """Let the server push to ``service`` on loopback, and to nothing else on
    loopback: the site's policy refuses every non-public address (tested in
    test_push_endpoints.py), so a test's own push service is admitted by name."""
    port = service.server.server_address[1]
    monkeypatch.setattr(endpoints, "POLICY", endpoints.Policy(
        schemes=("http",), ports=(port,), allow=lambda address: str(address) == "127.0.0.1"))


@pytest.fixture
def public_names(monkeypatch):
    """Every name resolves to a public address (no DNS in the test sandbox)."""
    monkeypatch.setattr(endpoints, "POLICY", endpoints.Policy(resolve=lambda host, port: ["93.184.215.14"]))


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch):
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")


def test_a_notice_is_pushed_once_encrypted_for_the_browser(vapid, make_user, client, django_capture_on_commit_callbacks,
                                                           monkeypatch):
    mia = make_user("mia")
    service = PushService()
    admit_only(monkeypatch, service)
    try:
        private, public, auth = browser_keys()
        client.force_login(mia)
        page = client.get("/notices/").content.decode()
        assert 'id="enable-push"' in page and vapid and 'data-key="' in page
        resp = client.post("/notices/push/subscribe", json.dumps(
            {"endpoint": service.url, "keys": {"p256dh": b64(public), "auth": b64(auth)}}), content_type="application/json")
        assert resp.status_code == 200 and PushSubscription.objects.filter(user=mia).count() == 1
        with django_capture_on_commit_callbacks(execute=True):
            row = services.notify(mia, Kind.TABLE_READY, "event:1:round:1", "第1轮：你的牌桌已就绪", "第2桌", "/rooms/7/")
        services.deliver_push(row.pk)  # the worker's task (embedded: ran already after the commit)
        assert services.deliver_push(row.pk) == 0  # a retried task pushes nothing more
        assert len(service.received) == 1
        headers, body = service.received[0]
        assert headers["content-encoding"] == "aes128gcm"
        assert headers["authorization"].startswith("vapid t=")
        plain = http_ece.decrypt(body, private_key=private, auth_secret=auth, version="aes128gcm")
        assert json.loads(plain) == {"title": "第1轮：你的牌桌已就绪", "body": "第2桌", "url": "/rooms/7/"}
    finally:
        service.close()


def test_a_gone_subscription_is_deleted(vapid, make_user, django_capture_on_commit_callbacks, monkeypatch):
    mia = make_user("mia")
    service = PushService(status=410)
    admit_only(monkeypatch, service)
    try:
        private, public, auth = browser_keys()
        services.subscribe_push(mia, {"endpoint": service.url, "keys": {"p256dh": b64(public), "auth": b64(auth)}})
        with django_capture_on_commit_callbacks(execute=True):
            row = services.notify(mia, Kind.RESULTS, "event:1", "成绩已公布")
        services.deliver_push(row.pk)  # the worker's task (embedded: ran already after the commit)
        assert len(service.received) == 1 and not PushSubscription.objects.exists()
    finally:
        service.close()


def test_without_keys_nothing_is_pushed(settings, make_user, client):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    mia = make_user("mia")
    client.force_login(mia)
    assert 'id="enable-push"' not in client.get("/notices/").content.decode()
    assert client.post("/notices/push/subscribe", "{}", content_type="application/json").status_code == 404
    with pytest.raises(ValueError):
        services.subscribe_push(mia, {"endpoint": "ftp://x", "keys": {"p256dh": "a", "auth": "b"}})


@pytest.mark.django_db
def test_a_malformed_subscription_is_refused_and_stores_nothing(vapid, make_user, client, public_names):
    """a subscription too long for its columns (a server error on
    PostgreSQL, stored as is on SQLite), with a NUL, of the wrong types, or
    nested too deep for the JSON parser (RecursionError: 500) gets 400."""
    client.force_login(make_user("mia"))
    keys = {"p256dh": "BPcMbnWQL5GOYX", "auth": "k2yQ"}
    bodies = [
        {"endpoint": "https://push.example/" + "a" * 600, "keys": keys},
        {"endpoint": "https://push.example/x", "keys": {"p256dh": "k" * 201, "auth": "k"}},
        {"endpoint": "https://push.example/x", "keys": {"p256dh": "k", "auth": "k" * 101}},
        {"endpoint": "https://push.example/\x00", "keys": keys},
        {"endpoint": "https://push.example/x", "keys": {"p256dh": ["k"], "auth": 5}},
        {"endpoint": ["https://push.example/x"], "keys": keys},
        {"endpoint": "https://", "keys": keys},
        {"endpoint": "https://push.example/x", "keys": []},
    ]
    for body in [json.dumps(b) for b in bodies] + ["[" * 5000, "\xff"]:
        resp = client.post("/notices/push/subscribe", body, content_type="application/json")
        assert resp.status_code == 400, body[:80]
    assert not PushSubscription.objects.exists()
    ok = client.post("/notices/push/subscribe", json.dumps({"endpoint": "https://push.example/x", "keys": keys}),
                     content_type="application/json")
    assert ok.status_code == 200 and PushSubscription.objects.count() == 1
