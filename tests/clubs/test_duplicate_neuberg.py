"""Neuberg in pairs duplicate: a board played fewer times than the others of
its round (here: table 4 ran out of time after board 1) is matchpointed on its
own results and scaled to the field by Neuberg's formula; the standings count
the adjusted matchpoints and the travelling table shows both (docs/tournaments.md,
"Duplicate: Neuberg")."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import Entry, EventTable, Round
from clubs.results.scorecards import card
from clubs.results.standings import duplicate_rows_of, standings, travelling
from clubs.running import events

pytestmark = pytest.mark.django_db


@pytest.fixture
def short_board(club_setup, multipliers):
    """升級 duplicate, four tables, two boards; side 0 of each table:

        board 1   T1 +3   T2 +1   T3 +3   T4 −2     (four results, top 3)
        board 2   T1 +5   T2 +2   T3 −1   T4 —      (three results, top 2)

    Board 1: T1 and T3 beat T2 and T4 and tie each other, 2½ of 3; T2 1; T4 0.
    Board 2 raw: T1 2, T2 1, T3 0 of 2; Neuberg to four results (doubled for
    the formula's two-per-beat scale, then halved): T1 (4 + 1)·4/3 − 1 = 17/3
    → 17/6 of 3; T2 (2 + 1)·4/3 − 1 = 3 → 3/2 (an average stays one); T3
    (0 + 1)·4/3 − 1 = 1/3 → 1/6.  Side 1 scores the opposite."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="升级复式", game="shengji", format="duplicate", rounds=1,
                                hands_per_round=2)
    ids = [e.pk for e in events.add_bot_entries(olga, event, 8)]
    pairs = [ids[i:i + 2] for i in range(0, 8, 2)]
    side0 = [(3, 5), (1, 2), (3, -1), (-2, None)]
    r = Round.objects.create(event=event, number=1, status=Round.Status.FINISHED,
                             pairing={"tables": pairs, "bye": None})
    for number, (entries, scores) in enumerate(zip(pairs, side0), start=1):
        boards = [[s, -s] for s in scores if s is not None]
        EventTable.objects.create(round=r, number=number, entries=entries, finished=timezone.now(),
                                  result={"boards": boards, "hands": len(boards)})
    return event, r, pairs, olga


def test_short_board_is_scaled_by_neuberg(short_board):
    event, r, pairs, _ = short_board
    board1, board2 = travelling(r)
    first = board2["rows"][0]["cells"][0]  # T1, side 0 on board 2
    assert (first["raw_mp"], first["raw_top"]) == (Fraction(2), 2)
    assert (first["mp"], first["top"]) == (Fraction(17, 6), 3) and first["neuberg"]
    assert [(row["cells"][0]["mp"], row["cells"][0]["top"]) for row in board2["rows"][:3]] == [
        (Fraction(17, 6), 3), (Fraction(3, 2), 3), (Fraction(1, 6), 3)]
    assert board2["rows"][3]["cells"][0]["mp"] is None  # T4 did not play it
    # board 1 was played by every table: nothing adjusted
    assert not any(c["neuberg"] for row in board1["rows"] for c in row["cells"])
    assert board1["rows"][0]["cells"][0]["mp"] == Fraction(5, 2)


def test_standings_and_score_card_count_the_adjusted_matchpoints(short_board):
    event, r, pairs, _ = short_board
    t1_side0 = pairs[0][0]
    rows = sorted((mp, top) for e, mp, top in duplicate_rows_of(event) if e == t1_side0)
    assert rows == [(2.5, 3), pytest.approx((17 / 6, 3))]
    pct = {s.entry: s.score for s in standings(event)}
    assert pct[t1_side0] == pytest.approx(100 * (5 / 2 + 17 / 6) / 6)
    assert pct[pairs[3][0]] == 0.0  # T4 side 0: board 1 only, a bottom
    c = card(Entry.objects.get(pk=t1_side0))
    assert c["total"] == pytest.approx(5 / 2 + 17 / 6) and c["maximum"] == 6


def test_traveller_page_shows_raw_and_adjusted(client, short_board):
    event, r, pairs, olga = short_board
    client.force_login(olga)
    page = client.get(reverse("event", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    board2 = page[page.index('data-board="2"'):]
    board2 = board2[:board2.index("</table>")]
    assert "2.83 <span class=\"neuberg\">（Neuberg 折算；原始 2 / 2）</span>" in board2
    assert "0.17 <span class=\"neuberg\">（Neuberg 折算；原始 0 / 2）</span>" in board2
    board1 = page[page.index('data-board="1"'):]
    assert 'class="neuberg"' not in board1[:board1.index("</table>")]
    english = client.get(reverse("event", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "(Neuberg-adjusted; raw 2 of 2)" in english
