"""The table a player can read and play on a phone, measured in Chromium
through the table's DOM contract (docs/table.md, "The DOM contract"):
every card drawn has ``data-card``, a stack of identical cards ``data-count``;
the viewer's hand is ``data-region="hand"``, each seat's current play
``data-region="play"`` with ``data-seat``, the seats ``.seat[data-seat]``, the
buttons ``data-region="actions"``, the hand's result ``data-region="result"``.

At 375×812, 812×375 and 1280×800, for 升级 and 保皇:

* every target of the hand is at least 24×24 CSS px (WCAG 2.2, 2.5.8), with
  a full 52-card 升级 hand (S1) in the auction, and a tap at the centre of
  its visible part lands on it;
* the plays lie on the felt by seat: their cards at least 44 px tall with
  every index showing (its rank whole left of the next card; each card's
  strip at least 14 px in a play of up to five), no two seats'
  plays overlapping;
* nothing is cut off in the seats (no text wider than its box), no sideways
  scroll, and on the phone sizes the hand, the plays and the buttons fit in
  one screen together;
* a hint played through the 提示 button is accepted (never a refusal);
* the result stays after the next deal until "next hand" is pressed.

Screenshots of each size in the light and the dark theme go under
``tmp/shots/`` (not committed) for a human to look at.
"""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import open_page, wait_on_autoplay

pytestmark = pytest.mark.browser

SIZES = [(375, 812), (812, 375), (1280, 800)]
SHOT_DIR = SHOTS / "shots"

#: One reading of the table through the DOM contract (sizes in CSS px).
MEASURE = r"""() => {
  const R = e => e.getBoundingClientRect();
  const out = {vw: innerWidth, vh: innerHeight, docw: document.documentElement.scrollWidth};
  // the hand: each element's visible part (rows overlap: a row shows down to the next row's top)
  const cards = [...document.querySelectorAll('[data-region="hand"] [data-card]')];
  out.copies = cards.reduce((n, e) => n + parseInt(e.dataset.count || '1', 10), 0);
  out.elements = cards.length;
  const tops = [...new Set(cards.map(e => Math.round(R(e).top)))].sort((a, b) => a - b);
  out.targets = cards.map(e => {
    const r = R(e), row = tops.indexOf(Math.round(r.top));
    const below = row + 1 < tops.length ? tops[row + 1] : Infinity;
    const h = Math.min(r.bottom, below) - r.top;
    const x = r.left + r.width / 2, y = r.top + Math.min(h, r.height) / 2;
    const hit = document.elementFromPoint(x, y);
    return {code: e.dataset.card, w: r.width, h: h, hit: !!(hit && hit.closest('[data-card]') === e)};
  });
  // the plays on the felt, by seat
  out.plays = [...document.querySelectorAll('[data-region="play"][data-seat]')].map(p => {
    const cs = [...p.querySelectorAll('[data-card]')];
    const rs = cs.map(R);
    const strips = rs.map((r, i) => i + 1 < rs.length && Math.abs(rs[i + 1].top - r.top) < 2 ? rs[i + 1].left - r.left : r.width);
    // each covered card's index (its rank's glyphs, the first <b>) ends left
    // of the next card of its line, as test_browser_felt_long_plays reads it
    const hidden = cs.filter((c, i) => {
      const next = rs[i + 1], b = c.querySelector('b');
      if (!next || !b || Math.abs(next.top - rs[i].top) >= 2) return false;
      const g = document.createRange(); g.selectNodeContents(b);
      return g.getBoundingClientRect().right > next.left + 1;
    }).map(c => c.dataset.card);
    const box = rs.length ? {l: Math.min(...rs.map(r => r.left)), r: Math.max(...rs.map(r => r.right)),
                             t: Math.min(...rs.map(r => r.top)), b: Math.max(...rs.map(r => r.bottom))} : null;
    const verb = p.querySelector('.verb');
    return {seat: p.dataset.seat, n: cs.length, minH: rs.length ? Math.min(...rs.map(r => r.height)) : null,
            minStrip: strips.length ? Math.min(...strips) : null, hidden: hidden, box: box,
            verb: verb ? verb.textContent.trim() : null,
            font: cs.length ? parseFloat(getComputedStyle(cs[0]).fontSize) : null};
  });
  // seats: no text cut off
  out.cut = [];
  document.querySelectorAll('.seat[data-seat] *').forEach(e => {
    if (e.children.length === 0 && e.textContent.trim() && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).display !== 'inline')
      out.cut.push([e.closest('.seat').dataset.seat, e.className, e.textContent.trim(), e.scrollWidth, e.clientWidth]);
  });
  document.querySelectorAll('.seat[data-seat]').forEach(s => {
    if (s.scrollWidth > s.clientWidth + 1) out.cut.push([s.dataset.seat, 'seat', s.textContent.trim().slice(0, 40), s.scrollWidth, s.clientWidth]);
  });
  // the timer never over text
  out.timerOver = [];
  document.querySelectorAll('.seat .seat-timer').forEach(t => {
    const tr = R(t);
    t.closest('.seat').querySelectorAll('.seat-name > *, .seat-info > :not(.seat-timer)').forEach(e => {
      const r = R(e);
      if (r.width && r.left < tr.right - 1 && r.right > tr.left + 1 && r.top < tr.bottom - 1 && r.bottom > tr.top + 1)
        out.timerOver.push(e.textContent.trim());
    });
  });
  // one screen: the hand, the plays and the buttons
  const parts = ['[data-region="hand"]', '[data-region="actions"]', '#felt'].map(s => document.querySelector(s)).filter(Boolean).map(R);
  out.span = parts.length ? Math.max(...parts.map(r => r.bottom)) - Math.min(...parts.map(r => r.top)) : 0;
  return out;
}"""


