"""A refusal's sentence can carry what an organiser typed: the embargo of a
duplicate board names its event.  The November audit named an event
``Dup<script>alert(1)</script>`` and got the raw script back in the 403 body
of ``/hands/<id>/review/`` and ``/hands/<id>/again/`` (``text/html``, the
sentence as the whole body).  Every refusal is now a page rendered through a
template (templates/403.html), which escapes it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.running import events
from games.models import Hand

pytestmark = pytest.mark.django_db

NAME = "Dup<script>alert(1)</script>"


@pytest.fixture
def embargoed_board(club_setup, multipliers, driver):
    """Board 1 of a duplicate round named NAME, played at one table of two."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name=NAME, game="shengji", format="duplicate", rounds=1,
                                hands_per_round=2, bot_delay_ms=0)
    events.add_bot_entries(olga, event, 4)
    r = events.start_round(olga, events.pair_round(olga, event))
    t1, _t2 = r.tables.order_by("number")
    driver(t1.room, lambda rm: Hand.objects.filter(match__room=rm, complete=True).count() >= 1)
    return Hand.objects.filter(match__room=t1.room, complete=True).order_by("number").first()


@pytest.mark.parametrize("url_name, data", [("hand_review", {}), ("hand_again", {"seat": "0"}),
                                            ("hand_record", None), ("hand_replay", None)])
def test_the_event_name_reaches_a_refusal_escaped(client, club_setup, embargoed_board, url_name, data):
    _club, _olga, mike, *_ = club_setup
    client.force_login(mike)
    url = reverse(url_name, args=[embargoed_board.pk])
    resp = client.post(url, data) if data is not None else client.get(url)
    assert resp.status_code == 403
    body = resp.content.decode()
    assert "<script>alert(1)</script>" not in body
    assert "Dup&lt;script&gt;alert(1)&lt;/script&gt;" in body  # the sentence is there, escaped
    assert resp["Content-Type"].startswith("text/html")
