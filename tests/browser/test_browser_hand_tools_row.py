"""The hand's tool row (理牌's select, 清除选择, the turn sound's bell) is one
line that scrolls sideways without a scroll bar (cards.css: its height is
kept before the script inserts it, so the hand never shifts).  A control past
its right edge is there but out of sight, and nothing says it can be
scrolled to.  The select is as wide as its longest option, so on a board as
narrow as a phone's it is capped.

The cap used to follow the viewport's width (≤ 30rem), so on a tablet held
upright (768×1024) the felt between the two seat columns, about 325 px, kept
the full-width select: 清除选择 ("Clear selection") was cut and the bell was
out of sight.  The cap now follows the board's own width (a container
query), and every control of the row lies inside it at each size, phone to
desktop, in English (the longest words) and in Chinese, for both games."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import bot_table, wait_on_autoplay

pytestmark = pytest.mark.browser

SIZES = [{"width": 375, "height": 812}, {"width": 768, "height": 1024},
         {"width": 1024, "height": 768}, {"width": 1280, "height": 800}]

#: The row's box, how far it scrolls, and each control's right edge; null
#: until the script has put in its last control, the bell.
ROW = """() => {
  const row = document.querySelector('#hand-tools');
  if (!row || !row.querySelector('.sound-toggle')) return null;
  const box = row.getBoundingClientRect();
  const controls = [...row.querySelectorAll('select, button, .sound-toggle')].map(c => {
    const b = c.getBoundingClientRect();
    return {what: c.tagName.toLowerCase() + (c.className ? '.' + c.className : ''), left: b.left, right: b.right};
  });
  return {left: box.left, right: box.right, scroll: row.scrollWidth - row.clientWidth, controls};
}"""


@pytest.mark.parametrize("game", ["baohuang", "shengji"])
def test_every_control_of_the_hand_tools_row_is_in_sight(site_server, browser, game):
    with bot_table(site_server, browser, game, SIZES[0], prefix=f"ht{game[:2]}", autoplay=True,
                   bot_delay_ms=400, turn_seconds=60, language="en") as page:
        # the row goes with the hand (table_ui.js): between two hands of the
        # autoplayed table there is none until the next deal, and a room
        # that went back to waiting meanwhile deals again on 准备 (helpers)
        wait_on_autoplay(page, ROW, 120_000)
        problems = []
        for language in ("en", "zh-hans"):
            if language != "en":
                page.context.add_cookies([{"name": "django_language", "value": language,
                                           "url": site_server.web_url}])
                page.reload()
                wait_on_autoplay(page, ROW, 120_000)
            for size in SIZES:
                page.set_viewport_size(size)
                page.wait_for_timeout(250)
                row = wait_on_autoplay(page, ROW, 120_000)
                tag = f"{game} {size['width']}x{size['height']} {language}"
                assert row and len(row["controls"]) >= 3, f"{tag}: {row}"
                if row["scroll"] > 1:
                    problems.append(f"{tag}: the row scrolls by {row['scroll']} px")
                for c in row["controls"]:
                    if c["right"] > row["right"] + 0.5 or c["left"] < row["left"] - 0.5:
                        problems.append(f"{tag}: {c['what']} at {c['left']:.0f}-{c['right']:.0f} px "
                                        f"outside the row's {row['left']:.0f}-{row['right']:.0f}")
                page.screenshot(path=str(SHOTS / f"hand-tools-{game}-{size['width']}x{size['height']}-{language}.png"))
        assert not problems, "\n".join(problems)
