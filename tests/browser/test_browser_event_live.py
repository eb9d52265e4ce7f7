"""The organiser's live page in Chromium (docs/tournaments.md "The live
page"): an organiser creates a club and a 升级 event of two bot pairs, three
hands a round, pairs round 1 and starts it, then only watches the event page:
the table's "hands done" changes from 0 to at least 1 while the table is still
playing (before its result),
pushed over ws/events/<id>/, and the page is never reloaded (a marker set on
the window after the start survives).  Without clubs/live/receivers.py the count only
changed when the whole table finished (the test then times out)."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .test_browser_event import click_live, organiser_event

pytestmark = pytest.mark.browser


def test_hands_done_is_pushed_while_the_round_runs(site_server, browser):
    page, _ = organiser_event(site_server, browser, "live", bots=2, rounds=1, hands=3, bot_delay_ms=50)
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
