"""升級's info row on a 375 × 812 phone in English (session 24, part 2): at
the auction's start (no trumps, no dealer yet) the row's four chips (Match
1 · hand 1, Level 2, Trumps —, Dealer —) stand on one line (the Dealer chip
went alone onto a second line); then and once the dealer is known each
chip, and each team's level, keeps one line of its own, the row wrapping
between chips, every chip inside its row."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import bot_table

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 812}

#: Per chip of the info row and the teams' levels: its text, the lines its
#: glyphs stand on (each text node's characters' tops), whether it lies
#: inside its row.
CHIPS = """() => [...document.querySelectorAll('#sj-info > .sj-chip, #sj-levels > .sj-team')].map(chip => {
  const tops = new Set();
  const walk = document.createTreeWalker(chip, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    for (let i = 0; i < t.textContent.length; i++) {
      if (!t.textContent[i].trim()) continue;
      const r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + 1);
      const b = r.getBoundingClientRect(); if (b.width > 0) tops.add(Math.round(b.top + b.height / 2));
    }
  }
  const c = chip.getBoundingClientRect(), row = chip.parentElement.getBoundingClientRect();
  return {text: chip.textContent.replace(/\\s+/g, ' ').trim(), top: Math.round(c.top), info: chip.classList.contains('sj-chip'), lines: new Set([...tops].map(t => Math.round(t / 6))).size,
          inside: c.left >= row.left - 1 && c.right <= row.right + 1};
})"""


def _check(chips):
    assert chips, chips
    for c in chips:
        assert c["lines"] == 1, chips  # one line each
        assert c["inside"], chips


def test_each_info_chip_keeps_one_line(site_server, browser):
    with bot_table(site_server, browser, "shengji", PHONE, prefix="sjinfo", autoplay=True,
                   bot_delay_ms=400, turn_seconds=120, language="en") as page:
        page.wait_for_selector("#sj-dealer")
        early = page.evaluate(CHIPS)
        page.screenshot(path=str(SHOTS / "shengji-info-row-en-375x812-auction.png"))
        # the dealer known: each team's level with its role
        page.wait_for_function("() => !document.querySelector('#sj-dealer').textContent.includes('—')",
                               timeout=180_000)
        late = page.evaluate(CHIPS)
        page.screenshot(path=str(SHOTS / "shengji-info-row-en-375x812.png"))
        assert any(c["text"] == "Dealer —" for c in early), early
        assert len({c["top"] for c in early if c["info"]}) == 1, early  # the info row one line
        _check(early)
        _check(late)
