"""Plays of six cards and more on a phone's felt (session 24, part 2):
保皇's sets and 升級's throws and tractors are often longer than five
cards, and they wrapped on a phone (375 × 812 and 812 × 375).  Up to
``ONE_LINE`` cards a play lies on one line inside its place, every covered
card's index (its rank's glyphs, "10" the widest) showing left of the next
card; a longer play may take a second line, still inside its place with
every index showing.

On a live table of bots (the human on 托管), as soon as a play lies on the felt,
one synchronous reading of the page fills an other's place with n cards of
the table's own markup (games/templatetags/cards.py's "played" form, the
widest ranks, 10, Q and K), measures them and puts the place back, before
any push can morph it (a live table seldom shows a play of a given length
when the test is there to see it)."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import bot_table

pytestmark = pytest.mark.browser

#: The longest play kept on one line on a phone; the readings go up to LONGEST.
ONE_LINE = 7
LONGEST = 15

#: For n in 5 … LONGEST: the first place with a play filled with n cards
#: (10, Q, 10, K: the widest ranks): their rows (distinct tops), whether each covered card's
#: rank shows whole left of the next card (a range over its first <b>),
#: whether every card lies inside the place (its grid area: a third of the
#: felt, or the viewer's own row of a four-seat felt), the narrowest strip.
READ = """([from, to]) => {
  const place = document.querySelector('.felt .play.played:has(> .mini)');
  if (!place) return null;
  const CARDS = [['TS', '10', '♠'], ['QH', 'Q', '♥'], ['TD', '10', '♦'], ['KC', 'K', '♣']];
  const kept = [...place.childNodes];
  place.style.width = '100%';  // as wide as its grid area (max-width 100%)
  const area = place.getBoundingClientRect();
  place.style.width = '';
  const out = {place: area.width, rows: {}};
  for (let n = from; n <= to; n++) {
    place.querySelectorAll(':scope > .mini').forEach(m => m.remove());
    for (let i = 0; i < n; i++) {
      const [code, rank, suit] = CARDS[i % CARDS.length];
      const m = document.createElement('i');
      m.className = 'mini' + ('HD'.includes(code[1]) ? ' red' : '');
      m.dataset.card = code;
      m.innerHTML = '<b>' + rank + '</b><b>' + suit + '</b>';
      place.appendChild(m);
    }
    const minis = [...place.querySelectorAll(':scope > .mini')];
    const boxes = minis.map(m => m.getBoundingClientRect());
    const shown = minis.map((m, i) => {
      const r = document.createRange(); r.selectNodeContents(m.querySelector('b'));
      const ix = r.getBoundingClientRect();
      const next = boxes[i + 1];
      return !next || Math.round(next.top) !== Math.round(boxes[i].top) || ix.right <= next.left + 1;
    });
    out.rows[n] = {tops: [...new Set(boxes.map(b => Math.round(b.top)))].length,
                   shown: shown.every(Boolean),
                   inside: boxes.every(b => b.left >= area.left - 1 && b.right <= area.right + 1),
                   strip: Math.min(...boxes.slice(1).map((b, i) => Math.round(b.top) === Math.round(boxes[i].top) ? b.left - boxes[i].left : 99))};
  }
  place.replaceChildren(...kept);
  return out;
}"""


@pytest.mark.parametrize("game", ["baohuang", "shengji"])
@pytest.mark.parametrize("size", [{"width": 812, "height": 375}, {"width": 375, "height": 812}])
def test_a_long_play_lies_on_one_line(site_server, browser, game, size):
    tag = f"{size['width']}x{size['height']}"
    with bot_table(site_server, browser, game, size, prefix=f"fl{game[:2]}{size['width']}", autoplay=True,
                   bot_delay_ms=150, turn_seconds=60) as page:
        # the wait and the reading in one synchronous call: under load a trick
        # can end between a wait for a play and a separate reading of it
        seen = page.wait_for_function(f"arg => ({READ})(arg)", arg=[5, LONGEST], timeout=240_000).json_value()
        page.evaluate("""n => { const place = document.querySelector('.felt .play.played:has(> .mini)');
          if (!place) return;  // the trick ended: the screenshot shows the felt as it is
          place.querySelectorAll(':scope > .mini').forEach(m => m.remove());
          for (let i = 0; i < n; i++) place.insertAdjacentHTML('beforeend', '<i class="mini" data-card="TS"><b>10</b><b>♠</b></i>'); }""",
                      ONE_LINE)
        page.screenshot(path=str(SHOTS / f"felt-long-plays-{game}-{tag}.png"))
        rows = {int(k): v for k, v in seen["rows"].items()}
        for n, r in rows.items():
            assert r["shown"], (n, r, seen["place"])  # every index showing
            assert r["inside"], (n, r, seen["place"])  # inside its place
            if n <= ONE_LINE:
                assert r["tops"] == 1, (n, r, seen["place"])  # one line
            else:  # lines of ONE_LINE (a whole row's place holds more)
                assert r["tops"] <= -(-n // ONE_LINE), (n, r, seen["place"])
