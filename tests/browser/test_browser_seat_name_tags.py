"""A seat's name and its tags on a 375 × 812 phone (session 24): the name is
never broken around a tag ("机器人4" stood as "机器人" and "4" on two lines
with the 庄家 tag between them at 375 px); in Chinese the name and its role
tag (庄, 庄家, 闲) stand on one line; in English ("Dealer's side" is wider
than the room a seat leaves) a tag with no room goes whole under the name,
which stays whole on its line."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import bot_table

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 812}

#: Per seat of the others: the lines its name's text stands on (the tops of
#: its characters' boxes), and the tops of its tags' boxes with the name's.
SEATS = """() => [...document.querySelectorAll('.seat .seat-name')].map(box => {
  const name = box.querySelector('.name');
  if (!name) return null;
  const tops = new Set();
  const text = name.firstChild;
  for (let i = 0; text && i < text.textContent.length; i++) {
    const r = document.createRange(); r.setStart(text, i); r.setEnd(text, i + 1);
    const b = r.getBoundingClientRect(); if (b.width > 0) tops.add(Math.round(b.top));
  }
  const n = name.getBoundingClientRect(), seat = box.getBoundingClientRect();
  return {name: name.textContent, lines: tops.size, nameTop: n.top, nameBottom: n.bottom,
          seatWidth: seat.width, nameWidth: n.width,
          parts: [...box.children].filter(e => e.getClientRects().length).map(e => [e.className, Math.round(e.getBoundingClientRect().width)]),
          tags: [...box.querySelectorAll('.tag.role')].map(t => {
            const b = t.getBoundingClientRect();
            return {text: t.textContent, top: b.top, bottom: b.bottom, mid: (b.top + b.bottom) / 2};
          })};
}).filter(Boolean)"""


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_name_stays_whole_beside_its_role_tag(site_server, browser, language):
    with bot_table(site_server, browser, "shengji", PHONE, prefix=f"nt{language[:2]}", autoplay=True,
                   bot_delay_ms=300, turn_seconds=120, language=language) as page:
        # the auction over: every seat carries its role (庄 / 庄家 / 闲)
        page.wait_for_function("() => document.querySelectorAll('.seat .seat-name .tag.role').length >= 4",
                               timeout=180_000)
        seats = page.evaluate(SEATS)
        page.screenshot(path=str(SHOTS / f"seat-name-tags-{language}-375x812.png"))
        assert len(seats) == 4 and all(s["tags"] for s in seats), seats
        for s in seats:
            assert s["lines"] == 1, s  # the name in one piece
            for t in s["tags"]:
                if language == "zh-hans":
                    # beside the name, on its line
                    assert s["nameTop"] <= t["mid"] <= s["nameBottom"], str(s)
                else:
                    # beside it, or whole under it: never between its parts
                    assert s["nameTop"] <= t["mid"] <= s["nameBottom"] or t["top"] >= s["nameBottom"] - 1, s
