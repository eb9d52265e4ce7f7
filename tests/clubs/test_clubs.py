"""Clubs: create, join by link or code, organisers, members, admin; and every
organiser action refused (403, a clear message, nothing changed) for a member
who is not an organiser and for another club's organiser."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs import services
from clubs.models import Club, Membership

pytestmark = pytest.mark.django_db


def snapshot(club):
    club = Club.objects.get(pk=club.pk)
    return (
        club.name,
        club.description,
        club.join_code,
        sorted(club.memberships.values_list("user__username", "role")),
    )


def test_creator_is_organiser_and_join_link_makes_a_member(client, make_user):
    olga = make_user("olga")
    client.force_login(olga)
    r = client.post(reverse("club_create"), {"name": "东城牌社", "description": "周五"})
    club = Club.objects.get(name="东城牌社")
    assert r.status_code == 302 and r["Location"] == club.get_absolute_url()
    assert club.memberships.get(user=olga).role == Membership.Role.ORGANISER
    page = client.get(club.get_absolute_url()).content.decode()
    assert club.join_code in page  # the organiser sees the link

    mike = make_user("mike")
    client.force_login(mike)
    assert client.get(club.join_url()).status_code == 200
    assert club.join_code not in client.get(club.get_absolute_url()).content.decode()
    r = client.post(club.join_url())
    assert r.status_code == 302
    assert club.memberships.get(user=mike).role == Membership.Role.MEMBER
    # the code form leads to the same link
    assert client.get(reverse("club_join_code"), {"code": club.join_code})["Location"] == club.join_url()


def test_new_code_invalidates_old_link(client, club_setup, make_user):
    club, olga, *_ = club_setup
    old = club.join_url()
    client.force_login(olga)
    client.post(reverse("club_new_code", args=[club.pk]))
    club.refresh_from_db()
    assert club.join_url() != old
    client.force_login(make_user("nina"))
    r = client.post(old)
    assert r.status_code == 400 and "无效" in r.content.decode()
    assert not club.memberships.filter(user__username="nina").exists()


def test_organiser_names_organiser_and_removes_member(client, club_setup):
    club, olga, mike, *_ = club_setup
    client.force_login(olga)
    client.post(reverse("club_member_organiser", args=[club.pk, mike.pk]), {"organiser": "1"})
    assert club.memberships.get(user=mike).is_organiser
    # mike, now an organiser, may act too
    client.force_login(mike)
    assert client.post(reverse("club_new_code", args=[club.pk])).status_code == 302
    client.force_login(olga)
    client.post(reverse("club_member_remove", args=[club.pk, mike.pk]), {"confirm": "1"})
    assert not club.memberships.filter(user=mike).exists()


def test_last_organiser_stays(club_setup):
    club, olga, *_ = club_setup
    with pytest.raises(services.Conflict):
        services.remove_member(olga, club, olga.pk)
    with pytest.raises(services.Conflict):
        services.leave_club(olga, club)


ORGANISER_ACTIONS = [
    ("club_edit", lambda club, target: [club.pk], {"name": "被改了", "description": "x"}),
    ("club_new_code", lambda club, target: [club.pk], {}),
    ("club_member_remove", lambda club, target: [club.pk, target.pk], {}),
    ("club_member_organiser", lambda club, target: [club.pk, target.pk], {"organiser": "1"}),
]


@pytest.mark.parametrize("who", ["member", "other_organiser"])
@pytest.mark.parametrize("name,args,data", ORGANISER_ACTIONS, ids=[a[0] for a in ORGANISER_ACTIONS])
def test_organiser_actions_refused(client, club_setup, make_user, who, name, args, data):
    club, olga, mike, other, oscar = club_setup
    target = make_user("tina")
    services.join_club(target, club.join_code)
    actor = mike if who == "member" else oscar
    before = snapshot(club)
    client.force_login(actor)
    r = client.post(reverse(name, args=args(club, target)), data)
    assert r.status_code == 403
    assert "只有俱乐部“东城牌社”的组织者可以这样做" in r.content.decode()
    assert snapshot(club) == before


def test_anonymous_refused(client, club_setup):
    club, *_ = club_setup
    before = snapshot(club)
    r = client.post(reverse("club_new_code", args=[club.pk]))
    assert r.status_code == 403 and snapshot(club) == before


def test_permissions_are_per_club(club_setup):
    club, olga, mike, other, oscar = club_setup
    assert olga.has_perm("clubs.manage_club", club)
    assert not olga.has_perm("clubs.manage_club", other)
    assert oscar.has_perm("clubs.manage_club", other) and not oscar.has_perm("clubs.manage_club", club)
    assert mike.has_perm("clubs.enter_event", club) and not mike.has_perm("clubs.manage_club", club)


def test_admin_lists_and_edits_clubs(client, club_setup, django_user_model):
    club, *_ = club_setup
    admin = django_user_model.objects.create_superuser("root", "r@example.org", "pw-root-123")
    client.force_login(admin)
    r = client.get(reverse("admin:clubs_club_changelist"))
    assert r.status_code == 200 and "东城牌社" in r.content.decode()
    r = client.get(reverse("admin:clubs_club_change", args=[club.pk]))
    assert r.status_code == 200 and "mike" in r.content.decode()
