"""defect 2: a player who left mid-match (the seat went to a bot)
takes the seat back; nobody else can take a bot's seat while the room plays.
And 托管 / a paused table are said plainly, with the button to take over."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.models import Room, Seat

pytestmark = pytest.mark.django_db


def page(room, user):
    c = Client()
    c.force_login(user)
    return c.get(f"/rooms/{room.pk}/").content.decode()


def test_leaver_takes_the_seat_back(five_humans, make_user):
    room, users = five_humans
    leaver = users[2]
    services.leave_seat(room, leaver)
    seat = Seat.objects.get(room=room, index=2)
    assert seat.is_bot and seat.user_id is None
    html = page(room, leaver)
    assert 'data-action="rejoin"' in html and '"index": 2' in html
    stranger = make_user("stranger")
    assert 'data-action="rejoin"' not in page(room, stranger)
    with pytest.raises(services.ServiceError):
        services.take_seat(room, stranger, 2)  # a bot's seat mid-match is not free
    c = Client()
    c.force_login(leaver)
    r = c.post(f"/rooms/{room.pk}/seat", {"index": 2}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and 'data-my-seat="2"' in r.content.decode()
    seat.refresh_from_db()
    assert seat.user_id == leaver.pk and not seat.is_bot and seat.ready and not seat.autoplay
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING


def test_autoplay_is_said_plainly_with_take_over(five_humans):
    room, users = five_humans
    services.set_autoplay(room, users[1], True)
    html = page(room, users[1])
    assert 'id="autoplay-notice"' in html and 'data-action="autoplay-off"' in html
    assert 'id="autoplay-notice"' not in page(room, users[0])


def test_paused_table_names_who_it_waits_for(five_humans):
    room, users = five_humans
    Room.objects.filter(pk=room.pk).update(status=Room.Status.WAITING)
    Seat.objects.filter(room=room, user=users[3]).update(ready=False)
    html = page(room, users[0])
    assert 'id="paused-notice"' in html and users[3].username in html


def test_destructive_buttons_ask_first(five_humans):
    room, users = five_humans
    html = page(room, users[0])  # the owner
    leave = html[html.index('data-action="leave"') - 200: html.index('data-action="leave"') + 400]
    assert "hx-confirm=" in leave
    assert 'data-confirm=' in html[html.index('class="close-room"') - 50: html.index('data-action="close-room"')]
    assert '<dialog id="confirm-dialog"' in html
    # 关闭房间 sits in the room menu, before the table, away from the play buttons
    assert html.index('data-action="close-room"') < html.index('id="table"')
