"""保皇: the previous round on demand ("上一轮出牌").  Once a round
is over, the table fragment has a closed <details id="last-round"> listing
that round's actions in playing order (sets, 让, 过) with the seat that won it
(B5).  It is built from public plays only: every viewer's block is the same,
and it follows the reader's language (page, fragment and pushed table)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from games import registry, services
from games.render import tables
from games.baohuang.table import last_round

pytestmark = pytest.mark.django_db
RULES = registry.get("baohuang").rules


def fragment(room, user, language: str | None = None) -> str:
    c = Client()
    c.force_login(user)
    if language:
        c.cookies["django_language"] = language
    response = c.get(f"/rooms/{room.pk}/table")
    assert response.status_code == 200
    return response.content.decode()


def block(html: str) -> str | None:
    m = re.search(r'<details class="last-round" id="last-round".*?</details>', html, re.S)
    return m.group(0) if m else None


def rows(html: str) -> list[tuple[int, list[str], bool]]:
    """(seat, card codes, is the set that stood) per line of the block."""
    return [
        (int(seat), re.findall(r'data-card="([^"]+)"', body), 'class="top"' in attrs)
        for seat, attrs, body in re.findall(r'<li data-last-seat="(\d+)"([^>]*)>(.*?)</li>', block(html), re.S)
    ]


def a_round_is_over(room) -> bool:
    hand = services.current_hand(room)
    if hand is None or hand.complete:
        return False
    view = RULES.view(services.hand_state(hand), None)
    return view["phase"] == "play" and any(e["verb"] == "play" for e in view["last_round"]) and \
        any(e["verb"] != "play" for e in view["last_round"])


def test_no_block_before_a_round_is_over(bot_room, alice):
    html = fragment(bot_room, alice)
    assert 'id="table"' in html and block(html) is None


def test_previous_round_by_seat_same_for_every_viewer_and_in_each_language(bot_room, alice, make_user, driver):
    driver(bot_room, a_round_is_over)
    bot_room.refresh_from_db()
    state = services.hand_state(services.current_hand(bot_room))
    log = RULES.view(state, 0)["last_round"]
    winner = [e for e in log if e["verb"] == "play"][-1]["seat"]

    html = fragment(bot_room, alice)
    mine = block(html)
    assert mine is not None and "<details" in mine and " open" not in mine.split(">")[0]
    assert "上一轮出牌" in mine
    got = rows(html)
    assert [s for s, _, _ in got] == [e["seat"] for e in log]
    assert [c for _, c, _ in got] == [e["cards"] if e["verb"] == "play" else [] for e in log]
    assert [s for s, _, top in got if top] == [winner]
    assert f'id="last-round-winner" data-seat="{winner}"' in mine
    names = tables.table_view(bot_room, alice).names
    assert f"{names[winner]} 赢得此轮" in mine
    for e, li in zip(log, re.findall(r"<li .*?</li>", mine, re.S)):
        assert f'<span class="who">{names[e["seat"]]}</span>' in li
        if e["verb"] == "pass":
            assert "过" in li
        elif e["verb"] == "yield":
            assert "让" in li

    # Public only: a spectator's block (and any other seat's) is the same.
    watcher = make_user("watcher")
    assert block(fragment(bot_room, watcher)) == mine

    english = block(fragment(bot_room, alice, "en"))
    with translation.override("en"):
        en_names = tables.table_view(bot_room, alice).names
    assert "Last round" in english and f"{en_names[winner]} won the round" in english
    assert not re.search(r"[\u3400-\u9fff]", re.sub(r'<span class="who">[^<]*</span>', "", english))
    hant = block(fragment(bot_room, alice, "zh-hant"))
    assert "上一輪出牌" in hant and "贏得此輪" in hant
    # the pushed table (each socket renders its own seat's table inside its
    # language): the same block as the English page
    with translation.override("en"):
        assert block(tables.render_table(bot_room, alice)) == english


def test_last_round_marks_the_set_that_stood_and_labels_yield_and_pass():
    view = {"phase": "play", "last_round": [
        {"seat": 1, "verb": "play", "cards": ["5S"]},
        {"seat": 2, "verb": "yield", "cards": []},
        {"seat": 3, "verb": "play", "cards": ["9H"]},
        {"seat": 4, "verb": "pass", "cards": []},
        {"seat": 0, "verb": "pass", "cards": []},
        {"seat": 1, "verb": "pass", "cards": []},
        {"seat": 2, "verb": "pass", "cards": []},
    ]}
    names = ["a", "b", "c", "d", "e"]
    got = last_round(view, names)
    assert got["winner"] == 3 and got["winner_name"] == "d"
    assert [p["top"] for p in got["plays"]] == [False, False, True, False, False, False, False]
    assert [str(p["verb"]) if p["verb"] else p["cards"] for p in got["plays"]] == [
        ["5S"], "让", ["9H"], "过", "过", "过", "过"]
    assert last_round({"phase": "play", "last_round": []}, names) is None
    assert last_round({**view, "phase": "done"}, names) is None
