"""Events: registration (pairs confirm), pairing preview (swap, re-pair),
starting a round (rooms, seats, bots), results as tables finish, the round
clock, no-shows, corrections with an audit trail, duplicate boards, export."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs import services
from clubs.models import Correction, Entry, Event, Round
from clubs.results.standings import standings
from clubs.running import events
from clubs.running.rounds import sweep_rounds
from games.models import Hand, Room

pytestmark = pytest.mark.django_db


@pytest.fixture
def shengji_event(club_setup, multipliers):
    club, olga, *_ = club_setup
    return events.create_event(olga, club, name="周五升级赛", game="shengji", rounds=3, hands_per_round=1,
                               bot_delay_ms=0)


@pytest.fixture
def baohuang_event(club_setup, multipliers):
    club, olga, *_ = club_setup
    return events.create_event(olga, club, name="保皇赛", game="baohuang", rounds=2, hands_per_round=1,
                               bot_delay_ms=0)


def test_pair_entry_needs_partner_confirmation(club_setup, shengji_event, make_user):
    club, olga, mike, *_ = club_setup
    pam = make_user("pam")
    services.join_club(pam, club.join_code)
    entry = events.register(mike, shengji_event, partner="pam")
    assert entry.status == Entry.Status.PENDING and entry.name == "mike / pam"
    with pytest.raises(services.Conflict):
        events.register(pam, shengji_event, partner="olga")  # pam is in an entry already
    with pytest.raises(services.Forbidden):
        events.confirm(olga, entry)
    events.confirm(pam, entry)
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE


def test_only_members_enter_and_partner_must_be_member(club_setup, shengji_event, make_user):
    club, olga, mike, other, oscar = club_setup
    with pytest.raises(services.Forbidden):
        events.register(oscar, shengji_event, partner="mike")
    with pytest.raises(services.ClubError):
        events.register(mike, shengji_event, partner="oscar")
    assert not shengji_event.entries.exists()


def test_round_robin_refused_for_table_game(club_setup, multipliers):
    club, olga, *_ = club_setup
    with pytest.raises(services.ClubError):
        events.create_event(olga, club, name="x", game="baohuang", format="round_robin")


def test_preview_swap_repair_and_start_seats_pairs(club_setup, shengji_event, make_user):
    """Two human pairs and two bot pairs; the preview can be swapped and
    re-paired; starting seats each pair's players at seats 0/2 or 1/3 of its
    room (S1) and bots everywhere else."""
    club, olga, mike, *_ = club_setup
    users = [make_user(n) for n in ("pam", "ray", "sue")]
    for u in users:
        services.join_club(u, club.join_code)
    a = events.register(mike, shengji_event, partner="pam")
    events.confirm(users[0], a)
    b = events.register(users[1], shengji_event, partner="sue")
    events.confirm(users[2], b)
    bots = events.add_bot_entries(olga, shengji_event, 2)
    r = events.pair_round(olga, shengji_event)
    assert r.status == Round.Status.PREVIEW and len(r.pairing["tables"]) == 2
    before = [list(t) for t in r.pairing["tables"]]
    first, second = before[0][0], before[1][1]
    events.swap(olga, r, first, second)
    r.refresh_from_db()
    assert r.pairing["tables"][0][0] == second and r.pairing["tables"][1][1] == first
    again = events.pair_round(olga, shengji_event, avoid_current=True)
    assert {frozenset(t) for t in again.pairing["tables"]}.isdisjoint({frozenset(t) for t in r.pairing["tables"]})
    r = events.start_round(olga, again)
    assert r.status == Round.Status.RUNNING
    for table in r.tables.all():
        seats = list(table.room.seats.order_by("index"))
        for k, entry_id in enumerate(table.entries):
            entry = Entry.objects.get(pk=entry_id)
            players = [p.user for p in entry.players.order_by("index")]
            mine = [seats[k], seats[k + 2]]
            if entry.is_bot:
                assert all(s.bot_policy for s in mine)
            else:
                assert [s.user for s in mine] == players
    with pytest.raises(services.Conflict):
        events.swap(olga, r, first, second)
    # every page shows mike the way to his table (the lobby included)
    from django.test import Client

    client = Client()
    client.force_login(mike)
    my_room = next(t.room for t in r.tables.all() if t.room.seats.filter(user=mike).exists())
    lobby = client.get(reverse("lobby")).content.decode()
    assert f'href="/rooms/{my_room.pk}/"' in lobby and 'id="my-event-tables"' in lobby
    assert {b.pk for b in bots} <= {i for t in r.pairing["tables"] for i in t}


def test_bot_round_plays_records_results_and_pairs_next(shengji_event, club_setup, finish):
    club, olga, *_ = club_setup
    events.add_bot_entries(olga, shengji_event, 5)
    r = events.start_round(olga, events.pair_round(olga, shengji_event))
    assert r.pairing["bye"] is not None and len(r.pairing["tables"]) == 2
    finish(r, 1)
    assert r.status == Round.Status.FINISHED
    for t in r.tables.all():
        assert t.result["hands"] == 1 and t.finished
        margins = [e["margin"] for e in t.result["entries"]]
        assert margins[0] == -margins[1]
        assert Room.objects.get(pk=t.room_id).status == Room.Status.CLOSED
    table = standings(shengji_event)
    assert len(table) == 5 and sum(s.score for s in table) == 2 * 2 + 2  # two matches + the bye
    r2 = events.pair_round(olga, shengji_event)
    assert r2.number == 2 and r2.pairing["bye"] != r.pairing["bye"]


def test_round_clock_finishes_hand_in_progress_then_ends(shengji_event, club_setup, driver):
    """With a time limit, the sweep waits for the hand in play, then ends the
    round; no further hand is dealt (the deal planner stops)."""
    club, olga, *_ = club_setup
    Event.objects.filter(pk=shengji_event.pk).update(hands_per_round=None, minutes_per_round=30)
    shengji_event.refresh_from_db()
    events.add_bot_entries(olga, shengji_event, 2)
    r = events.start_round(olga, events.pair_round(olga, shengji_event))
    table = r.tables.get()
    room = table.room
    driver(room, lambda rm: Hand.objects.filter(match__room=rm).exists())  # hand 1 in play
    Round.objects.filter(pk=r.pk).update(deadline=timezone.now())  # the clock runs out now
    sweep_rounds()
    table.refresh_from_db()
    assert table.finished is None  # the hand in progress is finished first
    driver(room, lambda rm: Hand.objects.filter(match__room=rm, complete=True).count() == 1)
    sweep_rounds()
    r.refresh_from_db()
    table.refresh_from_db()
    assert r.status == Round.Status.FINISHED and r.ended_by_clock
    assert table.result["hands"] == 1
    assert Hand.objects.filter(match__room=room).count() == 1


def test_no_show_bot_plays_and_forfeit(club_setup, shengji_event, make_user, finish):
    club, olga, mike, *_ = club_setup
    pam = make_user("pam")
    services.join_club(pam, club.join_code)
    entry = events.register(mike, shengji_event, partner="pam")
    events.confirm(pam, entry)
    events.add_bot_entries(olga, shengji_event, 1)
    Event.objects.filter(pk=shengji_event.pk).update(no_show=Event.NoShow.BOT_VOID)
    r = events.start_round(olga, events.pair_round(olga, shengji_event))
    table = r.tables.get()
    Round.objects.filter(pk=r.pk).update(seat_deadline=timezone.now() - timedelta(seconds=1))
    sweep_rounds()
    seats = list(table.room.seats.order_by("index"))
    assert all(s.bot_policy for s in seats)  # both absent players replaced by bots
    finish(r, 1)
    table.refresh_from_db()
    assert table.result["forfeit"] == [entry.pk]
    line = {s.entry: s for s in standings(shengji_event)}
    assert line[entry.pk].score == 0 and line[table.entries[1 - table.entries.index(entry.pk)]].score == 2


def test_correction_changes_standings_and_is_audited(client, shengji_event, club_setup, finish):
    club, olga, mike, other, oscar = club_setup
    events.add_bot_entries(olga, shengji_event, 2)
    r = events.start_round(olga, events.pair_round(olga, shengji_event))
    finish(r, 1)
    table = r.tables.get()
    a, b = table.entries
    client.force_login(olga)
    new = [{"margin": 3, "points": 30}, {"margin": -3, "points": -30}]
    form = {"e0_margin": 3, "e0_points": 30, "e1_margin": -3, "e1_points": -30, "reason": "记分错误"}
    resp = client.post(reverse("table_correct", args=[table.pk]), form)
    assert resp.status_code == 302
    row = Correction.objects.get()
    assert row.reason == "记分错误" and row.by == olga
    assert [{k: e[k] for k in ("margin", "points")} for e in row.after["entries"]] == new
    assert {s.entry: s.score for s in standings(shengji_event)} == {a: 2, b: 0}
    page = client.get(reverse("event", args=[shengji_event.pk])).content.decode()
    assert "记分错误" in page
    with pytest.raises(services.ClubError):
        events.correct_result(olga, table, [{"margin": 1, "points": 0}, {"margin": -1, "points": 0}], "  ")


def test_duplicate_tables_get_identical_deals_per_board(club_setup, multipliers, finish):
    """A duplicate round of 4 bot pairs (2 tables), 2 boards: board k has the
    same seed, deal and start at both tables; no tribute is carried in."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="复式", game="shengji", format="duplicate", rounds=1,
                                hands_per_round=2, bot_delay_ms=0)
    events.add_bot_entries(olga, event, 4)
    r = events.start_round(olga, events.pair_round(olga, event))
    finish(r, 2)
    hands = {
        t.number: list(Hand.objects.filter(match__room=t.room).order_by("match__number", "number"))
        for t in r.tables.all()
    }
    assert len(hands) == 2 and all(len(h) == 2 for h in hands.values())
    for k in range(2):
        h1, h2 = hands[1][k], hands[2][k]
        assert (h1.seed, h1.deal, h1.start) == (h2.seed, h2.deal, h2.start)
        assert h1.seed == r.boards[k]["seed"] and h1.start == r.boards[k]["start"]
    assert hands[1][0].seed != hands[1][1].seed
    assert r.status == Round.Status.FINISHED
    assert all(len(t.result["boards"]) == 2 for t in r.tables.all())
    # the travelling tables, once the round has ended: every table's score per board;
    # the same deal played by the same bots gives the same result, so every table ties (½ each)
    from clubs.results.standings import travelling

    boards = travelling(r)
    assert [b["board"] for b in boards] == [1, 2]
    for b in boards:
        assert [row["table"] for row in b["rows"]] == [1, 2]
        scores = [[c["score"] for c in row["cells"]] for row in b["rows"]]
        assert scores[0] == scores[1] and None not in scores[0]
        assert all([c["pct"] for c in row["cells"]] == [50.0, 50.0] for row in b["rows"])
        assert all({c["role"] for c in row["cells"]} == {"庄家", "闲家"} for row in b["rows"])


