"""Moderation fixtures: a moderator (in the 版主 group, not staff), and a
helper that suspends, mutes or bans a player through the moderators' service."""

from __future__ import annotations

import pytest

from tests.clubs.conftest import club_setup  # noqa: F401  (a club with an organiser and a member)


@pytest.fixture
def moderator(make_user):
    from moderation import services

    user = make_user("mod")
    user.groups.add(services.moderators_group())
    return type(user).objects.get(pk=user.pk)  # fresh: no cached permissions


@pytest.fixture
def sanction(moderator):
    """``sanction(user, kind, days=None)``: the moderator's action on ``user``."""
    from moderation import services

    def make(user, kind, days=None, reason="测试"):
        return services.act(moderator, user, kind, reason, days)

    return make


@pytest.fixture
def club_event(club_setup):  # noqa: F811
    """``(event, member)``: a 保皇 event of a club and a member who may enter it."""
    from clubs.running import events

    club, organiser, member, _other, _other_organiser = club_setup
    return events.create_event(organiser, club, name="周五保皇夜", game="baohuang", rounds=1), member


@pytest.fixture
def enter():
    """``enter(client, user, event) -> bool``: ``user`` enters ``event`` on its
    page (the entry exists afterwards)."""
    from django.apps import apps
    from django.urls import reverse

    def post(client, user, event) -> bool:
        client.force_login(user)
        client.post(reverse("event_register", args=[event.pk]))
        return apps.get_model("clubs", "EntryPlayer").objects.filter(user=user, entry__event=event).exists()

    return post
