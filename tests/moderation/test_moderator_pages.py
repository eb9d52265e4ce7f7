"""The moderators' queue: a moderator (the 版主 group from the data
migration, not a superuser) sees open reports with the hand's replay link,
the chat lines and the player's history, and acts (dismiss, warn, mute,
suspend, ban; each logged); every moderator URL refuses a signed-in
non-moderator and sends a visitor to sign in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from games.services import chat
from moderation import services, urls
from moderation.models import Action, Report

pytestmark = pytest.mark.django_db


@pytest.fixture
def report(five_humans):
    room, users = five_humans
    chat.post(room.pk, users[1], "滚")
    return services.file_report(users[0], users[1], "abuse", "他骂人", "table", room=room)


@pytest.fixture
def profile_report(alice, bob):
    return services.file_report(alice, bob, "name", "")


def _url(name, report):
    args = {
        "moderation_queue": [],
        "moderation_report_detail": [report.pk],
        "moderation_report_act": [report.pk],
        "moderation_player": [report.reported_id],
        "moderation_action_lift": [Action.objects.create(target=report.reported, kind="mute", reason="x").pk],
    }[name]
    return reverse(name, args=args)


def test_every_moderator_url_is_in_the_list():
    wrapped = {p.name for p in urls.urlpatterns if getattr(p.callback, "moderators_only", False)}
    assert wrapped == set(urls.MODERATOR_URLS)


@pytest.mark.parametrize("name", urls.MODERATOR_URLS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_every_moderator_url_refuses_a_signed_in_non_moderator(name, method, profile_report, make_user, client):
    report = profile_report
    staff = make_user("staffer")
    staff.is_staff = True  # staff without the permission is not enough either
    staff.save()
    url = _url(name, report)
    for user in (report.reporter, staff):
        client.force_login(user)
        response = getattr(client, method)(url, {"kind": "ban", "reason": "x"})
        assert response.status_code == 403
    client.logout()
    assert getattr(client, method)(url).status_code == 302  # to the sign-in page
    report.refresh_from_db()
    assert report.status == "open" and not Action.objects.filter(kind="ban").exists()


def test_the_moderators_group_comes_from_the_migration():
    group = Group.objects.get(name=services.MODERATORS)
    assert list(group.permissions.values_list("codename", flat=True)) == ["moderate"]


def test_a_moderator_sees_the_report_and_acts(report, moderator, client):
    assert not moderator.is_staff and not moderator.is_superuser
    client.force_login(moderator)
    queue = client.get(reverse("moderation_queue")).content.decode()
    assert f'data-report="{report.pk}"' in queue
    page = client.get(reverse("moderation_report_detail", args=[report.pk])).content.decode()
    assert reverse("hand_replay", args=[report.hand_id]) in page and "滚" in page and "他骂人" in page
    assert client.post(reverse("moderation_report_act", args=[report.pk]),
                       {"kind": "mute", "days": "3", "reason": ""}).status_code == 400  # a reason is needed
    response = client.post(reverse("moderation_report_act", args=[report.pk]),
                           {"kind": "mute", "days": "3", "reason": "辱骂"})
    assert response.status_code == 302
    report.refresh_from_db()
    action = Action.objects.get(report=report)
    assert report.status == "closed" and (action.kind, action.days, action.moderator) == ("mute", 3, moderator)
    assert f'data-report="{report.pk}"' not in client.get(reverse("moderation_queue")).content.decode()
    history = client.get(reverse("moderation_player", args=[report.reported_id])).content.decode()
    assert "辱骂" in history
    # a second action on the closed report is refused; a lift ends the mute
    assert client.post(reverse("moderation_report_act", args=[report.pk]),
                       {"kind": "ban", "reason": "x"}).status_code == 400
    client.post(reverse("moderation_action_lift", args=[action.pk]))
    assert services.sanction(report.reported, services.SANCTIONS) is None
