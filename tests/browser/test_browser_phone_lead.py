"""升級 on a 360 × 640 phone at a trick's start (session 21): the felt's box
that said "<name> 领出" is not shown (the status line above says whose lead
it is), so the hand does not move down by its height at each trick's start,
and on the viewer's lead 出牌 is not pushed below the fold; the status line
names the one to lead."""

from __future__ import annotations

import pytest

from .helpers import bot_table

pytestmark = pytest.mark.browser


def test_the_lead_line_gives_way_on_a_phone(site_server, browser):
    with bot_table(site_server, browser, "shengji", {"width": 360, "height": 640}, prefix="pl",
                   autoplay=True, bot_delay_ms=1500, turn_seconds=60) as page:
        # one reading at a trick's start (the line there, no play yet)
        seen = page.wait_for_function("""() => {
          const p = document.querySelector('#sj-trick p.muted');
          if (!p) return null;
          return {h: p.getBoundingClientRect().height, text: p.textContent.trim(),
                  status: document.querySelector('#status-line').textContent.replace(/\\s+/g, ' ').trim()};
        }""", timeout=180_000, polling=100).json_value()
        assert seen["text"].endswith("领出"), seen
        assert seen["h"] == 0, seen  # not shown
        assert "出牌" in seen["status"], seen
