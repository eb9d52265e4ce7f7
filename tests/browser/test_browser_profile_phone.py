"""The profile's tables on a phone, in headless Chromium (session 36).

A player with a finished 保皇 hand (a bot room, the hand autoplayed) opens his
profile at 360 and 375 px in zh-hans, zh-hant and English: no table is wider
than its box (before, in English the review accuracy's sparkline column, the
recent matches' dates and the ladder history's "After" column lay past the
right edge, cut off: 12/01/2026 dates, "Points change", five columns with
0.55rem gutters). Times say how long ago ("3 hours ago", humanize), the full
time in the tooltip.

Review pass: no word but a room name is broken inside ("21 second|s ago",
"Baohua|ng" when the whole cell could break anywhere), and the profile and
the leaderboard pass axe's contrast rule in the dark theme too (the ladder's
"you are here" rung was light text on accounts.css's light yellow, which
won over design.css's dark token by loading later)."""

from __future__ import annotations

import time

import pytest

from .helpers import assert_no_contrast_failures, contrast_failures, open_page

pytestmark = pytest.mark.browser

OVERFLOW = """() => [...document.querySelectorAll('.table-wrap, .scroll-x')]
  .filter(w => w.getClientRects().length && w.scrollWidth > w.clientWidth)
  .map(w => [w.querySelector('table')?.id || w.querySelector('table')?.dataset.testid, w.scrollWidth, w.clientWidth])"""

# words of the profile's tables drawn over two lines (a Range over one word
# with two client rects): every Latin word and every <time>'s words ("3秒之前"
# too: Chinese may break between any two characters, a time may not), room
# names (free to break) left out
BROKEN_WORDS = """() => {
  const out = [];
  for (const td of document.querySelectorAll('.history td')) {
    if (!td.getClientRects().length) continue;
    const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement.closest('.room-name')) continue;
      for (const m of n.data.matchAll(/\\S+/g)) {
        const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        if (!/[A-Za-z]/.test(m[0]) && !n.parentElement.closest('time')) continue;
        const lines = new Set([...r.getClientRects()].map(q => Math.round(q.top)));
        if (lines.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}"""


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
        assert page.evaluate(BROKEN_WORDS) == []
    finally:
        ctx.close()


@pytest.mark.parametrize("scheme", ("light", "dark"))
def test_profile_and_leaderboard_read_in_both_themes(site_server, browser, player, scheme):
    """axe's color-contrast rule finds nothing on the profile (every section
    open, the ladder's current rung among them) and the leaderboard, at 375
    px, light and dark; the current rung's background is the theme's own."""
    base = site_server.web_url
    ctx, page = open_page(browser, base, player["cookie"], {"width": 375, "height": 812}, color_scheme=scheme)
    try:
        page.goto(f"{base}/accounts/profile/")
        page.locator("main details").evaluate_all("ds => ds.forEach(d => d.open = true)")
        rung = page.locator(".ladder li.current").first
        bg = rung.evaluate("e => getComputedStyle(e).backgroundColor")
        body = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        channels = [int(c) for c in bg[bg.index("(") + 1:bg.index(")")].split(",")[:3]]
        assert (sum(channels) < 3 * 128) == (scheme == "dark"), (scheme, bg, body)
        failures = {"profile": contrast_failures(page)}
        page.goto(f"{base}/ratings/baohuang/")
        failures["leaderboard"] = contrast_failures(page)
    finally:
        ctx.close()
    assert_no_contrast_failures(failures)
