"""Clubs fixtures: a club with an organiser and a member, and a second club
with its own organiser."""

from __future__ import annotations

import pytest


@pytest.fixture
def club_setup(make_user):
    """``(club, organiser, member, other_club, other_organiser)``."""
    from clubs import services

    organiser = make_user("olga")
    member = make_user("mike")
    other_organiser = make_user("oscar")
    club = services.create_club(organiser, "东城牌社", "周五晚上")
    services.join_club(member, club.join_code)
    other = services.create_club(other_organiser, "西城牌社")
    return club, organiser, member, other, other_organiser


def signed_in(client, user):
    client.force_login(user)
    return client


def finish_tables(round_, driver, hands: int) -> None:
    """Play every table of a running round until ``hands`` hands are complete
    (the server's turns, driven by hand), then run the round sweep."""
    from clubs.running.rounds import sweep_rounds
    from games.models import Hand

    for table in round_.tables.select_related("room"):
        room = table.room
        driver(room, lambda r: Hand.objects.filter(match__room=r, complete=True).count() >= hands)
    sweep_rounds()
    round_.refresh_from_db()


@pytest.fixture
def finish(driver):
    return lambda round_, hands=1: finish_tables(round_, driver, hands)
