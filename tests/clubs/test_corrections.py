"""Corrections in every format: the correction form (one field
per entry and figure, pre-filled, in the viewer's language; unchanged is a
no-op), a corrected duplicate board changes matchpoints, travelling table and
standings, a corrected forfeit changes the match points, and the audit trail
says in words who changed what from what to what (docs/tournaments.md,
"Corrections")."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import Correction, Event, EventTable, Round
from clubs.pages.context import entry_names
from clubs.results.corrections import CorrectionForm
from clubs.results.standings import standings, travelling
from clubs.running import events

pytestmark = pytest.mark.django_db


def finished_round(event, tables, number=1):
    r = Round.objects.create(event=event, number=number, status=Round.Status.FINISHED,
                             pairing={"tables": [e for e, _ in tables], "bye": None})
    for k, (entries, result) in enumerate(tables, start=1):
        EventTable.objects.create(round=r, number=k, entries=entries, result=result, finished=timezone.now())
    return r


def form_data(table, **changes):
    """The correction form's pre-filled values (as the browser would post
    them) with ``changes`` applied."""
    form = CorrectionForm(table, entry_names(table.round.event))
    data = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if name.endswith("_absent"):  # a checkbox: posted only when ticked
            if value:
                data[name] = "on"
            continue
        data[name] = "" if value is None else value
    data.update(changes)
    return data


@pytest.fixture
def duplicate(club_setup, multipliers):
    """A finished 升級 duplicate round: three tables, one board.
        T1 (A v B): +2 / -2    T2 (C v D): +1 / -1    T3 (E v F): 0 / 0
    Side 0: A beats C and E (2 of 2, 100 %), C beats E (50 %), E 0 %.
    Side 1: F beats B and D (100 %), D 50 %, B 0 %."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="复式", game="shengji", format="duplicate", rounds=1,
                                hands_per_round=1)
    ids = [e.pk for e in events.add_bot_entries(olga, event, 6)]
    r = finished_round(event, [
        (ids[0:2], {"entries": [{"margin": 2, "points": 4, "hands": 1}, {"margin": -2, "points": -4, "hands": 1}],
                    "boards": [[2, -2]], "hands": 1}),
        (ids[2:4], {"entries": [{"margin": 1, "points": 2, "hands": 1}, {"margin": -1, "points": -2, "hands": 1}],
                    "boards": [[1, -1]], "hands": 1}),
        (ids[4:6], {"entries": [{"margin": 0, "points": 1, "hands": 1}, {"margin": 0, "points": -1, "hands": 1}],
                    "boards": [[0, 0]], "hands": 1}),
    ])
    return event, r, ids


def test_duplicate_board_correction_changes_matchpoints_travelling_and_standings(client, club_setup, duplicate):
    """The organiser corrects T3's board from 0 / 0 to +3 / -3: now E beats A
    and C on side 0 (E 100 %, A 50 %, C 0 %) and F loses to B and D (F 0 %,
    B 50 %, D 100 %)."""
    club, olga, *_ = club_setup
    event, r, (a, b, c, d, e, f) = duplicate
    before = {s.entry: s.score for s in standings(event)}
    assert before == {a: 100.0, b: 0.0, c: 50.0, d: 50.0, e: 0.0, f: 100.0}
    t3 = r.tables.get(number=3)
    client.force_login(olga)
    resp = client.post(reverse("table_correct", args=[t3.pk]),
                       form_data(t3, b0_0=3, b0_1=-3, e0_margin=3, e1_margin=-3, reason="记错了第 1 副"))
    assert resp.status_code == 302
    after = {s.entry: s.score for s in standings(event)}
    assert after == {a: 50.0, b: 50.0, c: 0.0, d: 100.0, e: 100.0, f: 0.0}
    row = next(x for x in travelling(r)[0]["rows"] if x["table"] == 3)
    assert [(cell["score"], cell["pct"]) for cell in row["cells"]] == [(3, 100.0), (-3, 0.0)]
    page = client.get(reverse("event", args=[event.pk])).content.decode()
    assert "第 1 副牌 · 机器人5：级差 0 → 3" in page and "记错了第 1 副" in page


def test_forfeit_corrected_to_a_draw_changes_match_points(club_setup, multipliers):
    """A Swiss 升級 table was forfeited by pair B (A 2, B 0 match points);
    the organiser finds B was there and corrects it to a draw: 1 and 1."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="瑞士", game="shengji", rounds=3, hands_per_round=1,
                                no_show=Event.NoShow.FORFEIT)
    a, b = (x.pk for x in events.add_bot_entries(olga, event, 2))
    r = finished_round(event, [([a, b], {"entries": [{"margin": 0, "points": 0, "hands": 0}] * 2,
                                         "forfeit": [b], "hands": 0})])
    assert {s.entry: s.score for s in standings(event)} == {a: 2, b: 0}
    table = r.tables.get()
    form = CorrectionForm(table, entry_names(event), form_data(table, e1_absent="", reason="B 其实到了"))
    assert form.is_valid(), form.errors
    result, boards, forfeit = form.correction()
    assert forfeit == [] and boards is None
    events.correct_result(olga, table, result, "B 其实到了", boards=boards, forfeit=forfeit)
    assert {s.entry: s.score for s in standings(event)} == {a: 1, b: 1}
    row = Correction.objects.get()
    from clubs.results.corrections import describe

    assert describe(row, entry_names(event), event.game) == ["机器人2：缺席 → 出席"]


def test_baohuang_table_forfeit_correction_restores_points(club_setup, multipliers):
    """A 保皇 Swiss table where entry 3 was scored absent (0 points): the
    organiser un-marks the absence; the player's 6 game points count."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="保皇", game="baohuang", rounds=2, hands_per_round=1,
                                no_show=Event.NoShow.BOT_VOID)
    ids = [x.pk for x in events.add_bot_entries(olga, event, 5)]
    entries = [{"points": p, "firsts": f, "hands": 1} for p, f in ((4, 1), (-2, 0), (6, 0), (-4, 0), (-4, 0))]
    r = finished_round(event, [(ids, {"entries": entries, "forfeit": [ids[2]], "hands": 1})])
    assert {s.entry: s.score for s in standings(event)}[ids[2]] == 0
    events.correct_result(olga, r.tables.get(), [{k: e[k] for k in ("points", "firsts")} for e in entries],
                          "到场了", forfeit=[])
    assert {s.entry: s.score for s in standings(event)}[ids[2]] == 6


