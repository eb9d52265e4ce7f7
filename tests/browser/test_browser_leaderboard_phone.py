"""The leaderboard on a phone, in headless Chromium (session 23).

A board with every title of the 升级 ladder (``ladder_board`` op: one rated
player per row, a 30-character and an 11-character name), read by the
30-character player at 320, 360 and 375 px in zh-hans, zh-hant and English:

* the page never scrolls sideways, nor does the table's box (before, the
  30-character name pushed the table 270-480 px past the screen);
* each title stands under the player's name, not in a sixth column, and no
  title is cut inside a word (before, 幼儿班 stood one character a line);
  the ladder's longest title in the language is among them;
* a number's header wraps between its words, never inside one;
* the 11-character name stays on one line (a name breaks inside only when it
  is wider than its column: the 30-character one does).

At 1280 px the title keeps its column."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import BROKEN_WORDS, TEXT_LINES, open_page

pytestmark = pytest.mark.browser

WIDTHS = (320, 360, 375)
LANGUAGES = ("zh-hans", "zh-hant", "en")

#: The rendered titles' texts.
SHOWN_TITLES = """() => [...document.querySelectorAll('table.leaderboard [data-title]')]
  .filter(e => e.getClientRects().length).map(e => e.textContent.trim())"""

#: Words cut across two lines in the rendered titles and headers.
CUT = f"""() => [...document.querySelectorAll('table.leaderboard [data-title], table.leaderboard th')]
  .filter(e => e.getClientRects().length).flatMap(e => ({BROKEN_WORDS})(e))"""


@pytest.fixture(scope="module")
def board(site_server):
    return site_server.ops("ladder_board", game="shengji", prefix="lp")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width", WIDTHS)
def test_a_phone_puts_the_title_under_the_name(site_server, browser, board, width, language):
    base = site_server.web_url
    ctx, page = open_page(browser, base, board["cookie"], {"width": width, "height": 740}, language=language)
    try:
        page.goto(f"{base}/ratings/shengji/")
        assert page.evaluate("document.scrollingElement.scrollWidth") <= width
        assert page.locator(".table-wrap").evaluate("w => w.scrollWidth <= w.clientWidth")
        # five columns: the title is under the name
        assert not page.locator("table.leaderboard th.title-col").is_visible()
        assert page.locator("table.leaderboard thead th:visible").count() == 5
        titles = page.evaluate(SHOWN_TITLES)
        assert len(titles) == 20 and board["longest"][language] in titles
        me = page.locator(f'tr[data-user="{board["long_name"]}"]')
        name, title = me.locator("td.name a"), me.locator("td.name [data-title]")
        assert title.bounding_box()["y"] >= name.bounding_box()["y"] + name.bounding_box()["height"] - 1
        assert page.evaluate(CUT) == []
        assert page.locator(f'tr[data-user="{board["eleven"]}"] td.name a').evaluate(TEXT_LINES) == 1
        if width == 320:
            page.screenshot(path=str(SHOTS / f"browser-leaderboard-phone-{width}-{language}.png"), full_page=True)
    finally:
        ctx.close()


def test_a_wide_screen_keeps_the_title_column(site_server, browser, board):
    base = site_server.web_url
    ctx, page = open_page(browser, base, board["cookie"], {"width": 1280, "height": 800})
    try:
        page.goto(f"{base}/ratings/shengji/")
        head = page.locator("table.leaderboard th.title-col")
        assert head.is_visible() and head.inner_text() == "称号"
        assert page.locator("table.leaderboard thead th:visible").count() == 6
        assert page.locator("table.leaderboard td.name [data-title]:visible").count() == 0
        assert page.locator("table.leaderboard td.title-col:visible").count() == 20
        assert board["longest"]["zh-hans"] in page.evaluate(SHOWN_TITLES)
        assert page.evaluate(CUT) == []
    finally:
        ctx.close()
