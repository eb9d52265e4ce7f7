"""A new player's first minute at the table on a phone held upright
(360 × 640, the smallest common screen), both games: what tells the player
what is going on stays on screen where the page has scrolled to.

* On the viewer's turn the page scrolls to the buttons' row (table_ui.js);
  the status line ("轮到你了 · 比牌" and its countdown) then stays at the
  screen's top, wholly on screen, covering neither the hand nor the buttons
  (升級's auction had it at -8 px, half above the screen).
* After a timeout the seat is on 托管; the page is still scrolled down to
  the hand: the 托管 notice and its 接管 stay at the screen's top, and a tap
  on 接管 lands on it (it lay 120 px above the screen).
* At 1280 × 800 neither sticks: a desktop is laid out as before.
* 升級's trump order ("主牌：♠A ♥5 … ♥Q …") breaks between its entries,
  never inside one, at every width of a phone held upright (its
  ``word-break: break-all`` cut "♥Q" into "♥" and "Q" at 375 px), in
  Chinese and in English ("Big Joker", "2 (side suits)").
"""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import BROKEN_WORDS, bot_table

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 800}
GAMES = ["shengji", "baohuang"]

#: ``sel => {top, bottom, left, right, hit}``: an element's box in the
#: viewport and whether a tap at its centre lands inside it; null when absent.
BOX = """sel => {
  const e = document.querySelector(sel);
  if (!e || !e.getClientRects().length) return null;
  const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, hit: !!(hit && e.contains(hit)),
          position: getComputedStyle(e).position};
}"""


def _box(page, sel: str) -> dict | None:
    return page.evaluate(BOX, sel)


def _on_screen(box: dict) -> bool:
    return box["top"] >= 0 and box["bottom"] <= PHONE["height"] and box["left"] >= 0 and box["right"] <= PHONE["width"]


@pytest.mark.parametrize("game", GAMES)
def test_the_status_line_stays_on_screen_on_the_viewers_turn(site_server, browser, game):
    with bot_table(site_server, browser, game, PHONE, prefix=f"fm{game[:2]}t", autoplay=False,
                   bot_delay_ms=300, turn_seconds=120) as page:
        page.wait_for_selector("#table[data-my-turn='1'] [data-region='actions'] button[hx-post]", timeout=120_000)
        page.wait_for_timeout(300)  # the page's own scroll to the buttons (afterSwap)
        page.screenshot(path=str(SHOTS / f"first-minute-turn-{game}-360x640.png"))
        status, countdown = _box(page, "#status-line"), _box(page, "#status-line .countdown")
        actions, hand = _box(page, "[data-region='actions']"), _box(page, "#my-hand")
        scrolled = page.evaluate("() => scrollY")
        figures = dict(scrolled=scrolled, status=status, actions=actions, hand=hand)
        assert actions["bottom"] <= PHONE["height"], figures  # the buttons on screen (session 20)
        assert _on_screen(status), figures
        assert status["hit"], figures  # nothing lies over it
        assert countdown and _on_screen(countdown), figures
        assert "轮到你了" in page.locator("#status-line p").inner_text()
        # it covers neither the hand nor the buttons
        assert status["bottom"] <= hand["top"] and status["bottom"] <= actions["top"], figures


@pytest.mark.parametrize("game", GAMES)
def test_the_autoplay_notice_stays_on_screen_scrolled_to_the_hand(site_server, browser, game):
    with bot_table(site_server, browser, game, PHONE, prefix=f"fm{game[:2]}a", autoplay=True,
                   bot_delay_ms=300, turn_seconds=120) as page:
        page.wait_for_selector("#autoplay-notice")
        page.wait_for_selector("#my-hand[data-rows]")
        # where the page stood on the viewer's turn: scrolled down to the hand
        page.evaluate("() => window.scrollBy(0, document.querySelector('#my-hand').getBoundingClientRect().top - 40)")
        page.wait_for_timeout(200)
        page.screenshot(path=str(SHOTS / f"first-minute-autoplay-{game}-360x640.png"))
        scrolled = page.evaluate("() => scrollY")
        notice, button = _box(page, "#autoplay-notice"), _box(page, "#autoplay-notice [data-action='autoplay-off']")
        figures = dict(scrolled=scrolled, notice=notice, button=button)
        assert scrolled > 100, figures  # the page did scroll past the table's top
        assert _on_screen(notice), figures
        assert button["hit"] and button["bottom"] - button["top"] >= 44, figures
        page.locator("#autoplay-notice [data-action='autoplay-off']").click()
        page.wait_for_selector("#autoplay-notice", state="detached")
        assert page.locator("[data-action='autoplay-on']").count() == 1


@pytest.mark.parametrize("game", GAMES)
def test_nothing_sticks_on_a_desktop(site_server, browser, game):
    with bot_table(site_server, browser, game, DESKTOP, prefix=f"fm{game[:2]}d", autoplay=True,
                   bot_delay_ms=300, turn_seconds=120) as page:
        page.wait_for_selector("#autoplay-notice")
        page.wait_for_selector("#status-line")
        assert _box(page, "#autoplay-notice")["position"] == "static"
        page.locator("#autoplay-notice [data-action='autoplay-off']").click()
        page.wait_for_selector("#table[data-my-turn='1'] [data-region='actions'] button[hx-post]", timeout=120_000)
        assert _box(page, "#status-line")["position"] == "static"


#: ``el => [entry, …]``: the entries of the trump order (the text between
#: the label's colon and the "?", split at single spaces of the markup's
#: joins, i.e. each entry's own text) cut across two lines.
CUT_ENTRIES = """el => {
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const chars = [];
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    if (t.parentElement.closest('a')) continue;
    for (let i = 0; i < t.textContent.length; i++) chars.push([t, i]);
  }
  const text = chars.map(([t, i]) => t.textContent[i]).join('');
  const start = Math.max(text.indexOf('：'), text.indexOf(':')) + 1;
  const out = [];
  let from = start;
  for (const entry of text.slice(start).split(/ (?![(（]|Joker)/)) {
    const tops = new Set();
    for (let k = from; k < from + entry.length; k++) {
      const [t, i] = chars[k];
      if (!t.textContent[i].trim()) continue;
      const r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + 1);
      const b = r.getBoundingClientRect(); if (b.width > 0) tops.add(Math.round(b.top));
    }
    if (tops.size > 1) out.push(entry.trim());
    from += entry.length + 1;
  }
  return out;
}"""


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_trump_order_breaks_between_its_entries(site_server, browser, language):
    with bot_table(site_server, browser, "shengji", {"width": 375, "height": 812}, prefix=f"fmo{language[:2]}",
                   autoplay=True, bot_delay_ms=300, turn_seconds=120, language=language) as page:
        page.wait_for_selector("#sj-order", timeout=120_000)
        cut = {}
        for width in range(320, 431, 3):
            page.set_viewport_size({"width": width, "height": 812})
            order = page.locator("#sj-order")
            found = order.evaluate(CUT_ENTRIES) + order.evaluate(BROKEN_WORDS)
            if found:
                cut[width] = sorted(set(found))
        assert not cut, (f"{len(cut)} of 37 widths", cut)
