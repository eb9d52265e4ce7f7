"""What each figure is called: "得分" is gone; the points of a
round are 游戏积分 (the zero-sum site points, ♠A penalty included in 升級),
the standings' score is named for the format, the travelling table has column
headings, each seat's role and matchpoints as percentages
(docs/tournaments.md, "Naming the figures", "Duplicate")."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import EventTable, Round
from clubs.running import events
from games.engine.baohuang import tournament as baohuang
from games.engine.shengji import tournament as shengji

pytestmark = pytest.mark.django_db


def test_board_roles_from_the_summary():
    """升級: the dealer's team defends (庄家): dealer seat 1 → entry 1 (seats
    1, 3).  保皇: emperor, guard, rebels; a solo emperor has no guard."""
    assert shengji.board_roles({"dealer": 1}) == ["闲家", "庄家"]
    assert shengji.board_roles({"dealer": 2}) == ["庄家", "闲家"]
    assert shengji.board_roles({"dealer": None}) is None
    assert baohuang.board_roles({"emperor": 3, "guard": 0, "solo": False}) == ["保子", "反贼", "反贼", "皇帝", "反贼"]
    assert baohuang.board_roles({"emperor": 2, "guard": 2, "solo": True}) == ["反贼", "反贼", "皇帝（独）", "反贼", "反贼"]
    assert baohuang.board_roles({"emperor": None}) is None


def test_travelling_table_headings_roles_and_percentages(client, club_setup, multipliers):
    """Three 保皇 tables, one board, seat 0 scores 4, 2, 2: table 1 has
    2 of 2 matchpoints (100.0 %), tables 2 and 3 ½ of 2 each (25.0 %)."""
    club, olga, mike, *_ = club_setup
    event = events.create_event(olga, club, name="保皇复式", game="baohuang", format="duplicate", rounds=1,
                                hands_per_round=1)
    ids = [e.pk for e in events.add_bot_entries(olga, event, 15)]
    r = Round.objects.create(event=event, number=1, status=Round.Status.FINISHED,
                             pairing={"tables": [ids[0:5], ids[5:10], ids[10:15]], "bye": None})
    roles = [["皇帝", "保子", "反贼", "反贼", "反贼"]]
    for n, first in ((1, 4), (2, 2), (3, 2)):
        EventTable.objects.create(round=r, number=n, entries=ids[5 * (n - 1):5 * n], finished=timezone.now(),
                                  result={"boards": [[first, 1, -1, -2, -2]], "roles": roles, "hands": 1})
    client.force_login(mike)
    page = client.get(reverse("event", args=[event.pk])).content.decode()
    travelling = page.split('class="travelling"', 1)[1].split("</table>", 1)[0]
    for heading in ("桌", "参赛者", "角色", "游戏积分", "比赛分", "满分", "百分比"):
        assert f"<th>{heading}</th>" in travelling
    assert "<td>皇帝</td>" in travelling and "<td>保子</td>" in travelling and "<td>反贼</td>" in travelling
    assert "<td>100.0 %</td>" in travelling and "<td>25.0 %</td>" in travelling
    standings = page.split('id="standings"', 1)[1]
    assert "<th>比赛分百分比</th>" in standings and "100 %" in standings
    client.cookies["django_language"] = "en"
    english = client.get(reverse("event", args=[event.pk])).content.decode()
    assert "<td>Emperor</td>" in english and "<td>Guard</td>" in english and "<th>Role</th>" in english


@pytest.mark.parametrize("game, label", [("shengji", "胜负分"), ("baohuang", "游戏积分")])
def test_no_figure_is_called_defen(client, club_setup, multipliers, game, label):
    club, olga, mike, *_ = club_setup
    event = events.create_event(olga, club, name="赛", game=game, rounds=1, hands_per_round=1)
    ids = [e.pk for e in events.add_bot_entries(olga, event, 2 if game == "shengji" else 5)]
    r = Round.objects.create(event=event, number=1, status=Round.Status.FINISHED,
                             pairing={"tables": [ids], "bye": None})
    keys = ("margin", "points") if game == "shengji" else ("points", "firsts")
    EventTable.objects.create(round=r, number=1, entries=ids, finished=timezone.now(),
                              result={"entries": [{k: 1 for k in keys} for _ in ids], "hands": 1})
    client.force_login(olga)
    page = client.get(reverse("event", args=[event.pk])).content.decode()
    assert "得分" not in page
    assert f"<th>{label}</th>" in page.split('id="standings"', 1)[1]
    assert "游戏积分 1" in page  # the table's result names its points
