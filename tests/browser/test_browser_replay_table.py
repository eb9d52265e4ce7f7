"""The replay on the felt in headless Chromium, both games, on a
375 × 812 phone and a 1280 × 800 screen: a finished hand's replay opens at
step 0 with "next" the primary button; stepping on with "next" (after a jump
to the first play) until the first trick/round is complete shows each
seat's last action of it in front of that seat (the DOM contract:
``data-region="play"``, ``data-seat``, ``data-card``), 升級's kitty is shown,
the page never scrolls sideways, and the arrow keys step back and on.
Screenshots: tmp/look-replay-<game>-<w>x<h>.png.

Session 20: a player's name in the replay's lines of text (升级's 比牌 and
上一轮 lines, "上一步：<name>") is never broken across lines ("机器人" / "3"
in the 比牌 line before), at every width from 320 to 430 px and sideways."""

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


#: Each seat's name where it stands in the replay's lines of text (the 比牌 /
#: 上一轮 lines, "上一步"): per occurrence, the distinct line tops of its
#: characters (one when it is whole on a line).
NAME_LINES = r"""names => {
  const out = [];
  for (const box of document.querySelectorAll('#sj-replay-public p, #replay-said')) {
    const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let t = walk.nextNode(); t; t = walk.nextNode()) {
      for (const name of names) {
        for (let at = t.data.indexOf(name); at >= 0; at = t.data.indexOf(name, at + 1)) {
          const r = document.createRange(); r.setStart(t, at); r.setEnd(t, at + name.length);
          const tops = new Set([...r.getClientRects()].filter(q => q.width > 0).map(q => Math.round(q.top)));
          out.push({name: name, where: box.id || box.textContent.slice(0, 8), lines: tops.size});
        }
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("game", ("shengji", "baohuang"))
def test_names_in_the_replays_lines_are_never_broken(site_server, browser, hands, game):
    """At the auction's last step (升级: the 比牌 line holds every seat's
    pile) and the first trick's end, at widths 320-430 px (every 3 px) and
    812 px sideways: every seat's name in the lines of text on one line."""
    base = site_server.web_url
    hand_id, cookie, _actions = hands[game]
    ctx, page = open_page(browser, base, cookie, {"width": 375, "height": 812})
    try:
        page.goto(f"{base}/hands/{hand_id}/replay/")
        marks = [int(re.search(r"step=(\d+)", a).group(1))
                 for a in page.locator("[data-jump-phase]").evaluate_all("els => els.map(e => e.getAttribute('href'))")]
        first_trick = int(re.search(r"step=(\d+)", page.locator('[data-jump-trick="2"]').get_attribute("href")).group(1))
        steps = sorted({m - 1 for m in marks[1:2] if m > 1} | {first_trick})
        names = [n.strip().split(". ", 1)[1] for n in page.locator(".replay-hand .who").all_inner_texts()]
        assert len(names) == (4 if game == "shengji" else 5)
        seen = 0
        for step in steps:
            page.goto(f"{base}/hands/{hand_id}/replay/?step={step}")
            for width in list(range(320, 431, 3)) + [812]:
                page.set_viewport_size({"width": width, "height": 375 if width > 500 else 812})
                found = page.evaluate(NAME_LINES, names)
                seen += len(found)
                broken = [f for f in found if f["lines"] > 1]
                assert not broken, f"a name broken across lines at {width} px, step {step}: {broken}"
        assert seen, "no name in the replay's lines"
        if game == "shengji":  # the 比牌 line was among them
            page.goto(f"{base}/hands/{hand_id}/replay/?step={steps[0]}")
            assert page.locator("#sj-replay-public p", has_text="比牌").count() == 1
    finally:
        ctx.close()


