"""Every card's corner index readable, and icons that need no emoji font
(docs/table.md, "Session 18").

- A strip of small faces (``.mini``: the 升級 result's kitty, the replay's
  kitty, 比牌 lines, seat cards and text) covers each card but for a strip
  as wide as its index: a 10's corner read "1" at 375 px.  Checked at a phone
  and a desktop size: the right end of each card's index is the card itself
  (``elementFromPoint``), not the next card over it.  A kitty holds eight
  random cards; when the deal left no 10 in it, the test writes one card as
  the template writes a 10 (``card_label``: "♥10"), the widest index.
- The hand's controls on a phone held upright: the action buttons 44 px tall,
  the tool row's 38 px (the row's height).
- The turn bell of the hand's tool row and the arena's streak mark are inline
  SVG (🔔 and 🔥 were empty boxes without an emoji font), with a non-zero
  size and an accessible name in the reader's language.
"""

from __future__ import annotations

from types import SimpleNamespace as NS

import pytest

from .conftest import SHOTS
from .helpers import PHONE, bot_table, open_page

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}

#: The cards under ``root`` whose index's right end is covered by another
#: element (each scrolled into view first): ``[code, text, what covers it]``.
COVERED = """(root) => {
  const bad = [];
  for (const e of document.querySelectorAll(root + ' .mini')) {
    if (!e.getClientRects().length || !e.textContent.trim()) continue;
    e.scrollIntoView({block: 'center'});
    const range = document.createRange(); range.selectNodeContents(e);
    const t = range.getBoundingClientRect();
    const x = e.classList.contains('joker') ? t.left + t.width / 2 : t.right - 1.5;
    const hit = document.elementFromPoint(x, t.top + t.height / 2);
    const card = hit && hit.closest('.mini');
    if (card !== e) bad.push([e.dataset.card || e.dataset.c, e.textContent,
                             hit ? (hit.className || hit.tagName) + ' ' + (hit.textContent || '').slice(0, 8) : null]);
  }
  return bad;
}"""

#: A 10 in the kitty when the deal put none there: the first card written as
#: the template writes a 10 of hearts.
TEN_IN_KITTY = """(sel) => {
  const cards = [...document.querySelectorAll(sel + ' .mini')];
  if (cards.some(c => (c.dataset.card || '').startsWith('T'))) return false;
  const c = cards[0];
  c.dataset.card = 'TH'; if (c.dataset.c) c.dataset.c = 'TH';
  c.className = 'mini red'; c.textContent = '\u266510';
  return true;
}"""


@pytest.fixture(scope="module")
def played_hand(site_server):
    """One completed 升級 hand (played out by bots), its closed room and its human."""
    done = site_server.ops("finished_hands", count=1, game="shengji", prefix="ix", review=False, timeout=300)
    return {"hand": done["hands"][0], "room": done["rooms"][0], "cookie": done["cookies"][0]}


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["375", "1280"])
def test_result_kitty_every_index_shows(site_server, browser, played_hand, size):
    base = site_server.web_url
    ctx, page = open_page(browser, base, played_hand["cookie"], size)
    try:
        page.goto(f"{base}/rooms/{played_hand['room']}/")
        page.wait_for_selector("#result-panel .sj-kitty [data-card]")
        page.evaluate(TEN_IN_KITTY, "#result-panel .sj-kitty")
        assert page.locator("#result-panel .sj-kitty .mini").count() == 8
        assert page.evaluate(COVERED, "#result-panel .sj-kitty") == []
        # a mini in a line of text still holds its widest index
        widths = page.locator("#result-panel .sj-kitty .mini").evaluate_all(
            "els => els.map(e => { const r = document.createRange(); r.selectNodeContents(e);"
            " return [e.getBoundingClientRect().right - r.getBoundingClientRect().right]; })")
        assert all(w[0] >= 0 for w in widths), widths
        page.locator("#result-panel .sj-kitty").screenshot(path=str(SHOTS / f"kitty-{size['width']}.png"))
    finally:
        ctx.close()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["375", "1280"])
