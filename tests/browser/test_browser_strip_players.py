"""A five-seat table of signed-up players on a phone, 375 × 812 and 812 × 375,
in 中文 and English: every seat of the strip (the others' seats) stands in
two lines, as a bot's does.  A player's seat carries his standing ("信誉 75",
moderation's seat note) and, on 托管, its tag; both stood on lines of their
own under the name, a seat of the strip four lines tall (65 px of a 14.4 px
line) where a bot's took two.  Now the first line holds the number, the name
and the timer's pill, the second the count, the role tags, the standing (its
figure) and 托管 (its short word, "托" / "A"), and what screen readers read keeps
every word ("信誉 75", "托管", the role)."""

from __future__ import annotations

import secrets

import pytest

from .conftest import SHOTS
from .helpers import crowned_room, open_page

pytestmark = pytest.mark.browser

SIZES = ({"width": 375, "height": 812}, {"width": 812, "height": 375})
WORDS = {"zh-hans": {"standing": "信誉 75", "autoplay": "托管", "roles": ("皇帝", "保皇")},
         "en": {"standing": "Rep 75", "autoplay": "Auto-play", "roles": ("Emperor", "Guard")}}

#: Each seat of the strip: its content box's height (its border box less its
#: paddings and borders) and its line height; null until the emperor's tag
#: and some seat's timer are in the strip (the longest seats: a role tag,
#: the pill).
STRIP = """() => {
  const table = document.querySelector('#table');
  if (!table) return null;
  const strip = [...document.querySelectorAll('.seats .seat')].filter(s => s.dataset.seat !== table.dataset.mySeat);
  if (!strip.some(s => s.querySelector('.tag.role.emperor')) || !strip.some(s => s.querySelector('.seat-timer'))) return null;
  return strip.map(s => {
    const cs = getComputedStyle(s), box = s.getBoundingClientRect();
    const px = k => parseFloat(cs[k]) || 0;
    return {seat: s.dataset.seat, height: box.height - px('paddingTop') - px('paddingBottom') - px('borderTopWidth') - px('borderBottomWidth'),
            lh: parseFloat(cs.lineHeight), role: !!s.querySelector('.tag.role'), text: s.textContent.replace(/\\s+/g, ' ').trim()};
  });
}"""


def test_a_players_seat_in_the_strip_keeps_two_lines(site_server, browser):
    base = site_server.web_url
    # the viewer: a seat other than the emperor's, so that his seat is in the strip
    room, emperor = crowned_room(site_server, browser, 5, SIZES[0], bot_delay_ms=900, turn_seconds=60,
                                 names=lambda: [f"p{secrets.token_hex(2)}" for _ in range(5)])  # as wide as "机器人3"
    viewer = (emperor + 1) % 5
    for size in SIZES:
        for language, words in WORDS.items():
            tag = f"{size['width']}x{size['height']}-{language}"
            ctx, page = open_page(browser, base, room["users"][viewer]["cookie"], size, language=language)
            try:
                page.goto(f"{base}/rooms/{room['room_id']}/")
                strip = page.wait_for_function(STRIP, timeout=120_000).json_value()
                page.screenshot(path=str(SHOTS / f"strip-players-{tag}.png"))
                assert len(strip) == 4 and any(s["role"] for s in strip), (tag, strip)
                for s in strip:
                    # two lines: the name's (14.4 px) and the tags' (the pill's
                    # 1.15rem, 18.4 px); a third line would add one more
                    assert s["height"] < 2.5 * s["lh"], (tag, s)
                # what a screen reader reads of each seat: every word kept
                for s in strip:
                    read = page.locator(f'.seats .seat[data-seat="{s["seat"]}"]').aria_snapshot()
                    assert words["standing"] in read and words["autoplay"] in read, (tag, read)
                    if s["role"]:
                        assert any(word in read for word in words["roles"]), (tag, read)
                # the strip's seats one height
                assert max(s["height"] for s in strip) - min(s["height"] for s in strip) < 1, (tag, strip)
            finally:
                ctx.close()