def _turn_with_plays(page, game: str, timeout_ms: int = 240_000) -> None:
    """Take over from 托管 once plays lie on the felt; then play hints
    through the 提示 button until it is the viewer's turn with plays of
    others on the felt.  Every hint played is accepted.

    A table gone back to waiting meanwhile is readied again
    (:func:`~.helpers.wait_on_autoplay`)."""
    wait_on_autoplay(page, "() => document.querySelectorAll('#felt [data-played-seat]:not(.won)').length >= 1",
                     timeout_ms)
    page.click('[data-action="autoplay-off"]')
    for _ in range(30):
        page.wait_for_selector("#table[data-my-turn='1']", timeout=timeout_ms)
        if not page.locator("#table[data-my-turn='1'] [data-region='actions'] [data-action='hint']").count():
            # a decision without a hint (保皇's 买3 or declaration, 升級's 比牌 pass …):
            # 托管 makes it, then the viewer takes over again.  Waited for by the
            # hand's action count, not the version: turning 托管 on is a version
            # of its own, and taking over right after it left the decision
            # unmade, again and again (the loop's 30 tries spent on one decision)
            before = page.evaluate("() => [document.querySelector('#table').dataset.hand,"
                                   " +document.querySelector('#table').dataset.actions]")
            page.click('[data-action="autoplay-on"]')
            page.wait_for_function(
                "([hand, actions]) => { const t = document.querySelector('#table');"
                " return t.dataset.hand !== hand || +t.dataset.actions > actions; }",
                arg=before, timeout=timeout_ms)
            page.click('[data-action="autoplay-off"]')
            continue
        others = page.evaluate(
            "() => [...document.querySelectorAll('#felt [data-played-seat]:not(.won)')]"
            ".filter(p => p.dataset.seat !== document.querySelector('#table').dataset.ref).length")
        if others:
            return
        _play_hint(page)
    pytest.fail("never my turn with plays on the felt")


def _play_hint(page) -> None:
    """提示 then 出牌 (or the game's card verb) through the buttons; the
    answer must not be a refusal (a hint played is never refused).  A hand
    that ended while the loop waited leaves its result as a sheet over the
    next one (table_ui.js); it is closed first, as a player would."""
    sheet = page.locator("#kept-result [data-action='next-hand']")
    if sheet.count() and sheet.first.is_visible():
        sheet.first.click()
        page.wait_for_selector("#kept-result", state="detached")
    before = int(page.locator("#table").get_attribute("data-version"))
    page.click("[data-region='actions'] [data-action='hint']")
    verb = page.evaluate(
        "() => ['play', 'bury', 'bid'].find(v => document.querySelector("
        "`[data-region='actions'] [data-action='${v}']`)) || ''")
    assert verb, "no card verb with the hint"
    codes = page.locator("#cards-input").input_value().split()
    hint = page.locator("[data-region='actions'] [data-action='hint']").get_attribute("data-hint").split()
    assert sorted(codes) == sorted(hint), (codes, hint)
    with page.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as resp:
        page.click(f"[data-region='actions'] [data-action='{verb}']")
    assert resp.value.status < 400, (resp.value.status, hint, page.locator("#act-msg").inner_text())
    page.wait_for_function("v => parseInt(document.querySelector('#table').dataset.version, 10) > v", arg=before)


