"""The profile's rating section: the rating graph over time
(server-rendered SVG) and the per-game record (hands, win rate, 头科 rate,
levels gained per hand, ♠A penalties …)."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

from games import services
from ratings import profile
from ratings.models import RatingChange
from tests.site.ratings_fixtures import make_user, play_out, seated_room  # noqa: F401

pytestmark = pytest.mark.django_db


def test_graph_scales_history_into_the_box():
    g = profile.graph([(None, 1500), (None, 1560), (None, 1530)])
    xs_ys = [tuple(map(float, p.split(","))) for p in g.points.split()]
    assert len(xs_ys) == 3 and g.low == 1500 and g.high == 1560
    assert xs_ys[0] == (profile.PAD_X, profile.HEIGHT - profile.PAD_Y)   # lowest: bottom left
    assert xs_ys[1] == (profile.WIDTH / 2, profile.PAD_Y)                 # highest: top middle
    assert xs_ys[2][0] == profile.WIDTH - profile.PAD_X
    assert profile.graph([]) is None


def test_profile_section_has_graph_and_record(make_user, multipliers, monkeypatch):
    a = make_user("pa")
    room = seated_room("baohuang", [a, "heuristic", "random", "heuristic", "heuristic"], seed=2,
                       monkeypatch=monkeypatch)
    hands = [play_out(room)]
    for seed in (16, 3):
        monkeypatch.setattr(services.hands, "new_seed", lambda seed=seed: seed)
        room.refresh_from_db()
        services.next_hand(room, room.version)
        hands.append(play_out(room))
    (section,) = profile.sections(a)
    assert section["graph"].count == 4  # the rating before the first hand, then one per hand
    firsts = sum(h.summary["finish_order"][0] == 0 for h in hands)
    stats = {line["key"]: line["value"] for line in section["stats"]}
    assert stats["first"] == f"{100 * firsts / 3:.0f}%"
    emperor = sum(h.summary["emperor"] == 0 for h in hands)
    assert stats["emperor"] == f"{100 * emperor / 3:.0f}%"
    html = render_to_string("ratings/_profile.html", {"rating_sections": [section]})
    assert 'data-testid="rating-graph-baohuang" data-points="4"' in html
    points = re.search(r'<polyline class="line" points="([^"]+)"', html).group(1)
    assert len(points.split()) == 4
    last = RatingChange.objects.filter(user=a).order_by("-id").first()
    assert f'data-testid="rating-baohuang">{last.rating_after}<' in html
    assert 'data-stat="hands">3<' in html


def test_shengji_record_levels_and_spade_ace(make_user, multipliers, monkeypatch):
    a = make_user("sa")
    room = seated_room("shengji", [a, "heuristic", "heuristic", "heuristic"], seed=3,
                       monkeypatch=monkeypatch)
    hand = play_out(room)
    (section,) = profile.sections(a)
    stats = {line["key"]: line["value"] for line in section["stats"]}
    assert stats["levels"] == f"{hand.summary['levels_gained']['0']:.2f}"
    assert stats["spade_ace"] == f"{-min(0, hand.summary['penalties']['0']):g}"
    assert stats["dealer_side"] == ("100%" if hand.summary["dealer"] % 2 == 0 else "0%")


def test_profile_page_shows_the_rating_section(client, make_user, multipliers, monkeypatch):
    a = make_user("pp")
    room = seated_room("shengji", [a, "heuristic", "heuristic", "heuristic"], seed=3,
                       monkeypatch=monkeypatch)
    play_out(room)
    html = client.get(f"/accounts/u/{a.username}/").content.decode()
    assert 'data-testid="rating-graph-shengji" data-points="2"' in html
    assert 'data-testid="record-shengji"' in html and 'data-stat="levels"' in html
    # one hand: provisional, said in a word after the rating, as at the table (session 21)
    assert re.search(r'data-testid="rating-shengji">\d+</span>&nbsp;<span class="tag" data-provisional>暂定</span>', html)
    other = make_user("nobody")
    assert "rating-graph" not in client.get(f"/accounts/u/{other.username}/").content.decode()


def test_graph_of_one_day_says_its_date_once_and_the_two_times():
    """A history within one day: the axis' left end says the date and the
    first point's time, its right end the last point's time (it said the
    same date at both ends), or nothing when that is the same moment; over
    two days, a date at each end."""
    from datetime import datetime, timedelta
    from datetime import timezone as tz

    from django.utils import timezone, translation

    start = datetime(2026, 11, 30, 9, 5, tzinfo=tz.utc)
    same = profile.graph([(start, 1500), (start + timedelta(hours=5, minutes=30), 1520)])
    later = profile.graph([(start, 1500), (start + timedelta(days=2), 1520)])
    with timezone.override("UTC"), translation.override("en"):
        assert same.one_day and not later.one_day
        one = render_to_string("ratings/_graph.html", {"g": same, "game": "shengji"})
        two = render_to_string("ratings/_graph.html", {"g": later, "game": "shengji"})
    first = re.search(r'data-axis="first">([^<]+)<', one).group(1)
    last = re.search(r'data-axis="last">([^<]+)<', one).group(1)
    assert first.startswith("11/30/2026") and ("9:05" in first or "09:05" in first), first
    assert "2026" not in last and ("2:35" in last or "14:35" in last), last
    ends = re.findall(r'data-axis="(?:first|last)">([^<]+)<', two)
    assert ends == ["11/30/2026", "12/02/2026"], ends
    # one hand (its rating before and after, one moment): the moment once
    with timezone.override("UTC"), translation.override("en"):
        once = render_to_string("ratings/_graph.html", {"g": profile.graph([(start, 1500), (start, 1520)]),
                                                        "game": "shengji"})
    assert re.findall(r'data-axis="(?:first|last)">([^<]+)<', once) == [first], once