def test_event_page_csv_and_print(client, shengji_event, club_setup, finish):
    club, olga, mike, *_ = club_setup
    events.add_bot_entries(olga, shengji_event, 2)
    r = events.start_round(olga, events.pair_round(olga, shengji_event))
    finish(r, 1)
    client.force_login(mike)
    page = client.get(reverse("event", args=[shengji_event.pk])).content.decode()
    assert "机器人1" in page and 'id="standings"' in page
    csv = client.get(reverse("event_csv", args=[shengji_event.pk, "standings"])).content.decode()
    assert csv.splitlines()[0].startswith("\ufeff名次,参赛者,胜负分,级差,游戏积分,对手分,直接对局")
    assert len(csv.strip().splitlines()) == 3
    rounds = client.get(reverse("event_csv", args=[shengji_event.pk, "rounds"])).content.decode()
    assert len(rounds.strip().splitlines()) == 3
    assert client.get(reverse("event_print", args=[shengji_event.pk])).status_code == 200


def test_baohuang_tables_of_five_with_bots(baohuang_event, club_setup, finish):
    club, olga, *_ = club_setup
    events.add_bot_entries(olga, baohuang_event, 7)
    r = events.pair_round(olga, baohuang_event)
    assert r.pairing["bots"] == 3 and [None in t for t in r.pairing["tables"]].count(True) == 1
    r = events.start_round(olga, r)
    finish(r, 1)
    assert r.status == Round.Status.FINISHED
    lines = standings(baohuang_event)
    assert len(lines) == 7 and set(lines[0].tiebreaks) == {"firsts", "tablemates"}


