"""Profile pages: points and title per game (C4), recent matches from the ledger."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts import ledger

pytestmark = pytest.mark.django_db


@pytest.fixture
def ivy():
    return get_user_model().objects.create_user("ivy", password="Qiu-hua-2026-long")


@pytest.fixture
def hand(ivy):
    from games.models import Hand, Match, Room

    room = Room.objects.create(game="shengji", name="周五牌局", owner=ivy, multiplier=2)
    match = Match.objects.create(room=room, number=1, start={})
    return Hand.objects.create(match=match, number=1, seed=1, deal={}, start={})


def test_profile_urls():
    assert reverse("profile") == "/accounts/profile/"
    assert reverse("profile_user", args=["ivy"]) == "/accounts/u/ivy/"


def test_own_profile_requires_login(client):
    response = client.get("/accounts/profile/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_profile_shows_points_and_title_per_game(client, ivy, hand):
    ledger.credit(ivy, "shengji", 8 * 2, hand=hand)
    ledger.credit(ivy, "shengji", 6 * 2, hand=hand)
    ledger.credit(ivy, "baohuang", -4)
    client.force_login(ivy)
    response = client.get("/accounts/profile/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-testid="points-shengji">28<' in html
    assert 'data-testid="title-shengji">学前班<' in html  # 20 ≤ 28 < 40 (C4), shown in zh-Hans
    assert 'data-testid="points-baohuang">-4<' in html
    assert 'data-testid="title-baohuang">幼儿班<' in html  # negative keeps the first title (C4)
    assert "距「小学生」还差 12 分" in html
    assert 'name="viewport"' in html
    # Recent matches, built from the ledger: one match, one hand, +28.
    rows = response.context["recent_matches"]
    assert [(r.room_name, r.hands, r.delta, r.multiplier) for r in rows] == [("周五牌局", 1, 28, 2)]
    assert "周五牌局</a> ×2" in html
    room_id = hand.match.room_id
    # Links to the room and to the hand's replay.
    assert f'href="{reverse("room", args=[room_id])}"' in html
    assert f'href="{reverse("hand_replay", args=[hand.pk])}"' in html


def test_public_profile_of_another_user(client, ivy):
    other = get_user_model().objects.create_user("jack", password="Qiu-hua-2026-long")
    ledger.credit(ivy, "baohuang", 371572)
    client.force_login(other)
    html = client.get("/accounts/u/ivy/").content.decode()
    assert "ivy" in html
    assert 'data-testid="points-baohuang">371572<' in html
    assert 'data-testid="title-baohuang">校长<' in html
    assert "已达最高称号" in html
    assert "修改密码" not in html  # only on one's own profile


def test_public_profile_anonymous_and_unknown_user(client, ivy):
    assert client.get("/accounts/u/ivy/").status_code == 200
    assert client.get("/accounts/u/nobody/").status_code == 404


def test_profile_lists_current_seat(client, ivy, hand):
    from games.models import Seat

    Seat.objects.create(room=hand.match.room, index=0, user=ivy)
    html = client.get("/accounts/u/ivy/").content.decode()
    assert "正在进行" in html


def test_recent_matches_group_hands_newest_match_first(ivy, hand):
    from accounts.profiles import recent_matches
    from games.models import Hand, Match

    second_hand = Hand.objects.create(match=hand.match, number=2, seed=2, deal={}, start={})
    other_match = Match.objects.create(room=hand.match.room, number=2, start={})
    later = Hand.objects.create(match=other_match, number=1, seed=3, deal={}, start={})
    ledger.credit(ivy, "shengji", 4, hand=hand)
    ledger.credit(ivy, "shengji", -2, hand=second_hand)
    ledger.credit(ivy, "shengji", 0, hand=second_hand, reason="spade_ace")
    ledger.credit(ivy, "shengji", 6, hand=later)
    ledger.credit(ivy, "shengji", 100)  # an adjustment without a hand is not a match
    rows = recent_matches(ivy)
    assert [(r.match_id, r.hands, r.delta, r.last_hand_id) for r in rows] == [
        (other_match.pk, 1, 6, later.pk),
        (hand.match_id, 2, 2, second_hand.pk),
    ]
    assert [r.match_id for r in recent_matches(ivy, limit=1)] == [other_match.pk]


def test_profile_shows_the_whole_ladder_and_points_history(client, django_user_model):
    """Every title of each game's ladder with the current one
    marked, and each game's point changes with the running total."""
    from accounts import ledger
    from accounts.models import LevelTitle

    user = django_user_model.objects.create_user("ladder", password="pw-ladder-12345")
    ledger.credit(user, "baohuang", 30, reason="hand")
    ledger.credit(user, "baohuang", -5, reason="hand")
    html = client.get("/accounts/u/ladder/").content.decode()
    block = html[html.index('data-ladder="baohuang"'):]
    block = block[:block.index("</details>")]
    assert block.count("data-level=") == LevelTitle.objects.filter(game="baohuang").count() == 18
    assert 'aria-current="true" data-level="2"' in block  # 25 points: 学前班 (20)
    history = block[block.index('data-testid="points-history-baohuang"'):]
    cells = [c.strip() for c in __import__("re").findall(r'<td class="num">([^<]*)</td>', history)]
    assert cells[:4] == ["-5", "25", "+30", "30"]


def test_recent_tables_say_how_long_ago_with_the_time_in_a_tooltip(client, ivy, hand):
    """A phone's tables have no room for 12/01/2026 8:13 a.m.: the recent
    matches, the points changes and the title ladder's history say "3 hours
    ago" (humanize), the full time in the cell's title and datetime."""
    import datetime

    from django.utils import timezone

    from accounts.models import PointsEntry

    ledger.credit(ivy, "shengji", 4, hand=hand)
    PointsEntry.objects.filter(user=ivy).update(created=timezone.now() - datetime.timedelta(hours=3))
    client.force_login(ivy)
    client.cookies["django_language"] = "en"
    html = client.get("/accounts/profile/").content.decode()
    assert html.count(">3\xa0hours ago</time>") == 3
    assert html.count('<time datetime="') == 3
    client.cookies["django_language"] = "zh-hans"
    html = client.get("/accounts/profile/").content.decode()
    assert html.count(">3小时之前</time>") == 3