def _check(m: dict, size: tuple[int, int], game: str, plays_expected: bool) -> None:
    w, h = size
    assert m["docw"] <= m["vw"], f"sideways scroll at {size}: {m['docw']} > {m['vw']}"
    small = [t for t in m["targets"] if t["w"] < 24 or t["h"] < 24]
    assert not small, f"targets under 24 px at {size}: {small[:5]}"
    missed = [t["code"] for t in m["targets"] if not t["hit"]]
    assert not missed, f"a tap at the centre misses {missed[:5]} at {size}"
    assert not m["cut"], f"seat text cut at {size}: {m['cut'][:4]}"
    assert not m["timerOver"], f"timer over text at {size}: {m['timerOver']}"
    plays = [p for p in m["plays"] if p["n"]]
    if plays_expected:
        assert plays, "no play on the felt"
    for p in plays:
        assert p["minH"] >= 44, f"played cards {p['minH']} px tall at {size} (seat {p['seat']})"
        # every index showing: a play of up to five cards keeps 14 px a card;
        # a longer one (保皇's sets, 升級's throws) packs closer, each index
        # still whole left of the next card (a 7-card play: 11 px strips at 375)
        assert not p["hidden"], f"an index hidden in seat {p['seat']}'s play at {size}: {p['hidden']} ({p['minStrip']} px)"
        if p["n"] <= 5:
            assert p["minStrip"] >= 14, f"a {p['n']}-card play of seat {p['seat']} at {size}: {p['minStrip']} px strips"
        assert p["font"] >= 12, p
    for i, a in enumerate(plays):
        for b in plays[i + 1:]:
            A, B = a["box"], b["box"]
            overlap = A["l"] < B["r"] - 1 and B["l"] < A["r"] - 1 and A["t"] < B["b"] - 1 and B["t"] < A["b"] - 1
            assert not overlap, f"plays of seats {a['seat']} and {b['seat']} overlap at {size}"
    if w < 1000:
        assert m["span"] <= m["vh"], f"hand + plays + buttons span {m['span']} px > {m['vh']} at {size}"


def _shots(page, name: str) -> None:
    SHOT_DIR.mkdir(parents=True, exist_ok=True)
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        page.wait_for_timeout(150)
        page.screenshot(path=str(SHOT_DIR / f"{name}-{theme}.png"))
    page.emulate_media(color_scheme="light")


def _show_table(page) -> None:
    """Scroll the page so that the felt and the hand start on the screen: the
    higher of the two at its top (a phone held sideways has the hand beside
    the seats, above the felt: session 19)."""
    page.evaluate("() => { const tops = ['#felt', '[data-region=\"hand\"]'].map(s => document.querySelector(s))"
                  ".filter(Boolean).map(e => e.getBoundingClientRect().top);"
                  " if (tops.length) window.scrollTo(0, window.scrollY + Math.min(...tops) - 4); }")
    page.wait_for_timeout(100)


def test_full_shengji_hand_of_52_cards_is_hittable_at_three_sizes(site_server, browser):
    """S1: 52 cards in the auction; every stack a 24 px target at each size."""
    base = site_server.web_url
    room = site_server.ops("bot_room", game="shengji", humans=1, autoplay=False, ready=True,
                           bot_delay_ms=10_000, turn_seconds=600, prefix="ph52")
    ctx, page = open_page(browser, base, room["users"][0]["cookie"], {"width": 375, "height": 812})
    try:
        page.goto(f"{base}/rooms/{room['room_id']}/")
        page.wait_for_selector("[data-region='hand'] [data-card]")
        for size in SIZES:
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.wait_for_function("() => document.querySelector('#my-hand').dataset.rows")
            page.wait_for_timeout(200)
            _show_table(page)
            m = page.evaluate(MEASURE)
            print(size, "elements", m["elements"], "copies", m["copies"],
                  "smallest", min(t["w"] for t in m["targets"]), min(t["h"] for t in m["targets"]))
            assert m["copies"] == 52
            assert m["elements"] < 52  # four decks: identical cards stacked
            _check(m, size, "shengji", plays_expected=False)
            _shots(page, f"shengji-auction-{size[0]}x{size[1]}")
        # a stack takes one more copy per tap, and all back after its last
        stack = page.locator("[data-region='hand'] [data-card][data-count]").first
        n = int(stack.get_attribute("data-count"))
        for k in range(1, n + 1):
            stack.click()
            assert stack.get_attribute("data-sel") == str(k)
        stack.click()
        assert stack.get_attribute("data-sel") is None and "selected" not in (stack.get_attribute("class") or "")
    finally:
        ctx.close()


