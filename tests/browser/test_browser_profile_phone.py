"""The profile's tables on a phone, in headless Chromium (session 36).

A player with a finished 保皇 hand (a bot room, the hand autoplayed) opens his
profile at 360 and 375 px in zh-hans, zh-hant and English: no table is wider
than its box (before, in English the review accuracy's sparkline column, the
recent matches' dates and the ladder history's "After" column lay past the
right edge, cut off: 12/01/2026 dates, "Points change", five columns with
0.55rem gutters). Times say how long ago ("3 hours ago", humanize), the full
time in the tooltip."""

from __future__ import annotations

import time

import pytest

from .helpers import open_page

pytestmark = pytest.mark.browser

OVERFLOW = """() => [...document.querySelectorAll('.table-wrap, .scroll-x')]
  .filter(w => w.getClientRects().length && w.scrollWidth > w.clientWidth)
  .map(w => [w.querySelector('table')?.id || w.querySelector('table')?.dataset.testid, w.scrollWidth, w.clientWidth])"""


@pytest.fixture(scope="module")
def player(site_server):
    room = site_server.ops("bot_room", game="baohuang", humans=1, autoplay=True, ready=True,
                           bot_delay_ms=20, turn_seconds=60, prefix="pp")
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        log = site_server.ops("hand_log", room_id=room["room_id"])
        if any(h["complete"] for h in log["hands"]):
            return room["users"][0]
        time.sleep(2)
    pytest.fail("no hand finished")


@pytest.mark.parametrize("language", ("zh-hans", "zh-hant", "en"))
@pytest.mark.parametrize("width", (360, 375))
def test_no_profile_table_runs_past_a_phone(site_server, browser, player, width, language):
    base = site_server.web_url
    ctx, page = open_page(browser, base, player["cookie"], {"width": width, "height": 740}, language=language)
    try:
        page.goto(f"{base}/accounts/profile/")
        page.locator("details").evaluate_all("ds => ds.forEach(d => d.open = true)")
        assert page.locator('table[data-testid="recent-matches"] time').count() >= 1
        assert page.locator('table[data-testid^="points-history-"] time').count() >= 1
        assert page.evaluate("document.scrollingElement.scrollWidth") <= width
        assert page.evaluate(OVERFLOW) == []
    finally:
        ctx.close()