def test_form_fields_prefilled_in_the_viewers_language(client, club_setup, duplicate):
    """One field per entry and figure and per board and entry, pre-filled;
    labels in the viewer's language (English: "Level margin")."""
    from django.utils import translation

    club, olga, *_ = club_setup
    event, r, ids = duplicate
    t1 = r.tables.get(number=1)
    form = CorrectionForm(t1, entry_names(event))
    assert {n: form[n].value() for n in ("e0_margin", "e0_points", "e1_margin", "e1_points", "b0_0", "b0_1")} == {
        "e0_margin": 2, "e0_points": 4, "e1_margin": -2, "e1_points": -4, "b0_0": 2, "b0_1": -2}
    assert "机器人1 · 级差" == form.fields["e0_margin"].label
    with translation.override("en"):
        english = CorrectionForm(t1, entry_names(event))
        assert english.fields["e0_margin"].label == "Bot 1 · Level margin"
        assert english.fields["e0_points"].label == "Bot 1 · Game points"
    client.force_login(olga)
    page = client.get(reverse("event", args=[event.pk])).content.decode()
    assert 'name="e0_margin"' in page and 'name="b0_1"' in page and 'name="result"' not in page


def test_saving_unchanged_is_a_no_op(client, club_setup, duplicate):
    club, olga, *_ = club_setup
    event, r, ids = duplicate
    t1 = r.tables.get(number=1)
    stored = dict(t1.result)
    client.force_login(olga)
    resp = client.post(reverse("table_correct", args=[t1.pk]), form_data(t1, reason=""), follow=True)
    assert resp.status_code == 200
    body = resp.content.decode()
    assert "成绩没有变化" in body and "成绩格式不对" not in body
    assert not Correction.objects.exists()
    t1.refresh_from_db()
    assert t1.result == stored


def test_audit_trail_in_words_never_a_dict(client, club_setup, duplicate):
    club, olga, *_ = club_setup
    event, r, ids = duplicate
    t1 = r.tables.get(number=1)
    client.force_login(olga)
    client.post(reverse("table_correct", args=[t1.pk]),
                form_data(t1, e0_margin=0, e1_margin=0, e0_points=0, e1_points=0, reason="重打"))
    page = client.get(reverse("event", args=[event.pk])).content.decode()
    section = page.split('id="corrections"', 1)[1]
    assert "olga" in section and "重打" in section
    assert "机器人1：级差 2 → 0" in section and "机器人2：级差 -2 → 0" in section
    assert "机器人1：游戏积分 4 → 0" in section
    assert "{" not in section.split("</section>")[0] and "&#x27;margin&#x27;" not in page


def test_bad_form_gives_the_field_and_the_reason(client, club_setup, duplicate):
    """Margins that do not cancel, or a board half filled, are refused with a
    sentence naming the problem; nothing is stored."""
    club, olga, *_ = club_setup
    event, r, ids = duplicate
    t1 = r.tables.get(number=1)
    client.force_login(olga)
    resp = client.post(reverse("table_correct", args=[t1.pk]), form_data(t1, e0_margin=3, reason="x"))
    assert resp.status_code == 400 and "两方的级差须互为相反数" in resp.content.decode()
    resp = client.post(reverse("table_correct", args=[t1.pk]), form_data(t1, b0_1="", reason="x"))
    assert resp.status_code == 400 and "第 1 副牌" in resp.content.decode()
    assert not Correction.objects.exists()


def test_each_correction_toggle_names_its_forms_row(client, club_setup, duplicate):
    """The 更正 button stays in its table's row and its form is a row of its
    own under it (templates/clubs/_correction_form.html): the button (a
    disclosure, static/games/disclosure.js) says which row it opens
    (aria-controls) and that it is closed (aria-expanded), one form row per
    finished table, hidden until opened, each holding that table's form."""
    import re

    club, olga, *_ = club_setup
    event, r, ids = duplicate
    client.force_login(olga)
    page = client.get(reverse("event", args=[event.pk])).content.decode()
    controls = re.findall(
        r'<button type="button" class="correction-toggle" data-disclosure aria-expanded="false" '
        r'aria-controls="([^"]+)">', page)
    assert controls == [f"correction-{r.number}-{n}" for n in (1, 2, 3)]
    for n, target in enumerate(controls, start=1):
        row = re.search(rf'<tr class="correction-row" id="{target}"([^>]*)>(.*?)</tr>', page, re.S)
        assert row is not None, target
        assert re.search(r"\shidden\b", row.group(1)), target
        table = r.tables.get(number=n)
        assert reverse("table_correct", args=[table.pk]) in row.group(2)
