"""A database that cannot be reached is the 503 page with
``Retry-After`` (games/pages/outage.py), never a 500, for a view's query and for the
session loaded by a middleware; an open table socket whose chat line meets the
outage stays open (daphne closed it with 1011) and works again afterwards.

Here the database really fails (see :func:`database_unreachable`).
The same with a PostgreSQL restarted mid-hand is
tests/integration/test_database_restart.py (production topology)."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError, connection
from django.test import Client

from games.pages import outage

pytestmark = pytest.mark.django_db(transaction=True)


def _break_database() -> dict:
    saved = {k: connection.settings_dict[k] for k in ("NAME", "PORT", "OPTIONS")}
    connection.close()
    if connection.vendor == "postgresql":
        connection.close_pool()
        connection.settings_dict["PORT"] = "9"
        options = dict(saved["OPTIONS"])
        if "pool" in options:
            options["pool"] = {**options["pool"], "timeout": 1.0}
        connection.settings_dict["OPTIONS"] = options
    else:
        connection.settings_dict["NAME"] = "/nonexistent-outage-dir/cardroom.sqlite3"
    return saved


def _mend_database(saved: dict) -> None:
    connection.close()
    if connection.vendor == "postgresql":
        connection.close_pool()
    connection.settings_dict.update(saved)


@contextmanager
def database_unreachable():
    """The default connection really cannot reach its database: SQLite's file
    is in a directory that does not exist; PostgreSQL's port is one nothing
    listens on (a new pool, whose connection attempts fail, waits 1 s).  The
    settings are the ones every thread's connection shares."""
    saved = _break_database()
    try:
        yield
    finally:
        _mend_database(saved)


def assert_outage_page(response) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == str(outage.retry_after())
    assert response["Cache-Control"] == "no-store"
    html = response.content.decode()
    assert 'id="outage"' in html and "网站正在喘口气" in html and "安然无恙" in html


def test_a_view_query_during_an_outage_is_the_503_page():
    client = Client(raise_request_exception=False)
    assert client.get("/").status_code == 200
    with database_unreachable():
        response = client.get("/")
    assert_outage_page(response)
    assert client.get("/").status_code == 200, "back to normal once the database is"


def test_a_signed_in_users_session_during_an_outage_is_the_503_page():
    user = get_user_model().objects.create_user("outage-user", password="pw-outage-123")
    client = Client(raise_request_exception=False)
    client.force_login(user)
    with database_unreachable():
        page = client.get("/")
        post = client.post("/rooms/new/", {"game": "x"})
    assert_outage_page(page)
    assert_outage_page(post)


def test_the_page_speaks_the_users_language():
    client = Client(raise_request_exception=False)
    client.cookies["django_language"] = "en"
    with database_unreachable():
        response = client.get("/")
    assert response.status_code == 503
    assert "catching its breath" in response.content.decode()


def test_an_error_caused_by_a_database_error_counts_as_an_outage():
    try:
        try:
            raise OperationalError("server closed the connection unexpectedly")
        except OperationalError:
            raise AttributeError("'SessionStore' object has no attribute '_session_cache'")
    except AttributeError as exc:
        assert outage.is_outage(exc)
    assert not outage.is_outage(AttributeError("unrelated"))
    assert not outage.is_outage(None)


async def test_a_table_socket_stays_open_through_an_outage(bot_room, alice):
    """A chat line sent while the database is down is dropped (the socket is
    not closed: no 1011); once it is back, the next line is posted and shown."""
    import json

    from asgiref.sync import sync_to_async
    from channels.db import database_sync_to_async
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator
    from django.db import connections

    from games.live.routing import websocket_urlpatterns

    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/rooms/{bot_room.pk}/")
    comm.scope["user"] = alice
    comm.scope["cookies"] = {}
    try:
        assert (await comm.connect())[0]
        assert 'id="table"' in await comm.receive_from(timeout=10)
        saved = await sync_to_async(_break_database)()
        try:
            await comm.send_to(text_data=json.dumps({"chat": "during the outage"}))
            assert await comm.receive_nothing(timeout=3), "nothing sent, and not closed"
        finally:
            await sync_to_async(_mend_database)(saved)
        await comm.send_to(text_data=json.dumps({"chat": "after the outage"}))
        seen = ""
        for _i in range(10):
            message = await comm.receive_output(timeout=10)
            assert message["type"] == "websocket.send", f"the socket was closed: {message}"
            seen += message.get("text", "")
            if "after the outage" in seen:
                break
        assert "after the outage" in seen and "during the outage" not in seen
    finally:
        await comm.disconnect()
        await database_sync_to_async(connections.close_all)()
