"""Watching event tables (docs/tournaments.md "Spectating"):

* an entrant of a running duplicate round may not watch another table of the
  round that has dealt boards the entrant's own table has not completed
  (refused with a sentence on the page, 4403 on the socket);
* whether visitors who are not signed in may watch a club's event tables is
  the club's ``public_tables`` setting (default yes: the public view only);
  when it is off the table says why (403 with the sentence) and the event page
  says so, instead of bouncing to the login form.  Other rooms still ask
  visitors to sign in.

Without clubs.guards and the watch checks in games.pages.views / games.live.consumers, an
entrant watched the board he was about to play, and visitors were sent to log in.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import connections
from django.urls import reverse

from clubs import services
from clubs.models import Club
from clubs.running import events
from games.models import Hand
from tests.clubs.rounds import two_table_round


def setup_round(club_setup, make_user, fmt="duplicate"):
    """mike+pam and three bot pairs: two tables; mike's waits for its humans,
    the bots' table deals board 1 at once."""
    event, r, mine, other, _ = two_table_round(club_setup, make_user, fmt=fmt, name="观看")
    return event, r, mine, other


@pytest.mark.django_db
def test_entrant_may_not_watch_a_board_still_to_play(client, club_setup, multipliers, make_user):
    club, olga, mike, *_ = club_setup
    event, r, mine, other = setup_round(club_setup, make_user)
    assert Hand.objects.filter(match__room=other.room).exists()
    client.force_login(mike)
    page = client.get(reverse("room", args=[other.room_id]))
    assert page.status_code == 403
    assert "打完你自己的这几副牌之后才能观看" in page.content.decode()
    assert client.get(reverse("room_table", args=[other.room_id])).status_code == 403
    assert client.get(reverse("room", args=[mine.room_id])).status_code == 200  # his own table
    # a member who did not enter may watch; so may mike once the round is over
    nina = make_user("nina")
    services.join_club(nina, club.join_code)
    client.force_login(nina)
    assert client.get(reverse("room", args=[other.room_id])).status_code == 200
    events.end_round_now(olga, r)
    client.force_login(mike)
    assert client.get(reverse("room", args=[other.room_id])).status_code == 200


@pytest.mark.django_db
def test_swiss_entrant_may_watch(client, club_setup, multipliers, make_user):
    club, olga, mike, *_ = club_setup
    event, r, mine, other = setup_round(club_setup, make_user, fmt="swiss")
    client.force_login(mike)
    assert client.get(reverse("room", args=[other.room_id])).status_code == 200


@pytest.mark.django_db
def test_visitors_watch_when_the_club_allows(client, club_setup, multipliers, make_user, bh_room):
    club, olga, mike, *_ = club_setup
    event, r, mine, other = setup_round(club_setup, make_user)
    page = client.get(reverse("room", args=[other.room_id]))
    assert page.status_code == 200 and 'id="table"' in page.content.decode()
    Club.objects.filter(pk=club.pk).update(public_tables=False)
    page = client.get(reverse("room", args=[other.room_id]))
    assert page.status_code == 403
    assert "只对登录的用户开放观看" in page.content.decode()
    event_page = client.get(reverse("event", args=[event.pk])).content.decode()
    assert 'id="watch-note"' in event_page
    # an ordinary room: sign in first, as before
    resp = client.get(reverse("room", args=[bh_room.pk]))
    assert resp.status_code == 302 and "login" in resp["Location"]


@pytest.fixture
async def _close_thread_connections():
    yield
    await database_sync_to_async(connections.close_all)()


async def socket(room_id, user):
    from games.live.routing import websocket_urlpatterns
    from channels.routing import URLRouter

    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/rooms/{room_id}/")
    comm.scope["user"] = user
    connected, _ = await comm.connect()
    assert connected
    return comm


@pytest.mark.django_db(transaction=True)
async def test_sockets_follow_the_same_rules(club_setup, multipliers, make_user, _close_thread_connections):
    club, olga, mike, *_ = club_setup
    event, r, mine, other = await database_sync_to_async(setup_round)(club_setup, make_user)
    visitor = await socket(other.room_id, AnonymousUser())
    html = await visitor.receive_from(timeout=10)
    assert 'id="table"' in html
    await visitor.disconnect()
    entrant = await socket(other.room_id, mike)
    out = await entrant.receive_output(timeout=10)
    assert out["type"] == "websocket.close" and out.get("code") == 4403
    await database_sync_to_async(Club.objects.filter(pk=club.pk).update)(public_tables=False)
    visitor = await socket(other.room_id, AnonymousUser())
    out = await visitor.receive_output(timeout=10)
    assert out["type"] == "websocket.close" and out.get("code") == 4401
