"""The replay on the felt in headless Chromium, both games, on a
375 × 812 phone and a 1280 × 800 screen: a finished hand's replay opens at
step 0 with "next" the primary button; stepping on with "next" (after a jump
to the first play) until the first trick/round is complete shows each
seat's last action of it in front of that seat (the DOM contract:
``data-region="play"``, ``data-seat``, ``data-card``), 升級's kitty is shown,
the page never scrolls sideways, and the arrow keys step back and on.
Screenshots: tmp/look-replay-<game>-<w>x<h>.png."""

from __future__ import annotations

import re

import pytest

from .conftest import SHOTS
from .helpers import open_page

pytestmark = pytest.mark.browser

SIZES = ({"width": 375, "height": 812}, {"width": 1280, "height": 800})

#: {seat: [card codes]} on the felt, and the seats' "过"/"让" words
FELT = """() => Object.fromEntries([...document.querySelectorAll('#replay-table [data-region="play"]')]
    .map(p => [p.dataset.seat, {cards: [...p.querySelectorAll('[data-card]')].map(c => c.dataset.card),
                                verb: (p.querySelector('.verb') || {}).textContent || null}]))"""


def _step(page) -> int:
    return int(page.locator("#replay").get_attribute("data-step"))


@pytest.fixture(scope="module")
def hands(site_server):
    """``{game: (hand id, the human's cookie, the hand's actions)}``: one hand
    of each game played out by the bots."""
    out = {}
    for game in ("shengji", "baohuang"):
        made = site_server.ops("finished_hands", count=1, game=game, prefix=f"rt{game[:2]}", review=False)
        log = site_server.ops("hand_log", room_id=made["rooms"][0])
        out[game] = (made["hands"][0], made["cookies"][0], [a["payload"] for a in log["hands"][0]["actions"]])
    return out


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
@pytest.mark.parametrize("game", ("shengji", "baohuang"))
def test_replay_steps_through_a_trick_on_the_felt(site_server, browser, hands, game, size):
    base = site_server.web_url
    hand_id, cookie, actions = hands[game]
    seats = 4 if game == "shengji" else 5
    ctx, page = open_page(browser, base, cookie, size)
    try:
        page.goto(f"{base}/hands/{hand_id}/replay/")
        assert _step(page) == 0
        nxt = page.locator('#replay-nav [data-action="replay-next"]')
        assert "primary" in nxt.get_attribute("class")
        assert page.locator('#replay-nav [data-action="replay-prev"]').count() == 0
        assert page.locator("#replay-table [data-region=seat-cards]").count() == seats
        assert page.locator("#replay-table [data-region=play]").count() == seats
        first = int(re.search(r"step=(\d+)", page.locator('[data-jump-trick="1"]').get_attribute("href")).group(1))
        done = int(re.search(r"step=(\d+)", page.locator('[data-jump-trick="2"]').get_attribute("href")).group(1))
        page.locator('[data-jump-trick="1"]').click()
        page.wait_for_selector(f'#replay[data-step="{first}"]')
        for _ in range(done - first):  # "next" until the first trick is complete
            at = _step(page)
            page.locator('#replay-nav [data-action="replay-next"]').click()
            page.wait_for_selector(f'#replay[data-step="{at + 1}"]')
        assert _step(page) == done and f"step={done}" in page.url
        felt = page.evaluate(FELT)
        last = {}
        for payload in actions[first:done]:
            last[payload["seat"]] = payload
        assert set(last) == {int(s) for s, p in felt.items() if p["cards"] or p["verb"]}
        for seat, payload in last.items():
            shown = felt[str(seat)]
            if "play" in payload:
                assert sorted(shown["cards"]) == sorted(payload["play"]), (seat, payload, shown)
            else:
                assert shown["cards"] == [] and shown["verb"], (seat, payload, shown)
        assert page.locator("#replay-table .play.winning").count() == 1
        if game == "shengji":
            assert page.locator('#replay-kitty[data-region="kitty"] [data-card]').count() == 8
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"look-replay-{game}-{size['width']}x{size['height']}.png"))
        # the arrow keys: one step back, one on
        page.locator("body").press("ArrowLeft")
        page.wait_for_selector(f'#replay[data-step="{done - 1}"]')
        page.locator("body").press("ArrowRight")
        page.wait_for_selector(f'#replay[data-step="{done}"]')
    finally:
        ctx.close()
