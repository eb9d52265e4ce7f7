"""Moderation fixtures: a moderator (in the 版主 group, not staff), and a
helper that suspends, mutes or bans a player through the moderators' service."""

from __future__ import annotations

import pytest


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
