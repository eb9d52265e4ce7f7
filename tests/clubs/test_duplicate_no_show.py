"""Duplicate no-show: with "机器人代打，缺席者判负" (or "判负") an
absent entry's boards score as a loss, 0 matchpoints out of the usual
maximum, never the bot's matchpoints; the others at every table are compared
with the result the bot actually played (docs/tournaments.md, "Duplicate:
no-shows").  Results are written as finished tables would store them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs.models import Event, EventTable, Round
from clubs.results.standings import duplicate_rows_of, standings, travelling
from clubs.running import events
from clubs.running.rounds import sweep_rounds

pytestmark = pytest.mark.django_db


def finished_round(event, tables):
    """A finished round 1 of ``event`` with ``tables``: ``[(entries, result)]``."""
    r = Round.objects.create(event=event, number=1, status=Round.Status.FINISHED,
                             pairing={"tables": [e for e, _ in tables], "bye": None})
    for number, (entries, result) in enumerate(tables, start=1):
        EventTable.objects.create(round=r, number=number, entries=entries, result=result, finished=timezone.now())
    return r


def test_baohuang_absent_player_scores_zero_matchpoints(club_setup, multipliers):
    """Two tables of five, two boards; entry 3 (table 1, seat 2) did not come,
    a bot played the seat and the rule is 机器人代打，缺席者判负.

        board 1   T1: ( 4, -2,  2, -2, -2)    T2: ( 2, -1,  2, -2, -1)
        board 2   T1: (-2,  4,  2, -2, -2)    T2: (-2,  4,  2, -2, -2)

    Seat 2 ties on both boards (2 = 2): T2's player gets ½ + ½ = 1 of 2,
    50 %; the absent entry at T1 gets 0 + 0 = 0 of 2, 0 % (without the rule it
    would have had the bot's 50 %).  Seat 0: board 1 T1 4 > T2 2 (1 / 0),
    board 2 tie (½ each): T1 75 %, T2 25 %.  Seat 1: T2 wins board 1:
    T1 25 %, T2 75 %.  Seat 3 ties twice: 50 % both.  Seat 4: T2 wins board 1:
    T1 25 %, T2 75 %."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="保皇复式", game="baohuang", format="duplicate", rounds=1,
                                hands_per_round=2, no_show=Event.NoShow.BOT_VOID)
    ids = [e.pk for e in events.add_bot_entries(olga, event, 10)]
    t1, t2 = ids[:5], ids[5:]
    absent = t1[2]
    r = finished_round(event, [
        (t1, {"boards": [[4, -2, 2, -2, -2], [-2, 4, 2, -2, -2]], "forfeit": [absent], "hands": 2}),
        (t2, {"boards": [[2, -1, 2, -2, -1], [-2, 4, 2, -2, -2]], "hands": 2}),
    ])
    pct = {s.entry: s.score for s in standings(event)}
    assert pct[absent] == 0.0
    assert pct[t2[2]] == 50.0
    assert [pct[i] for i in t1] == [75.0, 25.0, 0.0, 50.0, 25.0]
    assert [pct[i] for i in t2] == [25.0, 75.0, 50.0, 50.0, 75.0]
    # the absent entry's rows keep the usual maximum (1 per board)
    assert sorted((mp, top) for e, mp, top in duplicate_rows_of(event) if e == absent) == [(0.0, 1), (0.0, 1)]
    # the travelling table shows the bot's score and the absent entry's 0 %
    cells = travelling(r)[0]["rows"][0]["cells"]
    assert cells[2]["score"] == 2 and cells[2]["absent"] and cells[2]["pct"] == 0.0


def test_bot_counts_rule_keeps_the_bots_matchpoints(club_setup, multipliers):
    """The same boards under 机器人代打，成绩有效: no forfeit is stored, the
    entry gets the bot's ½ + ½ = 50 %."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="保皇复式", game="baohuang", format="duplicate", rounds=1,
                                hands_per_round=1, no_show=Event.NoShow.BOT_COUNTS)
    ids = [e.pk for e in events.add_bot_entries(olga, event, 10)]
    finished_round(event, [(ids[:5], {"boards": [[4, -2, 2, -2, -2]]}), (ids[5:], {"boards": [[2, -1, 2, -2, -1]]})])
    assert {s.entry: s.score for s in standings(event)}[ids[2]] == 50.0


def test_match_forfeit_without_play_loses_every_board(club_setup, multipliers):
    """升級 duplicate, three tables, rule 判负: table 3 played nothing (pair F
    absent).  Board 1: T1 (+2, -2), T2 (+1, -1); board 2: T1 (0, 0), T2 (+1, -1).
    On each board two tables played: the absent pair scores 0 of 2 per board
    (0 %), the pair present 2 of 2 (100 %, a win).  T1's pair 0 has board 1
    1/1 and board 2 0/1: 50 %."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="升级复式", game="shengji", format="duplicate", rounds=1,
                                hands_per_round=2, no_show=Event.NoShow.FORFEIT)
    a, b, c, d, e, f = (x.pk for x in events.add_bot_entries(olga, event, 6))
    finished_round(event, [
        ([a, b], {"boards": [[2, -2], [0, 0]], "hands": 2}),
        ([c, d], {"boards": [[1, -1], [1, -1]], "hands": 2}),
        ([e, f], {"boards": [None, None], "forfeit": [f], "hands": 0}),
    ])
    pct = {s.entry: s.score for s in standings(event)}
    assert pct[f] == 0.0 and pct[e] == 100.0
    assert pct[a] == 50.0 and pct[c] == 50.0
    assert sorted((mp, top) for x, mp, top in duplicate_rows_of(event) if x == f) == [(0.0, 2), (0.0, 2)]


def test_absent_human_in_a_played_duplicate_round(club_setup, multipliers, make_user, finish):
    """Through the real no-show path: mike is seated at a 保皇 duplicate table
    and never readies; after the grace a bot plays his seat; when the round
    ends he has 0 matchpoints on the board although the bot's result at that
    table was compared normally."""
    club, olga, mike, *_ = club_setup
    event = events.create_event(olga, club, name="保皇复式", game="baohuang", format="duplicate", rounds=1,
                                hands_per_round=1, bot_delay_ms=0, no_show=Event.NoShow.BOT_VOID)
    mine = events.register(mike, event)
    events.add_bot_entries(olga, event, 9)
    r = events.start_round(olga, events.pair_round(olga, event))
    Round.objects.filter(pk=r.pk).update(seat_deadline=timezone.now() - timedelta(seconds=1))
    sweep_rounds()
    finish(r, 1)
    assert r.status == Round.Status.FINISHED
    table = next(t for t in r.tables.all() if mine.pk in t.entries)
    assert table.result["forfeit"] == [mine.pk]
    # the same board played by the same heuristic bots: the same result at both tables
    assert [t.result["boards"] for t in r.tables.all()][0] == [t.result["boards"] for t in r.tables.all()][1]
    # each seat's role on the board is kept for the travelling table (one emperor per table)
    assert table.result["roles"][0].count("皇帝") + table.result["roles"][0].count("皇帝（独）") == 1
    rows = [(mp, top) for e, mp, top in duplicate_rows_of(event) if e == mine.pk]
    assert rows == [(0.0, 1)]
    assert {s.entry: s.score for s in standings(event)}[mine.pk] == 0.0
