"""Standings and exports of a running duplicate round count a board only
once its embargo is lifted (docs/tournaments.md "Nothing leaks"): while
some table of the round has neither finished nor completed board *k*,
comparing the tables that finished it tells about the board, so for everyone
but the event's organisers and admins the standings, the event page, both CSV
exports and the corrections' trail leave board *k* out (the tables' own
figures are blank in the rounds export, as on the page).  Organisers see every
board a table finished, as they see the running tables' scores.

Without clubs.results.standings.hidden_boards the standings of a member (and of the
public CSV) counted board 2 as soon as two of the three tables had finished
it: 满分 2 instead of 1."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from clubs.models import Round
from clubs.results.standings import standings
from clubs.running import events
from clubs.running.rounds import sweep_rounds
from games.models import Hand

pytestmark = pytest.mark.django_db


def complete(room) -> int:
    return Hand.objects.filter(match__room=room, complete=True).count()


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8")[1:])))


@pytest.fixture
def three_tables(club_setup, multipliers, driver):
    """A running 升級 duplicate round of 6 bot pairs at 3 tables, 2 boards:
    T1 and T2 have finished both boards, T3 has completed board 1 only."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="复式", game="shengji", format="duplicate", rounds=1,
                                hands_per_round=2, bot_delay_ms=0)
    events.add_bot_entries(olga, event, 6)
    r = events.start_round(olga, events.pair_round(olga, event))
    t1, t2, t3 = r.tables.order_by("number")
    for t in (t1, t2):
        driver(t.room, lambda rm: complete(rm) >= 2)
    driver(t3.room, lambda rm: complete(rm) >= 1)
    sweep_rounds()
    r.refresh_from_db()
    for t in (t1, t2, t3):
        t.refresh_from_db()
    assert r.status == Round.Status.RUNNING and t1.finished and t2.finished and not t3.finished
    assert complete(t3.room) == 1
    return event, r, (t1, t2, t3)


def maxima(lines) -> dict:
    return {s.entry: s.tiebreaks["maximum"] for s in lines}


def test_standings_count_only_boards_every_table_has_played(club_setup, three_tables, driver):
    club, olga, *_ = club_setup
    event, r, (t1, t2, t3) = three_tables
    finished = [*t1.entries, *t2.entries]
    # board 1: every table completed it (T1 and T2 compared: maximum 1); board 2: T3 has not
    public = maxima(standings(event))
    assert [public[e] for e in finished] == [1, 1, 1, 1]
    assert [public[e] for e in t3.entries] == [0, 0]
    assert [maxima(standings(event, organiser=True))[e] for e in finished] == [2, 2, 2, 2]
    # T3 completes board 2: the board is open before the round has ended
    driver(t3.room, lambda rm: complete(rm) >= 2)
    r.refresh_from_db()
    assert r.status == Round.Status.RUNNING
    assert [maxima(standings(event))[e] for e in finished] == [2, 2, 2, 2]


def _text(response) -> str:
    """The page's HTML, a no-break space read as a space (a tie-break's label
    and figure are joined by one)."""
    return response.content.decode().replace("&nbsp;", " ")


def test_event_page_and_exports_follow_the_embargo(client, club_setup, three_tables):
    club, olga, mike, *_ = club_setup
    event, r, (t1, t2, t3) = three_tables
    page = reverse("event", args=[event.pk])
    client.force_login(mike)
    shown = _text(client.get(page))
    assert "满分 1" in shown and "满分 2" not in shown
    standings_csv = csv_rows(client.get(reverse("event_csv", args=[event.pk, "standings"])))
    top = standings_csv[0].index("满分")
    assert sorted(row[top] for row in standings_csv[1:]) == ["0", "0", "1", "1", "1", "1"]
    rounds = csv_rows(client.get(reverse("event_csv", args=[event.pk, "rounds"])))
    head = rounds[0]
    t1_lines = [row for row in rounds[1:] if row[1] == "1"]
    assert [row[head.index("满分")] for row in t1_lines] == ["1", "1"]
    assert [row[head.index("级差")] for row in t1_lines] == ["", ""]   # the table's figures: after the round
    client.force_login(olga)
    assert "满分 2" in _text(client.get(page))
    rounds = csv_rows(client.get(reverse("event_csv", args=[event.pk, "rounds"])))
    t1_lines = [row for row in rounds[1:] if row[1] == "1"]
    assert [row[head.index("满分")] for row in t1_lines] == ["2", "2"]
    assert all(row[head.index("级差")] != "" for row in t1_lines)
    # once the round has ended every board counts for everyone
    events.end_round_now(olga, r)
    client.force_login(mike)
    assert "满分 2" in _text(client.get(page))
    client.logout()
    standings_csv = csv_rows(client.get(reverse("event_csv", args=[event.pk, "standings"])))
    assert "2" in [row[top] for row in standings_csv[1:]]


def test_corrections_of_a_running_round_are_for_organisers(client, club_setup, three_tables):
    """A corrected board score of a running duplicate round is a board
    score: its audit line is shown to the organisers only until the round
    has ended."""
    club, olga, mike, *_ = club_setup
    event, r, (t1, t2, t3) = three_tables
    boards = [list(b) for b in t1.result["boards"]]
    boards[1] = [boards[1][0] + 5, boards[1][1] - 5]
    events.correct_result(olga, t1, t1.result["entries"], "记错了第 2 副", boards=boards)
    page = reverse("event", args=[event.pk])
    client.force_login(olga)
    assert "记错了第 2 副" in client.get(page).content.decode()
    client.force_login(mike)
    assert "记错了第 2 副" not in client.get(page).content.decode()
    events.end_round_now(olga, r)
    assert "记错了第 2 副" in client.get(page).content.decode()