@pytest.mark.parametrize("game", ["shengji", "baohuang"])
def test_plays_on_the_felt_by_seat_one_screen_at_three_sizes(site_server, browser, game):
    base = site_server.web_url
    room = site_server.ops("bot_room", game=game, humans=1, autoplay=True, ready=True,
                           bot_delay_ms=150, turn_seconds=600, prefix="phf")
    ctx, page = open_page(browser, base, room["users"][0]["cookie"], {"width": 375, "height": 812})
    try:
        page.goto(f"{base}/rooms/{room['room_id']}/")
        _turn_with_plays(page, game)
        for size in SIZES:
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.wait_for_timeout(250)
            _show_table(page)
            m = page.evaluate(MEASURE)
            print(game, size, [(p["seat"], p["n"], p["minH"], p["minStrip"], p["verb"]) for p in m["plays"]],
                  "span", m["span"], "of", m["vh"])
            _check(m, size, game, plays_expected=True)
            _shots(page, f"{game}-play-{size[0]}x{size[1]}")
        # each seat has its place on the felt, the viewer's at the bottom
        seats = page.locator(".seat[data-seat]").count()
        assert page.locator("[data-region='play'][data-seat]").count() == seats
        mine = page.locator("#table").get_attribute("data-my-seat")
        assert page.locator("#table").get_attribute("data-ref") == mine
        # (ring.css: the felt's area p0 from the seat and the table's data-ref)
        assert page.evaluate(f"() => getComputedStyle(document.querySelector(\"[data-region='play'][data-seat='{mine}']\")).gridRowStart") == "p0"
        # the hint played through its button is accepted
        _play_hint(page)
    finally:
        ctx.close()


def test_result_stays_until_next_hand(site_server, browser):
    """The end of a hand stays after the next deal until "next hand"; the
    button shows the countdown to the deal the table makes by itself."""
    base = site_server.web_url
    room = site_server.ops("bot_room", game="baohuang", humans=1, autoplay=True, ready=True,
                           bot_delay_ms=40, turn_seconds=600, prefix="phr")
    ctx, page = open_page(browser, base, room["users"][0]["cookie"], {"width": 375, "height": 812})
    try:
        page.goto(f"{base}/rooms/{room['room_id']}/")
        page.wait_for_selector("[data-region='result'] [data-action='next-hand']", timeout=240_000)
        hand = page.locator("#table").get_attribute("data-hand")
        page.wait_for_function(
            "() => /\\d+s/.test(document.querySelector('[data-region=\"result\"] .next-countdown').textContent)")
        page.click('[data-action="autoplay-off"]')  # a player watching: the table deals on
        page.wait_for_function("h => document.querySelector('#table').dataset.hand !== h", arg=hand,
                               timeout=60_000)
        page.wait_for_timeout(300)
        kept = page.locator("#kept-result [data-region='result']")
        assert kept.is_visible()
        SHOT_DIR.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOT_DIR / "baohuang-result-kept-375x812-light.png"))
        page.click("#kept-result [data-action='next-hand']")
        assert page.locator("[data-region='result']").count() == 0
    finally:
        ctx.close()


def test_ready_after_a_waiting_result_leaves_no_sheet_over_the_next_hand(site_server, browser):
    """A hand that ends with every human on 托管 sends the table back to
    waiting (``next_hand``); its result shows on the table with 准备 and no
    "next hand" button.  Pressing 准备 deals the next hand, and the old
    result is not kept over it as a sheet (one was, with nothing to close
    it: the new hand's 托管 button under it could not be pressed)."""
    import time

    base = site_server.web_url
    room = site_server.ops("bot_room", game="shengji", humans=1, autoplay=True, ready=True,
                           bot_delay_ms=20, turn_seconds=600, prefix="phw")
    ctx, page = open_page(browser, base, room["users"][0]["cookie"], {"width": 375, "height": 812})
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:  # bounded: the hand ends, the room waits
            if site_server.ops("hand_log", room_id=room["room_id"])["status"] == "waiting":
                break
            time.sleep(2)
        page.goto(f"{base}/rooms/{room['room_id']}/")
        page.wait_for_selector("#table [data-region='result']")
        assert page.locator("#table [data-action='next-hand']").count() == 0
        hand = page.locator("#table").get_attribute("data-hand")
        page.click("#my-controls [data-action='ready']")
        page.wait_for_function("h => document.querySelector('#table').dataset.hand !== h", arg=hand,
                               timeout=60_000)
        page.wait_for_selector('[data-action="autoplay-on"]')
        page.wait_for_timeout(500)
        assert page.locator("#kept-result").count() == 0
        page.click('[data-action="autoplay-on"]', timeout=10_000)  # nothing over it
        page.wait_for_selector('[data-action="autoplay-off"]')
    finally:
        ctx.close()
