"""The organiser's live page in Chromium (docs/tournaments.md "The live
page"): an organiser creates a club and a 升级 event of two bot pairs, three
hands a round, pairs round 1 and starts it, then only watches the event page:
the table's "hands done" changes from 0 to at least 1 while the table is still
playing (before its result),
pushed over ws/events/<id>/, and the page is never reloaded (a marker set on
the window after the start survives).  Without clubs/live/receivers.py the count only
changed when the whole table finished (the test then times out)."""

from __future__ import annotations

import secrets

import pytest

from .conftest import SHOTS
from .test_browser_event import click_live, new_page, sign_up

pytestmark = pytest.mark.browser


def test_hands_done_is_pushed_while_the_round_runs(site_server, browser):
    base = site_server.web_url
    tag = secrets.token_hex(3)
    page = new_page(browser)
    sign_up(page, base, f"live{tag}")
    page.goto(base + "/clubs/")
    page.fill('#club-create input[name="name"]', f"直播{tag}")
    page.click('#club-create button[type="submit"]')
    page.wait_for_selector("#join-link")
    page.click("#new-event")
    page.fill("#id_name", "进度直播")
    page.select_option("#id_game", "shengji")
    page.fill("#id_rounds", "1")
    page.fill("#id_hands_per_round", "3")
    page.fill("#id_bot_delay_ms", "50")
    page.click('#event-form button[type="submit"]')
    page.wait_for_selector("#event-name")
    page.fill('#organiser-tools input[name="count"]', "2")
    page.click('#organiser-tools form[action$="/bots"] button[type="submit"]')
    page.wait_for_selector("#entries")
    page.click("#pair-round")
    page.wait_for_selector("#start-round")
    click_live(page, "#start-round")
    row = page.locator('#round-1 tr[data-table="1"]')
    row.wait_for(timeout=60_000)
    page.evaluate("window.__notReloaded = true")
    first = int(row.get_attribute("data-hands-done"))
    assert first < 3
    # the count and its words read in the same call as the wait: a push (one a
    # second while the table plays) can bring the next hand's count between
    # two separate readings, and then the words and the count disagree
    seen = page.wait_for_function(
        """(first) => {
            const row = document.querySelector('#round-1 tr[data-table="1"]');
            if (!(row && Number(row.dataset.handsDone) > first && !row.dataset.finished)) return null;
            const progress = row.querySelector('.progress');
            return {later: Number(row.dataset.handsDone), text: progress ? progress.innerText : ''};
        }""",
        arg=first, timeout=240_000,
    ).json_value()
    assert page.evaluate("window.__notReloaded === true")
    text, later = seen["text"], seen["later"]
    assert later > first and f"{later} 局完成" in text
    page.screenshot(path=str(SHOTS / "event-live-progress.png"), full_page=True)
