"""The timer's pill on a seat of an 812 × 375 phone (session 25): the
seat's second line holds its count and the pill ("41 cards" and a 2.1rem
pill after a .35rem gap made 98 px of a 升級 seat's 95 px in English, and
"39 张" and the pill 74 px of a 保皇 seat's 66 px: the pill went onto a
third line); the pill is now as wide as its text, at least 1.6rem, after
a .25rem gap, so the seat keeps its two lines, nothing cut off."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import bot_table

pytestmark = pytest.mark.browser

LANDSCAPE = {"width": 812, "height": 375}

#: The first seat of the others that shows the timer: its count's
#: and pill's boxes, its second line's, and the texts that do not fit their boxes.
TIMED_SEAT = """() => {
  const me = document.querySelector('#table').dataset.mySeat;
  const seat = [...document.querySelectorAll('.seats .seat')].find(s => s.dataset.seat !== me && s.querySelector('.seat-timer'));
  if (!seat) return null;
  const R = e => { const b = e.getBoundingClientRect(); return {top: b.top, bottom: b.bottom, left: b.left, right: b.right, width: b.width}; };
  const cut = [...seat.querySelectorAll('.seat-name > *, .seat-info > *')]
    .filter(e => e.getClientRects().length && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).display !== 'inline')
    .map(e => e.textContent.trim());
  return {seat: seat.dataset.seat, count: R(seat.querySelector('.count')),
          timer: R(seat.querySelector('.seat-timer')), info: R(seat.querySelector('.seat-info')),
          box: R(seat), cut: cut, overflow: seat.scrollWidth > seat.clientWidth + 1,
          lh: parseFloat(getComputedStyle(seat).lineHeight), text: seat.textContent.replace(/\\s+/g, ' ').trim()};
}"""


@pytest.mark.parametrize("game,language", [("shengji", "en"), ("baohuang", "zh-hans")])
def test_the_timer_shares_the_count_line(site_server, browser, game, language):
    with bot_table(site_server, browser, game, LANDSCAPE, prefix=f"tm{game[:2]}{language[:2]}", autoplay=True,
                   bot_delay_ms=1500, turn_seconds=60, language=language) as page:
        # a play on the felt, then a seat of the others to act (its pill shown)
        page.wait_for_selector("#felt .played", timeout=180_000)
        # waited for and read in one synchronous call: the seat's turn (and its
        # pill) can pass to the viewer's own seat between a wait and a reading
        s = page.wait_for_function(TIMED_SEAT, timeout=120_000).json_value()
        page.screenshot(path=str(SHOTS / f"seat-timer-{game}-{language}-812x375.png"))
        assert s is not None
        t, c = s["timer"], s["count"]
        # the pill on the count's line (their boxes overlap vertically), not below it
        assert t["top"] < c["bottom"] and t["bottom"] > c["top"], s
        assert s["info"]["bottom"] - s["info"]["top"] < 1.5 * s["lh"] + 2, s  # one line
        # nothing cut: every part whole, inside its seat
        assert not s["cut"] and not s["overflow"], s
        assert t["right"] <= s["box"]["right"] and c["left"] >= s["box"]["left"], s
