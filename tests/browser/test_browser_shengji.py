"""A player on a phone plays a whole 升级 hand by clicking: sign up, create a
升级 room, fill it with bots, then through the 比牌 auction (outbid with the
cheapest 比牌 while possible, so the human usually wins it), naming trumps (the suit with most cards),
还牌 when it occurs (pick the loser, click the hinted cards), burying 8 cards
(click them) and every trick (click the 提示 cards, then 出牌) until the
result panel; the last trick is looked at with its toggle on the way.

Everything the human does is a click on ``data-card`` / ``data-action``
hooks; the server's 提示 (``data-hint``: the cheapest bid, the C5 bury and
the smallest legal play; ``data-give-hint`` for 还牌) tells which cards.
The bots (3 seats) move on the server's in-process timers (embedded topology).
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections import Counter

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import SHOTS
from .helpers import click_copies, hint_codes, selected

pytestmark = pytest.mark.browser

HAND_TIMEOUT_S = 420


def table_version(page) -> int:
    return int(page.locator("#table").get_attribute("data-version") or -1)


def wait_version_above(page, version: int, timeout_ms: int = 20_000) -> None:
    page.wait_for_function(
        "v => { const t = document.querySelector('#table');"
        " return t && parseInt(t.dataset.version || '-1', 10) > v; }",
        arg=version, timeout=timeout_ms,
    )


def my_actions(page) -> list[str]:
    return page.locator("#actions [data-action]").evaluate_all("els => els.map(e => e.dataset.action)")


def click_cards(page, codes: list[str], seen: dict[str, int] | None = None) -> None:
    """Click each code (a stack of identical cards takes one more copy per
    tap: helpers.click_copies); ``seen`` carries the copies already clicked
    over several calls."""
    click_copies(page, codes, seen)


def test_play_a_whole_shengji_hand_by_clicking(site_server, phone_page):
    page = phone_page
    base = site_server.web_url
    username = "s" + secrets.token_hex(4)
    password = "Cards-" + secrets.token_hex(6)
    page.goto(base + "/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.click('[data-action="signup"]')
    page.wait_for_load_state()
    assert "/accounts/signup/" not in page.url

    page.goto(base + "/rooms/new/?game=shengji")
    page.select_option("#id_game", "shengji")
    page.fill("#id_name", "升级浏览器测试")
    page.fill("#id_turn_seconds", "300")
    page.fill("#id_bot_delay_ms", "20")
    page.click('[data-action="create-room-submit"]')
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    page.wait_for_selector("#table[data-my-seat='0']")
    page.click('#fill-bots [data-action="fill-bots"]')
    # the table with the bots seated (the ready button was already on the one before:
    # a click on it while the answer replaces the table would be lost)
    page.wait_for_selector('#table [data-seat-name="3"]')
    page.click('[data-action="ready"]')
    page.wait_for_selector("#my-hand [data-card]")
    assert page.evaluate("() => [...document.querySelectorAll('#my-hand [data-card]')]"
                         ".reduce((n, e) => n + parseInt(e.dataset.count || '1', 10), 0)") == 52  # S1
    page.screenshot(path=str(SHOTS / "shengji-auction-375.png"), full_page=False)

    done: Counter = Counter()
    history: list = []
    shots: set[str] = set()
    deadline = time.monotonic() + HAND_TIMEOUT_S
    while time.monotonic() < deadline:
        if page.evaluate("() => { const p = document.querySelector('#result-panel');"
                         " return !!(p && p.dataset.winners); }"):
            break
        actions = my_actions(page)
        if not actions:
            if not done["last-trick"] and page.locator('[data-action="last-trick"]').count():
                page.click('[data-action="last-trick"]')
                assert page.locator("#last-trick").is_visible()
                assert page.locator("#last-trick [data-card]").count() >= 4
                done["last-trick"] += 1
            page.wait_for_timeout(100)
            continue
        phase = page.locator("#turn-indicator").get_attribute("data-phase")
        if phase not in shots:
            page.screenshot(path=str(SHOTS / f"shengji-{phase}-375.png"), full_page=False)
            shots.add(phase)
        print("turn", phase, actions, hint_codes(page), selected(page), flush=True)
        assert not selected(page) or phase == "give", (
            f"cards selected before my turn: {selected(page)}; before: {history[-3:]}")
        before = table_version(page)
        if phase == "auction":
            codes = hint_codes(page)
            if "bid" in actions and codes:  # outbid while possible: win, name trumps, bury
                marked = page.locator("#my-hand [data-card][data-bid]").evaluate_all(
                    "els => els.map(e => e.dataset.card)")
                assert set(codes) <= set(marked)  # the hint shows 比牌 only
                click_cards(page, codes)
                page.click('#actions [data-action="bid"]')
                done["bid"] += 1
            else:
                page.click('#actions [data-action="pass"]')
                done["pass"] += 1
        elif phase == "trump":
            suits = Counter(c[-1] for c in page.locator("#my-hand [data-card]").evaluate_all(
                "els => els.map(e => e.dataset.card)") if c not in ("BJ", "SJ"))
            suit = max("SHDC", key=lambda s: suits[s])
            page.click(f'#actions [data-action="trump-{suit}"]')
            done["trump"] += 1
        elif phase == "give":
            mapping = json.loads(page.locator('[data-action="give-hint"]').get_attribute("data-give-hint"))
            assert page.locator('#actions [data-action="give"]').is_disabled()
            blocked = page.locator("#my-hand [data-card][data-block]").count()
            seen: dict[str, int] = {}
            for seat, codes in mapping.items():
                page.click(f'[data-give-to="{seat}"]')
                click_cards(page, codes, seen)
            assert len(selected(page)) == sum(len(c) for c in mapping.values())
            assert blocked >= 0
            page.click('#actions [data-action="give"]')
            done["give"] += 1
        elif phase == "bury":
            codes = hint_codes(page)
            assert len(codes) == 8
            assert page.evaluate("() => [...document.querySelectorAll('#my-hand [data-card][data-kitty]')]"
                                 ".reduce((n, e) => n + parseInt(e.dataset.count || '1', 10), 0)") == 8
            click_cards(page, codes)
            page.wait_for_function("() => document.querySelector('#sj-selected-count').textContent === '8'")
            page.click('#actions [data-action="bury"]')
            done["bury"] += 1
        elif phase == "play":
            codes = hint_codes(page)
            assert codes
            trick = page.locator("#sj-trick")
            led = trick.get_attribute("data-led-suit")
            if led and not done["refused"] and trick.get_attribute("data-led-count") == "1":
                suits = page.locator("#my-hand [data-card]").evaluate_all(
                    "els => els.map(e => [e.dataset.card, e.dataset.suitOf])")
                off = [c for c, s in suits if s != led]
                if off and any(s == led for _c, s in suits):
                    # S9: holding the led suit, another suit is refused with one
                    # sentence (no ruling id) next to the buttons and a link to
                    # the rule; the follow requirement lights up; nothing moves
                    click_cards(page, off[:1])
                    page.click('#actions [data-action="play"]')
                    page.wait_for_selector("#act-msg.error")
                    text = page.locator("#act-msg").inner_text()
                    assert "跟牌不对" in text and "S9" not in text
                    assert page.locator("#actions + #act-msg a[href$='#rule-S9']").count() == 1
                    page.wait_for_selector("#follow-hint.flash")
                    assert table_version(page) == before and selected(page) == off[:1]
                    # deselect: a tap on a stack takes one more copy, so clear instead
                    page.click("#hand-tools [data-action='clear-selection']")
                    assert not selected(page)
                    done["refused"] += 1
            click_cards(page, codes)
            assert sorted(selected(page)) == sorted(codes)
            page.click('#actions [data-action="play"]')
            done["play"] += 1
        else:
            pytest.fail(f"unexpected phase {phase} with actions {actions}")
        history.append((phase, hint_codes(page) if phase != "give" else "give", dict(done)))
        wait_version_above(page, before)
        # The websocket's new table can arrive before the POST's own answer,
        # which is what clears an earlier refusal from #act-msg: wait for it.
        try:
            page.wait_for_function(
                "() => !document.querySelector('#act-msg').textContent.trim()", timeout=5_000)
        except PlaywrightTimeout:
            pass
        msg = page.locator("#act-msg").inner_text()
        assert not msg.strip(), f"refused: {msg} ({phase}, {dict(done)})"
    else:
        pytest.fail(f"no result within {HAND_TIMEOUT_S}s; did {dict(done)}")

    page.screenshot(path=str(SHOTS / "shengji-result-375.png"), full_page=True)
    assert done["play"] >= 5, dict(done)  # the human led or followed in many tricks
    panel = page.locator("#result-panel")
    assert panel.get_attribute("data-winners") in ("attackers", "defenders")
    assert page.locator("#result-panel tr[data-result-seat]").count() == 4
    assert page.locator("#result-panel .sj-kitty [data-card]").count() == 8
    points = [int(x) for x in page.locator("#result-panel [data-game-points]").evaluate_all(
        "els => els.map(e => e.dataset.gamePoints)")]
    assert sum(points) == 0
    print("moves", dict(done))
