"""Admin pages of the games app load; multipliers editable with one default."""

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.contrib.admin.sites import site
from django.utils import timezone

from games import services
from games.models import Hand, HandAction, Match, Room, RoomMultiplier

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_with_data(admin_client, bot_room, driver):
    driver(bot_room, lambda r: services.current_hand(r).actions.count() >= 5)
    return admin_client


@pytest.mark.parametrize(
    "model",
    [
        "games/roommultiplier", "games/room", "games/match", "games/hand", "games/handaction",
        "baohuang/tributerecord", "baohuang/tributesettlement",  # 保皇's own tables
    ],
)
def test_changelists_load(admin_client_with_data, model):
    assert admin_client_with_data.get(f"/admin/{model}/").status_code == 200


def test_change_pages_load(admin_client_with_data, bot_room):
    hand = Hand.objects.first()
    for url in [
        f"/admin/games/room/{bot_room.pk}/change/",
        f"/admin/games/match/{Match.objects.first().pk}/change/",
        f"/admin/games/hand/{hand.pk}/change/",
        f"/admin/games/handaction/{HandAction.objects.first().pk}/change/",
        f"/admin/games/roommultiplier/{RoomMultiplier.objects.first().pk}/change/",
    ]:
        assert admin_client_with_data.get(url).status_code == 200, url
    page = admin_client_with_data.get(f"/admin/games/hand/{hand.pk}/change/").content.decode()
    assert 'id="tributes-group"' in page and 'id="actions-group"' in page  # the game's inline, then the log's
    assert page.index('id="tributes-group"') < page.index('id="actions-group"')


def test_hand_records_are_read_only(admin_client_with_data):
    assert admin_client_with_data.get("/admin/games/handaction/add/").status_code == 403
    assert admin_client_with_data.get("/admin/baohuang/tributerecord/add/").status_code == 403
    action = HandAction.objects.order_by("seq").first()
    before = (action.seat, action.payload)
    response = admin_client_with_data.post(
        f"/admin/games/handaction/{action.pk}/change/", {"seat": (action.seat + 1) % 5, "payload": "{}"}
    )
    assert response.status_code == 403
    action.refresh_from_db()
    assert (action.seat, action.payload) == before


def test_new_default_multiplier_replaces_old(admin_client):
    response = admin_client.post("/admin/games/roommultiplier/add/", {"value": 20, "is_default": "on"})
    assert response.status_code == 302
    assert list(RoomMultiplier.objects.filter(is_default=True).values_list("value", flat=True)) == [20]
    assert RoomMultiplier.default_value() == 20


def test_an_admin_edit_writes_only_what_it_changed(bot_room, rf, admin_user):
    """A room's admin edit must not write back what the services and the turn
    runner moved since the admin's request read the row (its lease, pending
    decision, deadline, version)."""
    obj = Room.objects.get(pk=bot_room.pk)  # as the admin's POST read it
    lease = timezone.now() + timedelta(seconds=15)
    Room.objects.filter(pk=bot_room.pk).update(claimed_until=lease, version=obj.version + 3)  # moved meanwhile
    obj.name = "改名"
    request = rf.post("/admin/games/room/")
    request.user = admin_user
    site._registry[Room].save_model(request, obj, SimpleNamespace(changed_data=["name"]), change=True)
    row = Room.objects.get(pk=bot_room.pk)
    assert row.name == "改名" and row.claimed_until == lease and row.version == obj.version + 3
