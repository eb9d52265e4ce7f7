"""A seat's name and its tags on a phone, 375 × 812 and 812 × 375 (session 24): the name is
never broken around a tag ("机器人4" stood as "机器人" and "4" on two lines
with the 庄家 tag between them at 375 px); the name and its role tag (庄,
庄家, 闲) stand on one line, in English too (part 2: "Dealer's side" and
"Attacking" went whole under the name, a seat three lines tall; under the
context "seat tag" they are Dealer, Partner, Attack (session 25: the
dealer's partner had been "Ally"); a phone seat's tag is narrower), so the
name's line holds them and the count has the second."""

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
  const lh = parseFloat(getComputedStyle(box.closest('.seat')).lineHeight);
  return {name: name.textContent, lines: tops.size,
          boxLines: Math.round(box.getBoundingClientRect().height / lh), nameTop: n.top, nameBottom: n.bottom,
          seatWidth: seat.width, nameWidth: n.width,
          parts: [...box.children].filter(e => e.getClientRects().length).map(e => [e.className, Math.round(e.getBoundingClientRect().width)]),
          tags: [...box.querySelectorAll('.tag.role')].map(t => {
            const b = t.getBoundingClientRect();
            return {text: t.textContent, top: b.top, bottom: b.bottom, mid: (b.top + b.bottom) / 2};
          })};
}).filter(Boolean)"""


@pytest.mark.parametrize("size", [PHONE, {"width": 812, "height": 375}])
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_name_stays_whole_beside_its_role_tag(site_server, browser, language, size):
    tag = f"{size['width']}x{size['height']}"
    with bot_table(site_server, browser, "shengji", size, prefix=f"nt{language[:2]}{size['width']}", autoplay=True,
                   bot_delay_ms=300, turn_seconds=120, language=language) as page:
        # the auction over: every seat carries its role (庄 / 庄家 / 闲)
        page.wait_for_function("() => document.querySelectorAll('.seat .seat-name .tag.role').length >= 4",
                               timeout=180_000)
        seats = page.evaluate(SEATS)
        page.screenshot(path=str(SHOTS / f"seat-name-tags-{language}-{tag}.png"))
        assert len(seats) == 4 and all(s["tags"] for s in seats), seats
        if language == "en":
            assert {t["text"] for s in seats for t in s["tags"]} <= {"Dealer", "Partner", "Attack"}, seats
        for s in seats:
            assert s["lines"] == 1, s  # the name in one piece
            assert s["boxLines"] == 1, s  # the name's line holds its tags: the seat's first of two
            for t in s["tags"]:
                # beside the name, on its line
                assert s["nameTop"] <= t["mid"] <= s["nameBottom"], str(s)