@pytest.mark.parametrize("game", ("shengji", "baohuang"))
def test_sideways_the_controls_stay_while_the_felt_is_in_view(site_server, browser, hands, game):
    """At 812 × 340 (a phone sideways, session 21) the felt starts below the
    fold. Scrolled so that the felt's plays are in view, "next" is still on
    screen, above the felt and not covering any play, and a tap on it steps on;
    the page never scrolls sideways."""
    base = site_server.web_url
    hand_id, cookie, _actions = hands[game]
    ctx, page = open_page(browser, base, cookie, {"width": 812, "height": 340})
    try:
        page.goto(f"{base}/hands/{hand_id}/replay/")
        first_trick = int(re.search(r"step=(\d+)", page.locator('[data-jump-trick="2"]').get_attribute("href")).group(1))
        page.goto(f"{base}/hands/{hand_id}/replay/?step={first_trick}")
        plays = page.locator('#replay-table [data-region="play"] [data-card]')
        assert plays.count()
        top = min(b["y"] for b in (plays.nth(i).bounding_box() for i in range(plays.count())))
        page.evaluate("y => window.scrollBy(0, y)", top - 120)  # the plays 120 px from the top
        nxt = page.locator('#replay-nav [data-action="replay-next"]')
        box = nxt.bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= 340, box
        cards = [plays.nth(i).bounding_box() for i in range(plays.count())]
        assert all(c["y"] >= box["y"] + box["height"] for c in cards if c["y"] + c["height"] > 0), (box, cards)
        page.screenshot(path=str(SHOTS / f"look-replay-{game}-812x340-scrolled.png"))
        nxt.click()
        page.wait_for_selector(f'#replay[data-step="{first_trick + 1}"]')
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        ctx.close()


#: The felt's plays by their place (``--area``: p0 the viewer's, then round
#: the table): the box of each play's cards.
PLACES = r"""() => Object.fromEntries([...document.querySelectorAll('#replay-table [data-region="play"]')].map(p => {
  const rs = [...p.querySelectorAll('[data-card]')].map(c => c.getBoundingClientRect());
  return [getComputedStyle(p).getPropertyValue('--area').trim(),
          rs.length ? {t: Math.min(...rs.map(r => r.top)), b: Math.max(...rs.map(r => r.bottom)),
                       l: Math.min(...rs.map(r => r.left)), r: Math.max(...rs.map(r => r.right))} : null];
}))"""


def test_four_plays_lie_in_a_cross_on_a_wide_screen(site_server, browser, hands):
    """升級 at 1280 × 800 (session 21): with the first trick whole on the
    felt, the viewer's play lies under the one across, and each side play's
    middle lies between theirs (before: the side plays level with the
    viewer's, which stood in the middle of the felt like a fifth seat's);
    no two plays overlap."""
    base = site_server.web_url
    hand_id, cookie, _actions = hands["shengji"]
    ctx, page = open_page(browser, base, cookie, {"width": 1280, "height": 800})
    try:
        page.goto(f"{base}/hands/{hand_id}/replay/")
        done = int(re.search(r"step=(\d+)", page.locator('[data-jump-trick="2"]').get_attribute("href")).group(1))
        page.goto(f"{base}/hands/{hand_id}/replay/?step={done}")
        box = page.evaluate(PLACES)
        assert sorted(box) == ["p0", "p1", "p2", "p3"] and all(box.values()), box
        mid = {k: (b["t"] + b["b"]) / 2 for k, b in box.items()}
        assert box["p0"]["t"] >= box["p2"]["b"], box
        for side in ("p1", "p3"):
            assert mid["p2"] + 10 < mid[side] < mid["p0"] - 10, (side, mid)
        for i, a in enumerate(sorted(box)):
            for b in sorted(box)[i + 1:]:
                A, B = box[a], box[b]
                assert not (A["l"] < B["r"] and B["l"] < A["r"] and A["t"] < B["b"] and B["t"] < A["b"]), (a, b, box)
        page.screenshot(path=str(SHOTS / "look-replay-shengji-1280x800-cross.png"))
    finally:
        ctx.close()
