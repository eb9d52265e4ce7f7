"""Leaderboards per game: all time, this month, per club;
rating, hands, win rate, title from the ladder (C4); paginated; the viewer's
own row highlighted."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from accounts.models import PlayerStanding
from ratings import compute, leaderboards
from ratings.models import PlayerRating, RatingChange
from tests.site.ratings_fixtures import make_user, play_out, seated_room  # noqa: F401

pytestmark = pytest.mark.django_db


def board_users(html: str) -> list[str]:
    return re.findall(r'<tr data-user="([^"]+)"', html)


def rate(user, game, mu, hands, wins=0):
    return PlayerRating.objects.create(user=user, game=game, mu=mu, rating=compute.display(mu),
                                       hands=hands, wins=wins)


def test_order_established_first_then_rating_with_win_rate_and_title(client, make_user):
    a, b, c, d = (make_user(n) for n in "abcd")
    rate(a, "baohuang", 26.0, hands=20, wins=5)
    rate(b, "baohuang", 30.0, hands=12, wins=9)
    rate(c, "baohuang", 40.0, hands=3, wins=3)   # provisional: after the established
    rate(d, "shengji", 50.0, hands=30)           # another game
    PlayerStanding.objects.create(user=b, game="baohuang", points=25)
    client.force_login(a)
    html = client.get(reverse("leaderboard", args=["baohuang"])).content.decode()
    assert board_users(html) == ["b", "a", "c"]
    row_b = html[html.index('data-user="b"'):html.index('data-user="a"')]
    assert f'data-rating="{compute.display(30.0)}"' in row_b and 'data-hands="12"' in row_b
    assert 'data-win-rate="0.750"' in row_b and "75%" in row_b
    assert "学前班" in row_b  # 25 points: the second rung of the C4 ladder
    row_c = html[html.index('data-user="c"'):]
    assert "data-provisional" in row_c.split("</tr>")[0]  # provisional tag
    assert "data-provisional" not in row_b  # established: no tag
    me = html[html.index('data-user="a"'):].split("</tr>")[0]
    assert 'class="me"' in me and 'aria-current="true"' in me
    assert html.count('class="me"') == 1
    assert "第 2 名" in html


def test_pagination_and_jump_to_my_page(client, make_user):
    users = [make_user(f"p{i:02d}") for i in range(30)]
    for i, u in enumerate(users):
        rate(u, "shengji", 40.0 - i * 0.5, hands=15)
    client.force_login(users[27])
    url = reverse("leaderboard", args=["shengji"])
    first = client.get(url).content.decode()
    assert board_users(first) == [f"p{i:02d}" for i in range(leaderboards.PER_PAGE)]
    assert 'id="me"' not in first and "第 28 名" in first and "page=2#me" in first
    second = client.get(url, {"page": "me"}).content.decode()
    assert board_users(second) == [f"p{i:02d}" for i in range(25, 30)]
    assert 'data-user="p27" id="me" class="me"' in second
    assert '<td class="num">28</td>' in second


def test_this_month_counts_only_this_months_hands(client, make_user, multipliers, monkeypatch):
    a, b, c = make_user("ma"), make_user("mb"), make_user("mc")
    room = seated_room("shengji", [a, "heuristic", b, "heuristic"], seed=3, monkeypatch=monkeypatch)
    play_out(room)
    old = seated_room("shengji", [c, "heuristic", "heuristic", "heuristic"], seed=4,
                      monkeypatch=monkeypatch)
    play_out(old)
    last_month = leaderboards.month_start() - timedelta(days=3)
    RatingChange.objects.filter(user=c).update(created=last_month)
    url = reverse("leaderboard", args=["shengji"])
    month = client.get(url, {"period": "month"}).content.decode()
    assert sorted(board_users(month)) == ["ma", "mb"]
    assert 'data-hands="1"' in month
    everyone = client.get(url).content.decode()
    assert sorted(board_users(everyone)) == ["ma", "mb", "mc"]


def test_club_board_lists_members_only(client, make_user):
    from clubs.models import Club, Membership

    a, b = make_user("ca"), make_user("cb")
    rate(a, "baohuang", 25.0, hands=11)
    rate(b, "baohuang", 27.0, hands=11)
    club = Club.objects.create(name="桥牌社")
    Membership.objects.create(club=club, user=a)
    client.force_login(a)
    url = reverse("leaderboard", args=["baohuang"])
    html = client.get(url, {"club": club.pk}).content.decode()
    assert board_users(html) == ["ca"] and "桥牌社" in html
    assert board_users(client.get(url).content.decode()) == ["cb", "ca"]
    assert client.get(url, {"club": 999}).status_code == 404


def test_unknown_game_is_404_and_index_redirects(client):
    assert client.get("/ratings/nosuchgame/").status_code == 404
    response = client.get(reverse("leaderboards"))
    assert response.status_code == 302 and "/ratings/" in response["Location"]
