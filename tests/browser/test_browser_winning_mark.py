"""the winning play in headless Chromium: at a 升级 table mid-trick
(two or three plays on the felt) exactly one play is marked as winning, in
front of the seat that the engine's S10 comparison (``current_winner``) names
for the plays on the table, with its words for screen readers; the page
reads everything from one snapshot of the table (pushes come meanwhile).
Screenshot: tmp/look-winning-play-1366x768.png."""

from __future__ import annotations

import pytest

from games.engine.cards import parse_cards
from games.engine.shengji.tricks import current_winner
from games.engine.shengji.trumps import TrumpContext

from .conftest import SHOTS
from .helpers import DESKTOP, bot_table

pytestmark = pytest.mark.browser

#: one reading of the table mid-trick (null until 2 or 3 plays lie there)
SNAPSHOT = """() => {
    const plays = [...document.querySelectorAll('#felt .played:not(.won)')];
    if (plays.length < 2 || plays.length > 3) return null;
    const board = document.querySelector('.board.sj');
    const trick = document.querySelector('#sj-trick[data-leader]');
    if (!board || !trick || trick.dataset.leader === '' || !board.dataset.trump) return null;
    return {
        level: board.dataset.level, trump: board.dataset.trump,
        leader: parseInt(trick.dataset.leader, 10),
        plays: Object.fromEntries(plays.map(p => [p.dataset.playedSeat,
            [...p.querySelectorAll('[data-card]')].map(c => c.dataset.card)])),
        marked: [...document.querySelectorAll('#table .played.winning')].map(p => p.dataset.playedSeat),
        badge: [...document.querySelectorAll('#table .played.winning .win-mark')].map(m => m.textContent.trim()),
        outline: plays.map(p => [p.dataset.playedSeat, getComputedStyle(p).outlineStyle]),
    };
}"""


def test_the_engines_winner_is_marked_mid_trick(site_server, browser):
    with bot_table(site_server, browser, "shengji", DESKTOP, prefix="win", autoplay=True,
                   bot_delay_ms=700, turn_seconds=60) as page:
        seen = 0
        for _ in range(3):  # three mid-trick positions
            snap = page.wait_for_function(SNAPSHOT, timeout=180_000, polling=50).json_value()
            order = [(snap["leader"] + i) % 4 for i in range(4)]
            plays = [(s, parse_cards(snap["plays"][str(s)])) for s in order if str(s) in snap["plays"]]
            assert len(plays) == len(snap["plays"]), snap  # the plays so far follow the lead in seat order
            want = current_winner(plays, TrumpContext(snap["level"], snap["trump"]))
            assert snap["marked"] == [str(want)], snap
            assert snap["badge"] == ["目前最大"], snap
            assert [s for s, style in snap["outline"] if style != "none"] == [str(want)], snap
            if not seen:
                SHOTS.mkdir(exist_ok=True)
                page.screenshot(path=str(SHOTS / "look-winning-play-1366x768.png"))
            seen += 1
            page.wait_for_function("n => document.querySelectorAll('#felt .played:not(.won)').length !== n",
                                   arg=len(plays), timeout=60_000)
        assert seen == 3
