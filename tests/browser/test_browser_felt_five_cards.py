"""A five-card 保皇 play on a phone's felt (session 24): each place is a
third of the felt (107 px at 812 × 375), where five cards at half a card
each took 115 px and the last wrapped under the rest; a play of five cards
shows a narrower strip of each covered card, as wide as its index, and
lies on one line, inside its place, its indexes all showing.  Held
sideways (812 × 375) and upright (375 × 812), on a live table of bots
(the human on 托管): bots play five of a kind in most hands; after a hand
without one the test takes the seat back (a table of bots and 托管 stops
between hands: helpers.deal_on), puts the last hand's result sheet away, and hands the seat
to the bot again once the next is dealt."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import bot_table, deal_on

pytestmark = pytest.mark.browser

#: The first play of five cards on the felt: its cards' tops, whether each
#: covered card's index (its first <b>'s glyphs) shows whole left of the next card (a joker's name aside),
#: and its box against its place's; null while there is none.
FIVE = """() => {
  const play = [...document.querySelectorAll('.felt .play.played')].find(p => p.querySelectorAll(':scope > .mini').length === 5);
  if (!play) return null;
  const minis = [...play.querySelectorAll(':scope > .mini')];
  const boxes = minis.map(m => m.getBoundingClientRect());
  const shown = minis.slice(0, -1).map((m, i) => {
    const ix = m.querySelector('b'); if (!ix || m.classList.contains('joker')) return true;
    const r = document.createRange(); r.selectNodeContents(ix);
    return r.getBoundingClientRect().right <= boxes[i + 1].left + 1;
  });
  const felt = play.closest('.felt').getBoundingClientRect();
  const p = play.getBoundingClientRect();
  return {tops: [...new Set(boxes.map(b => Math.round(b.top)))], shown, cards: minis.map(m => m.dataset.card || m.textContent),
          right: Math.max(...boxes.map(b => b.right)), playRight: p.right, playLeft: p.left,
          feltWidth: felt.width, placeWidth: p.width};
}"""


#: FIVE, or ``{ended: true}`` once the hand is over (its result on the table).
FIVE_OR_END = "() => (" + FIVE + ")() || (document.querySelector(\"#table [data-region='result']\") ? {ended: true} : null)"


@pytest.mark.parametrize("size", [{"width": 812, "height": 375}, {"width": 375, "height": 812}])
def test_a_five_card_play_lies_on_one_line(site_server, browser, size):
    tag = f"{size['width']}x{size['height']}"
    with bot_table(site_server, browser, "baohuang", size, prefix=f"f5{size['width']}", autoplay=True,
                   bot_delay_ms=150, turn_seconds=60) as page:
        seen = None
        for _hand in range(4):
            seen = page.wait_for_function(FIVE_OR_END, timeout=240_000, polling=50).json_value()
            if not seen.get("ended"):
                break
            deal_on(page)  # 接管 in the result pause, or 准备 once the room waits
            page.wait_for_selector("#my-hand[data-rows]")  # the seat's buttons shown (ring.css)
            # the last hand's result stays as a sheet over the page until the
            # player goes on (table_ui.js); on a phone it covers the 托管 button
            if page.locator("#kept-result [data-action='next-hand']").count():
                page.click("#kept-result [data-action='next-hand']")
            page.click("[data-action='autoplay-on']")
            page.wait_for_selector("#autoplay-notice")
        assert seen and not seen.get("ended"), "no five-card play in four hands"
        page.screenshot(path=str(SHOTS / f"felt-five-cards-{tag}.png"))
        assert len(seen["tops"]) == 1, seen  # one line
        assert all(seen["shown"]), seen  # every covered card's index shows
        assert seen["right"] <= seen["playRight"] + 1, seen  # inside its place
