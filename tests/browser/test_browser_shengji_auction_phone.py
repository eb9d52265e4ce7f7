"""升級's 比牌 auction on a 375 × 640 phone (session 24), in Chinese and in
English: the hand's first row is on the screen as the table opens, and the
hand stays where it is while the bots bid and pass (its place in the page
never moves: the four piles, two by two, keep their height whatever they
hold; the status line is as tall on the viewer's turn as on another's);
its top stays on the screen throughout; the small numbers over the 比牌
in the hand say their unit (6分 / 6 pt), as the piles' points do, on
every 比牌 (in English a joker's badge gave way to its word JOKER).

Before: the piles were four rows one under the other, 47 px each, a row two
lines tall (71 px) from a bid of five cards on; the hand's top was at 546 px
(English 614 px) of 640 as the table opened, and moved at each long bid."""

from __future__ import annotations

import time

import pytest

from .conftest import SHOTS
from .helpers import bot_table

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 640}

#: The hand's place (top in the viewport and in the page), the piles' box
#: heights and what they show, the phase and whether the viewer acts.
READING = """() => {
  const hand = document.querySelector('#my-hand');
  const piles = [...document.querySelectorAll('#sj-piles .sj-pile')];
  const turn = document.querySelector('#turn-indicator');
  if (!hand || !turn) return null;
  const r = hand.getBoundingClientRect();
  return {top: r.top, pageTop: r.top + scrollY, scroll: scrollY, phase: turn.dataset.phase,
          mine: !!document.querySelector("#table[data-my-turn='1'] #actions [data-action='pass']"),
          heights: piles.map(p => Math.round(p.getBoundingClientRect().height)),
          cards: piles.map(p => p.querySelectorAll('.mini').length),
          sig: piles.map(p => p.dataset.pilePoints + (p.classList.contains('passed') ? 'p' : '')).join(',')};
}"""

#: Each 比牌 of the hand: its badge's text and whether it shows.
BADGES = """els => els.map(e => {
  const b = e.querySelector('.bid'), r = b ? b.getBoundingClientRect() : null;
  return {card: e.dataset.card, text: b ? b.textContent : null, shown: !!r && r.width > 8 && r.height > 6};
})"""


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_hand_stays_put_on_screen_through_the_auction(site_server, browser, language):
    with bot_table(site_server, browser, "shengji", PHONE, prefix=f"au{language[:2]}", autoplay=False,
                   bot_delay_ms=900, turn_seconds=120, language=language) as page:
        page.wait_for_selector("#my-hand[data-rows] [data-card]")
        first = page.evaluate(READING)
        assert first["phase"] == "auction", first
        # the hand's first row (a card is 52 px tall here) on the first screen
        # of the page (the page may have scrolled already: to the buttons, when
        # the viewer bids first)
        assert first["pageTop"] + 52 <= PHONE["height"], first
        # every 比牌 (a joker too: in English its ::after says JOKER) shows its points and their unit
        badges = page.locator("#my-hand .card.bipai").evaluate_all(BADGES)
        unit = "分" if language == "zh-hans" else " pt"
        assert badges and all(b["shown"] and b["text"].endswith(unit) for b in badges), badges
        page.screenshot(path=str(SHOTS / f"auction-open-{language}-375x640.png"))

        readings, last, shot = [], None, False
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline:
            now = page.evaluate(READING)
            if now is None or now["phase"] != "auction":
                break
            if now["sig"] != (last or {}).get("sig") or now["mine"] != (last or {}).get("mine"):
                readings.append(now)
                last = now
            if now["mine"]:
                page.wait_for_timeout(400)  # the page's own scroll to the buttons
                readings.append(page.evaluate(READING))
                page.click("#actions [data-action='pass']")
                page.wait_for_function("() => !document.querySelector(\"#table[data-my-turn='1']\")")
                continue
            if not shot and max(now["cards"]) >= 5:
                page.screenshot(path=str(SHOTS / f"auction-long-bid-{language}-375x640.png"))
                shot = True
            page.wait_for_timeout(100)
        bids = {r["sig"] for r in readings}
        assert len(bids) >= 4, readings  # the bots bid and passed while we watched
        assert max(max(r["cards"]) for r in readings) >= 3, readings  # piles of several cards came
        heights = {h for r in readings for h in r["heights"]}
        assert len(heights) == 1, readings  # every pile as tall, whatever it holds
        places = [r["pageTop"] for r in readings]
        assert max(places) - min(places) <= 1, readings  # the hand never moved in the page
        assert all(0 <= r["top"] and r["top"] + 52 <= PHONE["height"] for r in readings), readings
