"""A seat on 托管 whose turn it is, on a phone (375 × 812), both games
(session 24): the bot acts for it, so its viewer is told 托管, not 轮到你了,
and is offered no move (no 提示, 出牌 or any button of the hand's row); the
托管 notice with its 接管 stays.  A tap on 接管 gives the turn back: the
next turn of the seat says 轮到你了 and offers its buttons again."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import bot_table

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 812}

#: The page when the viewer's own seat is to act: the status line's text,
#: the buttons offered in the hand's row, whether the table says it is the
#: viewer's turn, the 托管 notice and its 接管; null while another seat acts.
MY_SEAT_TO_ACT = """() => {
  const table = document.querySelector('#table');
  const turn = document.querySelector('#turn-indicator');
  if (!table || !turn || turn.dataset.turn === '' || turn.dataset.turn !== table.dataset.mySeat) return null;
  return {status: turn.textContent.replace(/\\s+/g, ' ').trim(),
          buttons: [...document.querySelectorAll("[data-region='actions'] button")].map(b => b.dataset.action),
          myTurn: table.dataset.myTurn || '',
          notice: !!document.querySelector('#autoplay-notice'),
          takeOver: !!document.querySelector("#autoplay-notice [data-action='autoplay-off']")};
}"""


@pytest.mark.parametrize("game", ["shengji", "baohuang"])
def test_a_seat_on_autoplay_is_not_told_to_act(site_server, browser, game):
    with bot_table(site_server, browser, game, PHONE, prefix=f"ap{game[:2]}", autoplay=True,
                   bot_delay_ms=1200, turn_seconds=120) as page:
        page.wait_for_selector("#autoplay-notice")
        seen = page.wait_for_function(MY_SEAT_TO_ACT, timeout=120_000, polling=50).json_value()
        page.screenshot(path=str(SHOTS / f"autoplay-turn-{game}-375x812.png"))
        assert "轮到你了" not in seen["status"], seen
        assert seen["status"].startswith("托管"), seen
        assert seen["buttons"] == [], seen  # no 提示, no 出牌 (or 比牌, 不比, 让 …)
        assert seen["myTurn"] == "", seen
        assert seen["notice"] and seen["takeOver"], seen

        # 接管: the seat's next turn is the player's own again
        page.locator("#autoplay-notice [data-action='autoplay-off']").click()
        page.wait_for_selector("#autoplay-notice", state="detached")
        # the seat's own turn with its buttons, waited for and read in one call
        # (a separate read after a wait could see the page between two pushes)
        seen = page.wait_for_function(
            f"() => {{ const s = ({MY_SEAT_TO_ACT})(); return s && s.myTurn === '1' && s.buttons.length ? s : null; }}",
            timeout=120_000, polling=50).json_value()
        assert "轮到你了" in seen["status"], seen
