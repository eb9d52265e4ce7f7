"""The arena page: an organiser opens an arena with the form, a member joins
and leaves with its buttons, is seated and sees the link to the table; the
fragment pushed over ``ws/arenas/<id>/`` is the same page part, per viewer;
an arena table's page links back to the arena."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from clubs.arena import pool
from clubs.arena.pages import render_live
from clubs.models import ArenaPlayer, Event
from games.models import Hand

pytestmark = pytest.mark.django_db


def test_create_join_seat_and_leave(client, club_setup, multipliers):
    club, organiser, member, *_ = club_setup
    client.force_login(organiser)
    assert "new-arena" in client.get(f"/clubs/{club.pk}/").content.decode()
    r = client.post(f"/clubs/{club.pk}/arenas/new", {
        "name": "周五竞技场", "game": "baohuang", "minutes": "30", "hands_per_table": "1", "berserk": "on",
        "team_size": "5", "turn_seconds": "30", "bot_delay_ms": "0", "start": "on"})
    assert r.status_code == 302
    event = Event.objects.get(name="周五竞技场")
    assert event.format == Event.Format.ARENA and event.status == Event.Status.RUNNING
    assert client.get(f"/clubs/events/{event.pk}/").url == f"/clubs/arenas/{event.pk}/"
    pool.add_bots(organiser, event, 4, seed=5)

    client.force_login(member)
    page = client.get(f"/clubs/arenas/{event.pk}/").content.decode()
    assert 'id="arena-join"' in page and "ws/arenas/" in page and "排行榜" in page
    assert client.post(f"/clubs/arenas/{event.pk}/join").status_code == 302  # seated at once: 5 wait
    page = client.get(f"/clubs/arenas/{event.pk}/").content.decode()
    me = ArenaPlayer.objects.get(user=member)
    assert 'id="arena-my-table"' in page and f"/rooms/{me.table.room_id}/" in page
    assert f'data-my-room="{me.table.room_id}"' in page
    room_page = client.get(f"/rooms/{me.table.room_id}/").content.decode()
    assert f"/clubs/arenas/{event.pk}/" in room_page  # the table links back to its arena
    client.post(f"/clubs/arenas/{event.pk}/berserk")
    assert ArenaPlayer.objects.get(user=member).berserk is True
    client.post(f"/clubs/arenas/{event.pk}/leave")
    assert ArenaPlayer.objects.get(user=member).state == ArenaPlayer.State.AWAY
    assert 'id="arena-join"' in client.get(f"/clubs/arenas/{event.pk}/").content.decode()


def test_the_pushed_fragment_in_each_language(club_setup, multipliers):
    club, organiser, member, other, other_organiser = club_setup
    event = pool.create_arena(organiser, club, name="对抗赛", game="shengji", minutes=10, team_battle=True,
                              teams=[other], team_size=2)
    pool.join(member, event)
    with translation.override("zh-hans"):  # added on a Chinese page: stored as 机器人1
        pool.add_bots(organiser, event, 1, teams=[other])
    for lang, words in (("zh-hans", ["排行榜", "团体排名", "机器人1"]), ("zh-hant", ["排行榜", "團體排名", "機器人1"]),
                        ("en", [">Leaderboard<", "Team standings", "Bot1"])):
        with translation.override(lang):
            html = render_live(event.pk, member)
        assert 'id="arena-live"' in html and all(w in html for w in words), (lang, html[:400])
    assert "机器人" not in html and "Leaderboards" not in html  # the English page
    assert "mike" in html and 'id="arena-leave"' in html


def test_the_streak_marks_read_in_each_language(club_setup, multipliers, driver):
    club, organiser, member, *_ = club_setup
    event = pool.create_arena(organiser, club, name="标记", game="baohuang", minutes=10, bot_delay_ms=0)
    pool.join(member, event)
    pool.add_bots(organiser, event, 4, seed=3)
    table = pool.seat_pool(event.pk)[0]
    driver(table.room, lambda r: Hand.objects.filter(match__room=r, complete=True).exists())
    pool.score_table(table.pk)
    marks = {"zh-hans": "胜负", "zh-hant": "勝負", "en": "WL"}
    for lang, letters in marks.items():
        with translation.override(lang):
            html = render_live(event.pk, member)
        shown = re.findall(r'data-mark="[WDL]">([^<]+)<', html)
        assert len(shown) == 5 and set(shown) <= set(letters + ("平" if lang != "en" else "D")), (lang, shown)


def test_a_stranger_cannot_join(client, club_setup, multipliers, make_user):
    club, organiser, *_ = club_setup
    event = pool.create_arena(organiser, club, name="竞技", game="baohuang", minutes=10)
    client.force_login(make_user("nobody"))
    r = client.post(f"/clubs/arenas/{event.pk}/join")
    assert r.status_code == 403 and not ArenaPlayer.objects.exists()


def test_the_event_form_does_not_make_an_arena_without_its_settings(client, club_setup, multipliers):
    club, organiser, *_ = club_setup
    client.force_login(organiser)
    r = client.post(f"/clubs/{club.pk}/events/new", {"name": "x", "game": "baohuang", "format": "arena",
                                                     "rounds": "1", "hands_per_round": "1"})
    assert r.status_code == 200 and not Event.objects.exists()  # the form refuses the choice
