"""CSV export: UTF-8 with a BOM, one figure per column (level
difference, game points, match points per round, byes with their points,
withdrawn entries flagged), formula-looking text neutralised (OWASP CSV
injection), an unknown export 404 (docs/tournaments.md, "Export")."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs import services
from clubs.models import Entry, EventTable, Round
from clubs.results.export import neutralise
from clubs.running import events

pytestmark = pytest.mark.django_db


def rows_of(response) -> list[list[str]]:
    body = response.content
    assert body.startswith(b"\xef\xbb\xbf")  # the UTF-8 byte-order mark
    return list(csv.reader(io.StringIO(body.decode("utf-8")[1:])))


@pytest.fixture
def swiss(club_setup, multipliers, make_user):
    """A 升級 Swiss event, round 1 finished by hand: pair "-2+3 / @A1" beat
    bot pair 1 by 2 levels (game points 6 / -6); bot pair 2 had the bye; bot
    pair 1 then withdrew."""
    club, olga, *_ = club_setup
    evil, at = make_user("-2+3"), make_user("@A1")
    for u in (evil, at):
        services.join_club(u, club.join_code)
    event = events.create_event(olga, club, name="导出", game="shengji", rounds=3, hands_per_round=1)
    pair = events.register(evil, event, partner="@A1")
    events.confirm(at, pair)
    b1, b2 = events.add_bot_entries(olga, event, 2)
    r = Round.objects.create(event=event, number=1, status=Round.Status.FINISHED,
                             pairing={"tables": [[pair.pk, b1.pk]], "bye": b2.pk})
    EventTable.objects.create(round=r, number=1, entries=[pair.pk, b1.pk], finished=timezone.now(), result={
        "entries": [{"margin": 2, "points": 6, "hands": 1}, {"margin": -2, "points": -6, "hands": 1}], "hands": 1})
    events.withdraw(olga, b1)
    return event, pair, b1, b2


def test_standings_csv(client, club_setup, swiss):
    club, olga, *_ = club_setup
    event, pair, b1, b2 = swiss
    client.force_login(olga)
    rows = rows_of(client.get(reverse("event_csv", args=[event.pk, "standings"])))
    assert rows[0] == ["名次", "参赛者", "胜负分", "级差", "游戏积分", "对手分", "直接对局", "轮数", "已退赛"]
    by_name = {r[1]: r for r in rows[1:]}
    assert by_name["'-2+3 / @A1"] == ["1", "'-2+3 / @A1", "2", "2", "6", "0", "0", "1", ""]
    assert by_name["机器人2"][2] == "2" and by_name["机器人2"][4] == "0"   # the bye: 2 match points, no game points
    assert by_name["机器人1"][2:5] == ["0", "-2", "-6"] and by_name["机器人1"][-1] == "1"   # withdrawn


def test_rounds_csv_one_figure_per_column(client, club_setup, swiss):
    club, olga, *_ = club_setup
    event, pair, b1, b2 = swiss
    client.force_login(olga)
    rows = rows_of(client.get(reverse("event_csv", args=[event.pk, "rounds"])))
    assert rows[0] == ["轮次", "桌号", "座次", "参赛者", "级差", "游戏积分", "局数", "胜负分", "缺席", "已更正", "已退赛"]
    assert rows[1] == ["1", "", "", "机器人2", "", "", "0", "2", "轮空", "", ""]
    assert rows[2] == ["1", "1", "1", "'-2+3 / @A1", "2", "6", "1", "2", "", "", ""]
    assert rows[3] == ["1", "1", "2", "机器人1", "-2", "-6", "1", "0", "", "", "1"]


def test_english_headings(client, club_setup, swiss):
    club, olga, *_ = club_setup
    event, *_ = swiss
    client.force_login(olga)
    client.cookies["django_language"] = "en"
    rows = rows_of(client.get(reverse("event_csv", args=[event.pk, "standings"])))
    assert rows[0][:5] == ["Place", "Entrant", "Match points", "Level margin", "Game points"]


@pytest.mark.parametrize("text, written", [
    ("=SUM(A1)", "'=SUM(A1)"), ("+1", "'+1"), ("-2+3", "'-2+3"), ("@A1", "'@A1"), ("\tx", "'\tx"),
    ("\rx", "'\rx"), ("mike", "mike"), ("a=b", "a=b"), (-2, -2), (3.5, 3.5),
])
def test_neutralise(text, written):
    assert neutralise(text) == written


def test_unknown_export_is_404(client, club_setup, swiss):
    event, *_ = swiss
    assert client.get(reverse("event_csv", args=[event.pk, "secrets"])).status_code == 404
    assert client.get(f"/clubs/events/{event.pk}/standings%0D%0AX-Evil:%201.csv").status_code == 404
    assert client.get(f"/clubs/events/{event.pk}/a%0Ab.csv").status_code == 404
    assert client.get(reverse("event_csv", args=[event.pk + 99, "standings"])).status_code == 404


def test_duplicate_rounds_csv_has_matchpoints_and_maximum(client, club_setup, multipliers):
    """Two 升級 tables, one board: T1 +1 / -1, T2 0 / 0: T1's side 0 1 of 1,
    T2's side 0 0 of 1; side 1 the other way round."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="复式", game="shengji", format="duplicate", rounds=1,
                                hands_per_round=1)
    a, b, c, d = (e.pk for e in events.add_bot_entries(olga, event, 4))
    r = Round.objects.create(event=event, number=1, status=Round.Status.FINISHED,
                             pairing={"tables": [[a, b], [c, d]], "bye": None})
    for n, ids, board in ((1, [a, b], [1, -1]), (2, [c, d], [0, 0])):
        EventTable.objects.create(round=r, number=n, entries=ids, finished=timezone.now(), result={
            "entries": [{"margin": board[0], "points": 0, "hands": 1}, {"margin": board[1], "points": 0, "hands": 1}],
            "boards": [board], "hands": 1})
    client.force_login(olga)
    rows = rows_of(client.get(reverse("event_csv", args=[event.pk, "rounds"])))
    assert rows[0][-5:] == ["比赛分", "满分", "缺席", "已更正", "已退赛"]
    assert [(r[3], r[-5], r[-4]) for r in rows[1:]] == [
        ("机器人1", "1", "1"), ("机器人2", "0", "1"), ("机器人3", "0", "1"), ("机器人4", "1", "1")]
    standings = rows_of(client.get(reverse("event_csv", args=[event.pk, "standings"])))
    assert standings[0][2] == "比赛分百分比"
    assert {r[1]: r[2] for r in standings[1:]} == {"机器人1": "100", "机器人2": "0", "机器人3": "0", "机器人4": "100"}
    assert Entry.objects.filter(event=event).count() == 4