def test_replay_strips_every_index_shows(site_server, browser, played_hand, size):
    """The deal (every seat's cards as stacks, the text version opened), the
    auction's 比牌 lines, and the last step (the buried kitty)."""
    base = site_server.web_url
    ctx, page = open_page(browser, base, played_hand["cookie"], size)
    try:
        page.goto(f"{base}/hands/{played_hand['hand']}/replay/?step=0")
        page.wait_for_selector('[data-region="seat-cards"] .mini')
        tens = page.locator('[data-region="seat-cards"] .mini[data-card^="T"]').count()
        assert tens >= 4  # 2 decks: the deal holds 10s, the widest index
        page.evaluate("() => { document.querySelector('#replay-text').open = true; }")
        assert page.evaluate(COVERED, '[data-region="seat-cards"]') == []
        assert page.evaluate(COVERED, "#replay-text") == []
        for step in (4, 8):  # the auction: piles of 比牌 in lines of text
            page.goto(f"{base}/hands/{played_hand['hand']}/replay/?step={step}")
            assert page.evaluate(COVERED, "#sj-replay-public") == []
            assert page.evaluate(COVERED, "#replay-said") == []
        last = page.locator("a[href*='step=']").evaluate_all(
            "els => Math.max(...els.map(a => parseInt(new URL(a.href).searchParams.get('step'), 10) || 0))")
        page.goto(f"{base}/hands/{played_hand['hand']}/replay/?step={last}")
        page.wait_for_selector("#replay-kitty .mini")
        page.evaluate(TEN_IN_KITTY, "#replay-kitty")
        assert page.evaluate(COVERED, "#replay-kitty") == []
    finally:
        ctx.close()


def test_turn_bell_is_an_svg_with_a_name(site_server, browser):
    # Not on autoplay: a live push swapping the hand's region between finding
    # the bell and measuring it gave no box once in CI (stop 40).
    with bot_table(site_server, browser, "shengji", PHONE, prefix="bell", autoplay=False,
                   bot_delay_ms=400, turn_seconds=60) as page:
        page.wait_for_selector("#hand-tools .sound-toggle svg.bell", timeout=60_000)
        bell = page.locator("#hand-tools .sound-toggle svg.bell")
        box = bell.bounding_box()
        assert box and box["width"] >= 12 and box["height"] >= 12, box
        assert "\U0001F514" not in page.locator("#hand-tools .sound-toggle").text_content()
        assert page.get_by_role("checkbox", name="轮到我时响铃").count() == 1


#: Heights (px) of the visible controls matching a selector.
HEIGHTS = """(sel) => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length)
    .map(e => [e.textContent.trim().slice(0, 12), Math.round(e.getBoundingClientRect().height)])"""


def test_hand_controls_are_44px_touch_targets(site_server, browser):
    """A phone held upright: the action buttons are at least 44 px tall, the
    hand's tool row's controls (sort menu, clear, the bell's box with its
    words) as tall as the row, 38 px."""
    with bot_table(site_server, browser, "shengji", PHONE, prefix="tap", autoplay=False,
                   bot_delay_ms=300, turn_seconds=120) as page:
        page.wait_for_selector("#hand-tools .sound-toggle", timeout=60_000)
        tools = page.evaluate(HEIGHTS, "#hand-tools select, #hand-tools button, #hand-tools .sound-toggle")
        assert len(tools) == 3 and all(h >= 38 for _, h in tools), tools
        page.wait_for_selector('[data-region="actions"] button', state="visible", timeout=90_000)
        buttons = page.evaluate(HEIGHTS, '[data-region="actions"] button')
        assert buttons and all(h >= 44 for _, h in buttons), buttons


@pytest.mark.parametrize("language,name", [("zh-hans", "连胜：积分翻倍"), ("en", "On a streak: points doubled")])
def test_arena_streak_mark_is_an_svg_with_a_name(site_server, browser, language, name):
    """The arena board's row of a player on a streak, rendered from its template
    in the reader's language and laid into a page of the site (its CSS)."""
    from django.contrib.auth.models import AnonymousUser
    from django.template.loader import render_to_string
    from django.utils import translation

    row = NS(rank=1, player=NS(pk=1, shown_name="甲", team=None, state="playing"), points=8, hands=3,
             fire=True, marks=["W", "F"])
    with translation.override(language):
        html = render_to_string("clubs/_arena_live.html", {
            "event": NS(pk=1, status="finished"), "over": True, "board": [row],
            "user": AnonymousUser(), "arena": NS()})
    assert "\U0001F525" not in html
    ctx, page = open_page(browser, site_server.web_url, "", PHONE, language=language)
    try:
        page.goto(site_server.web_url + "/help/")
        page.evaluate("html => { document.querySelector('main').innerHTML = html; }", html)
        mark = page.get_by_role("img", name=name)
        assert mark.count() == 1
        box = mark.bounding_box()
        assert box and box["width"] >= 10 and box["height"] >= 10, box
    finally:
        ctx.close()
