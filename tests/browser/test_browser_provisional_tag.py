"""The 暂定 (Provisional) tag of a provisional rating, in headless Chromium on
phones (session 21).

* The table's result note: "+134 暂定" keeps its tag on the number's line
  whatever the player's name does to the line: the name's length is varied
  in the page from 1 to 30 characters at 320, 360 and 375 px, and the tag is
  never the first thing of a line of its own (before, a plain space between
  the number and the tag let it wrap alone).
* The leaderboard and the profile say it in the same word after the rating
  (they showed "?" with a tooltip before), on the rating's line."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import open_page

pytestmark = pytest.mark.browser

WIDTHS = (320, 360, 375)

#: Lengths of the name for which the tag does not sit on the value's line.
APART = """(seat) => {
  const s = document.querySelector(`#result-panel [data-note="rating"] [data-note-seat="${seat}"]`);
  const value = s.querySelector('[data-note-value]'), mark = s.querySelector('[data-note-mark]');
  const name = [...s.childNodes].find(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
  const apart = [];
  for (let n = 1; n <= 30; n++) {
    name.textContent = '玩'.repeat(n) + ' ';
    const v = value.getBoundingClientRect(), m = mark.getBoundingClientRect();
    if (Math.abs((m.top + m.bottom) / 2 - (v.top + v.bottom) / 2) > v.height / 2) apart.push(n);
  }
  return apart;
}"""


@pytest.fixture(scope="module")
def rated(site_server):
    """One 升级 hand played out; its human (a provisional rating) and room."""
    made = site_server.ops("finished_hands", count=1, game="shengji", prefix="pv", review=False)
    return made["rooms"][0], made["cookies"][0]


@pytest.mark.parametrize("width", WIDTHS)
def test_the_result_notes_tag_stays_with_its_number(site_server, browser, rated, width):
    room_id, cookie = rated
    base = site_server.web_url
    ctx, page = open_page(browser, base, cookie, {"width": width, "height": 740})
    try:
        page.goto(f"{base}/rooms/{room_id}/")
        seat = page.locator("#table").get_attribute("data-my-seat")
        mark = page.locator(f'#result-panel [data-note="rating"] [data-note-seat="{seat}"] [data-note-mark]')
        assert mark.inner_text() == "暂定"
        assert page.evaluate(APART, seat) == []
        if width == 360:
            mark.scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / "browser-provisional-result-360.png"))
    finally:
        ctx.close()


@pytest.mark.parametrize("where", ("leaderboard", "profile"))
def test_the_leaderboard_and_profile_say_provisional_in_a_word(site_server, browser, rated, where):
    base = site_server.web_url
    ctx, page = open_page(browser, base, rated[1], {"width": 360, "height": 740})
    try:
        if where == "leaderboard":
            page.goto(f"{base}/ratings/shengji/")
            rating = page.locator("tr.me [data-rating]")
        else:
            page.goto(f"{base}/accounts/profile/")
            rating = page.locator('[data-rating-game="shengji"] [data-testid="rating-shengji"]').locator("..")
        tag = rating.locator("[data-provisional]")
        assert tag.inner_text() == "暂定"
        assert "?" not in rating.inner_text()
        if where == "profile":  # on the rating's line
            box, number = tag.bounding_box(), rating.bounding_box()
            assert box["y"] < number["y"] + number["height"] / 2 + 4
        # the leaderboard's column may put it under the number, but the page never scrolls sideways
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(SHOTS / f"browser-provisional-{where}-360.png"), full_page=True)
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": base}])
        page.reload()
        assert tag.inner_text() == "Provisional"
    finally:
        ctx.close()
