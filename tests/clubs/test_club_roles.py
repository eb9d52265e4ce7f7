"""Club roles (docs/tournaments.md "Roles"): the founder (the club's
creator, its owner) cannot be demoted or removed by another organiser;
removing a member asks for a confirmation first.  Before this commit a
second organiser removed the founder with one click."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs import services

pytestmark = pytest.mark.django_db


def test_founder_cannot_be_demoted_or_removed_by_another_organiser(client, club_setup):
    club, olga, mike, *_ = club_setup
    services.set_organiser(olga, club, mike.pk, True)
    with pytest.raises(services.Forbidden):
        services.set_organiser(mike, club, olga.pk, False)
    with pytest.raises(services.Forbidden):
        services.remove_member(mike, club, olga.pk)
    client.force_login(mike)
    resp = client.post(reverse("club_member_remove", args=[club.pk, olga.pk]), {"confirm": "1"})
    assert resp.status_code == 403 and "创建者" in resp.content.decode()
    assert club.memberships.get(user=olga).is_organiser
    page = client.get(reverse("club", args=[club.pk])).content.decode()
    assert reverse("club_member_remove", args=[club.pk, olga.pk]) not in page
    assert reverse("club_member_remove", args=[club.pk, mike.pk]) not in page  # his own: no button either
    # the founder may still demote the other organiser, and step down while another remains
    services.set_organiser(olga, club, mike.pk, False)
    services.set_organiser(olga, club, mike.pk, True)
    services.set_organiser(olga, club, olga.pk, False)
    assert not club.memberships.get(user=olga).is_organiser


def test_removing_a_member_asks_first(client, club_setup):
    club, olga, mike, *_ = club_setup
    client.force_login(olga)
    url = reverse("club_member_remove", args=[club.pk, mike.pk])
    ask = client.post(url)
    assert ask.status_code == 200
    assert "确定把 mike 移出俱乐部“东城牌社”吗？" in ask.content.decode()
    assert club.memberships.filter(user=mike).exists()
    assert client.post(url, {"confirm": "1"}).status_code == 302
    assert not club.memberships.filter(user=mike).exists()


def test_public_tables_setting_is_edited_on_the_club_page(client, club_setup):
    club, olga, *_ = club_setup
    assert club.public_tables
    client.force_login(olga)
    client.post(reverse("club_edit", args=[club.pk]), {"name": club.name, "description": ""})
    club.refresh_from_db()
    assert not club.public_tables
    client.post(reverse("club_edit", args=[club.pk]), {"name": club.name, "description": "", "public_tables": "1"})
    club.refresh_from_db()
    assert club.public_tables