def test_organiser_page_shows_progress_of_running_tables(client, club_setup, multipliers, driver):
    """A running table shows hands completed and the points so far, a watch link;
    nothing is final until the round's hands are played."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="进度", game="shengji", rounds=1, hands_per_round=2,
                                bot_delay_ms=0)
    events.add_bot_entries(olga, event, 2)
    r = events.start_round(olga, events.pair_round(olga, event))
    table = r.tables.get()
    driver(table.room, lambda rm: Hand.objects.filter(match__room=rm, complete=True).count() == 1)
    sweep_rounds()
    table.refresh_from_db()
    assert table.finished is None
    client.force_login(olga)
    page = client.get(reverse("event", args=[event.pk])).content.decode()
    assert "1 局完成" in page and 'class="so-far"' in page and "级差" in page
    assert f'href="/rooms/{table.room_id}/"' in page


def test_bot_entries_are_named_in_the_viewers_language(client, club_setup, baohuang_event):
    """An organiser using the English site adds bot entries; a Chinese page
    (and export) names them 机器人1, an English one Bot 1: the stored name is
    the organiser's language, the shown one the viewer's."""
    from django.utils import translation

    club, olga, *_ = club_setup
    with translation.override("en"):
        bots = events.add_bot_entries(olga, baohuang_event, 2)
    assert [b.name for b in bots] == ["Bot 1", "Bot 2"]
    client.force_login(olga)
    url = reverse("event", args=[baohuang_event.pk])
    chinese = client.get(url).content.decode()
    assert "<td>机器人1</td>" in chinese and "<td>机器人2</td>" in chinese and "Bot 1" not in chinese
    client.cookies["django_language"] = "en"
    english = client.get(url).content.decode()
    assert "<td>Bot 1</td>" in english and "机器人1" not in english
    with translation.override("zh-hant"):
        assert [b.display_name() for b in bots] == ["機器人1", "機器人2"]
    human = Entry(name="Bob 2", is_bot=False)
    assert human.display_name() == "Bob 2"
