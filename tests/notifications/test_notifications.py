"""Notifications: one row and one e-mail per (user, kind, key) however
often it is sent; the e-mail's one-click unsubscribe link (RFC 8058 POST, no
session) stops that kind only; the in-site list and its unread count, pushed
over ``ws/notices/``."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.core import mail
from django.db import connections
from django.test import Client

from notifications import services
from notifications.models import Kind, Notification, Unsubscribe
from notifications.routing import websocket_urlpatterns


@pytest.fixture
def mia(make_user):
    user = make_user("mia")
    user.email = "mia@example.org"
    user.save()
    return user


def send(user, kind=Kind.TABLE_READY, key="event:1:round:2", capture=None):
    """Notify, then run the e-mail task as a worker would (in the embedded
    topology the eager task ran already after the commit: this then sends nothing)."""
    with capture(execute=True):
        row = services.notify(user, kind, key, "第2轮：你的牌桌已就绪", "第1桌", "/rooms/9/")
    if row is not None:
        services.deliver_email(row.pk)
    return row


@pytest.mark.django_db
def test_each_notice_is_sent_once(mia, django_capture_on_commit_callbacks):
    first = send(mia, capture=django_capture_on_commit_callbacks)
    again = send(mia, capture=django_capture_on_commit_callbacks)
    assert first is not None and again is None
    assert Notification.objects.filter(user=mia).count() == 1
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["mia@example.org"]
    assert "/rooms/9/" in mail.outbox[0].body
    # a retried e-mail task does not send twice
    assert services.deliver_email(first.pk) is False
    assert len(mail.outbox) == 1
    # another round is another notice
    send(mia, key="event:1:round:3", capture=django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 2
    with pytest.raises(ValueError):
        services.notify(mia, "gossip", "x", "s")


@pytest.mark.django_db
def test_one_click_unsubscribe_stops_that_kind_only(mia, django_capture_on_commit_callbacks):
    send(mia, capture=django_capture_on_commit_callbacks)
    message = mail.outbox[0]
    link = re.search(r"<(http[^>]+)>", message.extra_headers["List-Unsubscribe"]).group(1)
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    path = link.split("localhost:8000", 1)[1]
    assert path in message.body
    client = Client(enforce_csrf_checks=True)  # the mail client: no session, no CSRF token
    page = client.get(path)
    assert page.status_code == 200 and 'id="unsubscribe"' in page.content.decode()
    assert not Unsubscribe.objects.exists()
    done = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200
    assert list(Unsubscribe.objects.values_list("user__username", "kind")) == [("mia", Kind.TABLE_READY)]
    send(mia, key="event:1:round:3", capture=django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 1  # no more "table ready" e-mail ...
    assert Notification.objects.filter(user=mia, kind=Kind.TABLE_READY).count() == 2  # ... still in the site
    send(mia, kind=Kind.RESULTS, key="event:1", capture=django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 2 and mail.outbox[1].subject
    assert client.post(path[:-6] + "xxxxx/").status_code == 404  # a forged token


@pytest.mark.django_db
def test_list_shows_notices_and_marks_them_read(mia, client, django_capture_on_commit_callbacks):
    send(mia, capture=django_capture_on_commit_callbacks)
    send(mia, kind=Kind.RESULTS, key="event:1", capture=django_capture_on_commit_callbacks)
    client.force_login(mia)
    html = client.get("/notices/").content.decode()
    assert html.count('class="notice unread"') == 2
    assert 'data-count="2"' in html  # the header's badge
    client.post("/notices/read")
    html = client.get("/notices/").content.decode()
    assert 'class="notice unread"' not in html and 'data-count="0"' in html
    client.post("/notices/email", {"kind": [Kind.RESULTS]})  # keep only results by e-mail
    assert set(Unsubscribe.objects.filter(user=mia).values_list("kind", flat=True)) == set(Kind.values) - {Kind.RESULTS}


@pytest.fixture
async def _close_thread_connections():
    yield
    await database_sync_to_async(connections.close_all)()


@pytest.mark.django_db(transaction=True)
async def test_unread_count_is_pushed_over_the_socket(mia, _close_thread_connections):
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/notices/")
    comm.scope["user"] = mia
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_from(timeout=10)
    assert 'id="notice-count"' in first and 'data-count="0"' in first and "hx-swap-oob" in first
    await database_sync_to_async(services.notify)(mia, Kind.RESULTS, "event:5", "成绩已公布", "秘密内容")
    pushed = await comm.receive_from(timeout=10)
    assert 'data-count="1"' in pushed and "秘密内容" not in pushed
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_anonymous_socket_is_refused(_close_thread_connections):
    from django.contrib.auth.models import AnonymousUser

    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/notices/")
    comm.scope["user"] = AnonymousUser()
    connected, _ = await comm.connect()
    # accepted and closed at once with 4403 (a refused handshake would be a
    # console error in the browser and badge.js would retry for ever)
    assert connected
    out = await comm.receive_output(timeout=10)
    assert out["type"] == "websocket.close" and out.get("code") == 4403


@pytest.mark.django_db
def test_an_unknown_kind_unsubscribes_from_nothing(mia, client):
    """a kind that does not exist is refused; it used to be read as
    "no kind checked" and unsubscribe from every kind (found by the fuzz test)."""
    client.force_login(mia)
    resp = client.post("/notices/email", {"kind": ["0"]})
    assert resp.status_code == 400
    resp = client.post("/notices/email", {"kind": [Kind.RESULTS, "gossip"]})
    assert resp.status_code == 400
    assert not Unsubscribe.objects.exists()
    client.post("/notices/email", {})  # nothing checked: no e-mail of any kind
    assert set(Unsubscribe.objects.filter(user=mia).values_list("kind", flat=True)) == set(Kind.values)


@pytest.mark.django_db(transaction=True)
def test_unsubscribe_link_of_a_deleted_account_is_not_found(mia):
    """the link in an old e-mail of an account deleted since named a
    user that no longer exists: the Unsubscribe row's foreign key failed
    (IntegrityError, a 500; at the commit on SQLite); now 404, nothing stored."""
    path = services.unsubscribe_url(mia.pk, Kind.RESULTS).split("localhost:8000", 1)[1]
    mia.delete()
    client = Client(raise_request_exception=False)
    assert client.get(path).status_code == 404
    assert client.post(path, {"List-Unsubscribe": "One-Click"}).status_code == 404
    assert not Unsubscribe.objects.exists()
