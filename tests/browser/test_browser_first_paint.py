"""A slow phone's first paint (scripts/probe_table_paint.py measures it): what
would move once the page is parsed or laid out is not painted before.

* the header shows nothing until it is parsed to its end (.header-end): the
  menu button stood at the right edge, then moved when the notices link came;
* the hand, the viewer's seat, the controls and the chat are not painted
  until table_ui.js has laid the fan out for this width (#my-hand[data-rows]):
  the first paint's guess of the rows could be one row off, and all of them
  moved by a row (the probe under load: CLS 0.12);
* once laid out, all of them show, whatever the hand holds.
"""

from __future__ import annotations

import pytest

from .helpers import PHONE, bot_table

pytestmark = pytest.mark.browser

HIDDEN = """() => Object.fromEntries(
  ['header.site-header > nav.main-nav', '#my-hand',
   '#table .seat[data-seat="' + document.querySelector('#table').dataset.mySeat + '"]', '#my-controls', '#chat']
  .map(s => [s, document.querySelector(s) ? getComputedStyle(document.querySelector(s)).visibility : 'absent']))"""


@pytest.mark.parametrize("game", ["shengji", "baohuang"])
def test_what_would_move_is_not_painted_before_its_layout(site_server, browser, game):
    with bot_table(site_server, browser, game, PHONE, prefix=f"fp{game[:2]}", autoplay=False,
                   bot_delay_ms=10_000, turn_seconds=300) as page:
        page.wait_for_selector("#my-hand[data-rows]")
        shown = page.evaluate(HIDDEN)
        assert set(shown.values()) == {"visible"}, shown  # laid out: all painted
        rows = int(page.get_attribute("#my-hand", "data-rows"))
        assert rows >= 1
        # as before the script's layout (and the header's end) came
        page.evaluate("() => { document.getElementById('my-hand').removeAttribute('data-rows');"
                      " document.querySelector('header .header-end').remove(); }")
        assert set(page.evaluate(HIDDEN).values()) == {"hidden"}
        page.evaluate("() => window.dispatchEvent(new Event('resize'))")  # the fan lays out again
        page.wait_for_selector("#my-hand[data-rows]")
        shown = page.evaluate(HIDDEN)
        assert shown["#my-hand"] == shown["#chat"] == shown["#my-controls"] == "visible", shown
