"""The lobby on a phone, in headless Chromium (session 23).

A signed-in player at 360 × 640 and 320 × 568, in 中文 and English:

* every 立即开始 (Play now) button stands on one line (before, the game
  card's narrow right-hand column broke it into "立即开 / 始", "Play / now");
* the card's links stand in one row under its name and blurb, the button
  first;
* the first button is above the fold (before, the introduction pushed it to
  632 px, English 820 px, on a 640 px screen): the paragraph and the steps are
  folded under "这里怎么玩？", and a tap on it opens them.

A visitor still reads them open, under the sign-up line."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import TEXT_LINES, open_page

pytestmark = pytest.mark.browser

SIZES = ({"width": 360, "height": 640}, {"width": 320, "height": 568})
SUMMARY = {"zh-hans": "这里怎么玩？", "en": "How does it work?"}

#: Per game card, the distinct rows (tops of the middles, to 4 px) its links stand in.
LINK_ROWS = """els => els.map(e => new Set([...e.querySelectorAll('a, button, .muted')]
  .filter(x => x.getClientRects().length)
  .map(x => { const b = x.getBoundingClientRect(); return Math.round((b.top + b.bottom) / 8); })).size)"""


#: Per game card, the data-action (or text) of the leftmost of its links.
FIRST_IN_ROW = """els => els.map(e => [...e.querySelectorAll('a, button, .muted')]
  .filter(x => x.getClientRects().length)
  .sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left)
  .map(x => x.dataset.action || x.textContent.trim())[0])"""


@pytest.fixture(scope="module")
def player(site_server):
    """A signed-in player (a 12-character name, as people have)."""
    return site_server.ops("new_user", prefix="player")


@pytest.mark.parametrize("language", ("zh-hans", "en"))
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_play_now_is_one_line_above_the_fold(site_server, browser, player, size, language):
    base = site_server.web_url
    ctx, page = open_page(browser, base, player["cookie"], size, language=language)
    try:
        page.goto(base + "/")
        buttons = page.locator('[data-action="play-now"]')
        assert buttons.count() == 2
        word = "立即开始" if language == "zh-hans" else "Play now"
        for button in buttons.all():
            assert button.inner_text() == word
            assert button.evaluate(TEXT_LINES) == 1
        assert buttons.first.bounding_box()["y"] + buttons.first.bounding_box()["height"] <= size["height"]
        assert page.locator(".game-links").evaluate_all(LINK_ROWS) == [1, 1]
        # the button first: left of the other links of its row
        assert page.locator(".game-links").evaluate_all(FIRST_IN_ROW) == ["play-now", "play-now"]
        # the introduction keeps its heading and greeting; the rest is folded
        assert page.locator("#intro h1").is_visible() and page.locator("#intro .greeting").is_visible()
        steps = page.locator("#intro ol.how > li")
        assert steps.count() == 3 and not steps.first.is_visible()
        summary = page.locator("#intro .how-to > summary")
        assert summary.inner_text() == SUMMARY[language]
        page.screenshot(path=str(SHOTS / f"browser-lobby-phone-{size['width']}-{language}.png"))
        summary.tap()
        assert page.locator("#intro .how-to").evaluate("d => d.open")
        assert steps.first.is_visible() and steps.last.is_visible()
    finally:
        ctx.close()


@pytest.mark.parametrize("language", ("zh-hans", "en"))
def test_a_visitor_reads_the_steps_open(site_server, browser, language):
    base = site_server.web_url
    context = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True,
                                  locale="en-US" if language == "en" else "zh-CN")
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()
    try:
        page.goto(base + "/")
        assert page.locator("#intro .how-to").evaluate("d => d.open")
        assert page.locator("#intro ol.how > li").first.is_visible()
        assert page.locator("#intro .join a").count() == 2  # sign up, log in
        assert page.locator("#intro .greeting").count() == 0
        assert page.locator('[data-action="play-now"]').count() == 0
        assert page.evaluate("document.scrollingElement.scrollWidth <= document.documentElement.clientWidth")
    finally:
        context.close()
