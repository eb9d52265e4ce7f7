"""A finger on the phone table (session 19, docs/table.md), measured in
Chromium with bounding boxes, for 升级 (four seats) and 保皇 (five seats):

* at 375×812 every visible control of the table page that a finger taps is
  at least 44×44 CSS px (WCAG 2.5.5's size; Apple's and Android's minimum):
  the site header's links and menu, the room's menu (规则, 返回大厅, the
  game's links, 关闭房间), the notices' buttons (接管), the seat's own
  buttons (准备, 托管, 离座), the hand's tool row, the play buttons, 上一轮 /
  上一轮出牌 and the chat (its summary, quick phrases, box and button), in a
  waiting room, a table on 托管 and on the viewer's turn;
* at 812×375 (a phone held sideways), on the viewer's turn, the page at its
  top (no scrolling): the top of every stack of the hand lies inside the
  screen, and a tap there lands on that stack; the play button lies wholly
  inside the screen.

Session 20, short screens (a browser's bars leave less than the screen:
812×340 sideways, 375×667 and 360×640 upright), both games:

* on the viewer's turn, the page opened at each size: the play button wholly
  on screen without the player scrolling (the page brings the buttons' row
  into view, never past the hand's top), every control reachable (inside the
  page's width, and a tap at its centre, scrolled to, lands on it), none of
  the table's blocks (notices, seats, the felt, the hand, its tools and
  buttons, the seat's own buttons …) overlapping another;
* on 托管 with the viewer's decision pending, the page opened sideways
  (812×340 and 812×375): the notice's 接管, the hand's top and the play
  button on screen (the notice beside the hand's column, not above it; the
  page brings the row into view when a third row of cards needs it at 340);
  upright, the notice one block beside its button, at most 56 px tall (it
  was 100); opened at 360×640 on 托管, 接管 stays on screen, and once
  pressed the play button comes on screen.

Before session 20: upright the play button lay at 711-755 px (升级) and
644-688 px (保皇, 360×640) of 640-667; on 托管 sideways at 332-376 of 340
and 375.

Each check fails on the layout before session 19: 关闭房间 26 px tall, 接管
and 离座 30 px, the chat's summary 23 px, the tool row 38 px; sideways, the
play button below the fold.  The dark theme is measured too (its own
colours, the same boxes).
"""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import open_page
from .test_browser_phone_table import _turn_with_plays

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 812}
SIDEWAYS = {"width": 812, "height": 375}
MIN = 44
SHOT_DIR = SHOTS / "shots"

#: Every control a finger taps on the table page, by selector (each one
#: measured where it is visible).  The rules' "?" links inside sentences
#: (a.q) are inline links, outside the size rule (WCAG 2.5.8's inline
#: exception); the cards of the hand are targets of their own
#: (test_browser_phone_table: at least 24 px, a strip of the fan).
CONTROLS = [
    ".site-header .main-nav a",          # 大厅 (the site's own links)
    "#site-menu > summary",              # the site menu (user, language, theme)
    ".site-header .notice-link",         # 通知
    ".room-menu a",                      # 规则 ?, 返回大厅, the game's page links
    ".room-menu button",                 # 关闭房间
    ".invite-hint button",               # a private room's invite link
    "#follow-notice a, #follow-notice button",
    "#table .notice button",             # 接管, 回到座位
    "#my-controls button",               # 准备 / 取消准备, 托管, 离座
    "#fill-bots select, #fill-bots button",
    ".seat button",                      # 坐下
    "#hand-tools select",                # 理牌
    "#hand-tools button",                # 清除选择
    "#hand-tools .sound-toggle",         # the bell (its label is the target)
    "[data-region='actions'] button",    # 提示, 出牌, 不比 …
    ".sj-last > button",                 # 上一轮
    "#last-round > summary",             # 上一轮出牌
    "#last-result > summary",            # 上一局结果
    ".next-hand button",                 # 下一局
    ".chat-box > summary",               # 聊天
    ".chat-quick button",                # quick phrases
    "#chat-form input",
    "#chat-form button",                 # 发送
    "#confirm-dialog[open] button",      # 取消 / 确定 of 离座, 关闭房间
]

#: The boxes of the visible controls (CSS px), per selector.
CONTROL_BOXES = r"""sels => sels.map(sel => [sel, [...document.querySelectorAll(sel)]
  .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map(e => { const r = e.getBoundingClientRect();
              return {text: (e.textContent || e.value || e.name || '').trim().slice(0, 24), w: r.width, h: r.height}; })])"""

#: The hand, its buttons' row and the play button at the top of the page, sideways.
SIDEWAYS_READING = r"""() => {
  const vh = innerHeight, vw = innerWidth;
  const cards = [...document.querySelectorAll("[data-region='hand'] [data-card]")].map(e => {
    const r = e.getBoundingClientRect();
    const x = r.left + Math.min(r.width, 26) / 2, y = r.top + 10;
    const hit = y < vh ? document.elementFromPoint(x, y) : null;
    return {code: e.dataset.card, top: r.top, hit: !!(hit && hit.closest('[data-card]') === e)};
  });
  const box = e => { if (!e) return null; const r = e.getBoundingClientRect();
                     return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, h: r.height}; };
  return {vh: vh, vw: vw, scrollY: scrollY, cards: cards,
          copies: [...document.querySelectorAll("[data-region='hand'] [data-card]")].reduce((n, e) => n + parseInt(e.dataset.count || '1', 10), 0),
          play: box(document.querySelector("[data-region='actions'] [data-action='play']")),
          actions: box(document.querySelector("[data-region='actions']")),
          docw: document.documentElement.scrollWidth};
}"""


def _small(page) -> tuple[list, dict]:
    """The controls under 44×44 and how many of each selector were measured."""
    boxes = page.evaluate(CONTROL_BOXES, CONTROLS)
    small = [(sel, b) for sel, found in boxes for b in found if b["h"] < MIN - 0.01 or b["w"] < MIN - 0.01]
    return small, {sel: len(found) for sel, found in boxes if found}


def _phone_controls(page, what: str, theme: str) -> dict:
    page.emulate_media(color_scheme=theme)
    page.wait_for_timeout(100)
    small, seen = _small(page)
    print(what, theme, seen, "small:", small)
    assert not small, f"controls under {MIN}×{MIN} px at 375×812 ({what}, {theme}): {small}"
    return seen


def _room(site_server, browser, game, **kw):
    base = site_server.web_url
    room = site_server.ops("bot_room", game=game, humans=1, turn_seconds=600, prefix="tt", **kw)
    ctx, page = open_page(browser, base, room["users"][0]["cookie"], PHONE)
    page.goto(f"{base}/rooms/{room['room_id']}/")
    return ctx, page


@pytest.mark.parametrize("game", ["shengji", "baohuang"])
def test_waiting_room_controls_are_44_px_on_a_phone(site_server, browser, game):
    """A waiting room, the viewer its owner: 关闭房间, 准备, 离座, the chat."""
    ctx, page = _room(site_server, browser, game, autoplay=False, ready=False, bot_delay_ms=150)
    try:
        page.wait_for_selector("#my-controls [data-action='ready']")
        for theme in ("light", "dark"):
            seen = _phone_controls(page, f"{game} waiting", theme)
        for sel in (".room-menu button", "#my-controls button", ".chat-box > summary", ".room-menu a",
                    "#site-menu > summary"):
            assert seen.get(sel), f"{sel} not on the page: {seen}"
        # 离座 asks first: the dialog's buttons
        page.click("#my-controls [data-action='leave']")
        page.wait_for_selector("#confirm-dialog[open]")
        seen = _phone_controls(page, f"{game} confirm", "light")
        assert seen.get("#confirm-dialog[open] button") == 2, seen
        page.click("[data-action='confirm-cancel']")
    finally:
        ctx.close()


@pytest.mark.parametrize("game", ["shengji", "baohuang"])
def test_playing_table_controls_44_px_upright_and_the_hand_in_reach_sideways(site_server, browser, game):
    """On 托管 (接管, the tool row, 上一轮), then on the viewer's turn (提示,
    出牌, 托管, 离座) at 375×812; then sideways at 812×375 the hand's
    stacks and the play button inside the screen without scrolling."""
    ctx, page = _room(site_server, browser, game, autoplay=True, ready=True, bot_delay_ms=150)
    try:
        # a round completed: 上一轮 (升级) / 上一轮出牌 (保皇) is there
        page.wait_for_selector(".sj-last > button, #last-round > summary", timeout=240_000)
        page.wait_for_function("() => document.querySelector('#my-hand') && document.querySelector('#my-hand').dataset.rows")
        for theme in ("light", "dark"):
            seen = _phone_controls(page, f"{game} on 托管", theme)
        for sel in ("#table .notice button", "#hand-tools select", "#hand-tools button", "#hand-tools .sound-toggle"):
            assert seen.get(sel), f"{sel} not on the page: {seen}"

        page.emulate_media(color_scheme="light")
        _turn_with_plays(page, game)
        for theme in ("light", "dark"):
            seen = _phone_controls(page, f"{game} my turn", theme)
        for sel in ("[data-region='actions'] button", "#my-controls button", ".sj-last > button, #last-round > summary"):
            if "," in sel:
                assert any(seen.get(s.strip()) for s in sel.split(",")), f"{sel} not on the page: {seen}"
            else:
                assert seen.get(sel), f"{sel} not on the page: {seen}"

        page.set_viewport_size(SIDEWAYS)
        page.wait_for_timeout(300)
        SHOT_DIR.mkdir(parents=True, exist_ok=True)
        for theme in ("light", "dark"):
            page.emulate_media(color_scheme=theme)
            page.evaluate("() => window.scrollTo(0, 0)")
            page.wait_for_timeout(150)
            m = page.evaluate(SIDEWAYS_READING)
            page.screenshot(path=str(SHOT_DIR / f"touch-{game}-my-turn-812x375-{theme}.png"))
            _hand_in_reach(m, f"{game} my turn {theme}")
            assert m["play"], "no play button"
            assert m["play"]["top"] < m["vh"], f"the play button below the fold at 812×375 ({game}): {m['play']}"
            assert m["play"]["bottom"] <= m["vh"], f"the play button cut at 812×375 ({game}): {m['play']}"
    finally:
        ctx.close()


def _hand_in_reach(m: dict, what: str, need_actions: bool = True) -> None:
    """Sideways, at the page's top: every stack's top 10 px on screen and a tap
    there lands on it; the buttons' row wholly on screen (升级 keeps it while
    the viewer holds cards; 保皇 has one on the viewer's turn); no sideways
    scroll."""
    below = [c for c in m["cards"] if c["top"] + 10 > m["vh"]]
    missed = [c["code"] for c in m["cards"] if not c["hit"]]
    print(what, "sideways: vh", m["vh"], "scrollY", m["scrollY"], "stacks", len(m["cards"]), "copies", m["copies"],
          "lowest stack top", max(c["top"] for c in m["cards"]) if m["cards"] else None,
          "actions", m["actions"], "play", m["play"])
    assert m["scrollY"] == 0
    assert m["cards"], "no hand"
    assert not below, f"stacks below the fold at 812×375 ({what}): {below[:4]}"
    assert not missed, f"a tap at a stack's top misses it at 812×375 ({what}): {missed[:5]}"
    assert m["actions"] or not need_actions, "no buttons' row"
    assert not m["actions"] or m["actions"]["bottom"] <= m["vh"], f"the buttons' row below the fold at 812×375 ({what}): {m['actions']}"
    assert m["docw"] <= m["vw"], f"sideways scroll at 812×375 ({what}): {m['docw']}"


@pytest.mark.parametrize("game", ["shengji", "baohuang"])
def test_a_whole_hand_sideways_in_one_screen(site_server, browser, game):
    """Just dealt (升级: 52 cards in the auction, S1; 保皇: the deal), the
    page opened sideways: the whole hand and its buttons' row on screen."""
    base = site_server.web_url
    room = site_server.ops("bot_room", game=game, humans=1, autoplay=False, ready=True,
                           bot_delay_ms=10_000, turn_seconds=600, prefix="ttw")
    ctx, page = open_page(browser, base, room["users"][0]["cookie"], SIDEWAYS)
    try:
        page.goto(f"{base}/rooms/{room['room_id']}/")
        page.wait_for_function("() => document.querySelector('#my-hand') && document.querySelector('#my-hand').dataset.rows")
        page.wait_for_timeout(200)
        SHOT_DIR.mkdir(parents=True, exist_ok=True)
        for theme in ("light", "dark"):
            page.emulate_media(color_scheme=theme)
            page.wait_for_timeout(150)
            m = page.evaluate(SIDEWAYS_READING)
            page.screenshot(path=str(SHOT_DIR / f"touch-{game}-deal-812x375-{theme}.png"))
            if game == "shengji":
                assert m["copies"] == 52
            _hand_in_reach(m, f"{game} deal {theme}", need_actions=(game == "shengji"))
    finally:
        ctx.close()


#: Short screens (session 20): sideways with the browser's bars, two upright phones.
SHORT = [{"width": 812, "height": 340}, {"width": 375, "height": 667}, {"width": 360, "height": 640}]

#: The play button, the 接管 button, the notice and the hand's top (CSS px, the viewport's).
TURN_READING = r"""() => {
  const box = e => { if (!e || !e.getClientRects().length) return null; const r = e.getBoundingClientRect();
                     return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, h: r.height}; };
  return {vh: innerHeight, vw: innerWidth, scrollY: scrollY, docw: document.documentElement.scrollWidth,
          play: box(document.querySelector("[data-region='actions'] [data-action='play']")),
          actions: box(document.querySelector("[data-region='actions']")),
          hand: box(document.querySelector("#my-hand")),
          notice: box(document.querySelector("#autoplay-notice")),
          takeover: box(document.querySelector("#autoplay-notice [data-action='autoplay-off']"))};
}"""

#: Every visible control (CONTROLS) reachable: inside the page's width, and,
#: scrolled to the middle of the screen, a tap at its centre lands on it.
#: The page is scrolled back where it was.
REACHABLE = r"""sels => {
  const y0 = scrollY, out = [];
  for (const sel of sels) for (const e of document.querySelectorAll(sel)) {
    if (!e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
    e.scrollIntoView({block: 'center', inline: 'nearest'});
    const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const ok = r.left >= -0.5 && r.right <= innerWidth + 0.5 && !!hit && (e === hit || e.contains(hit));
    if (!ok) out.push({sel: sel, text: (e.textContent || e.value || '').trim().slice(0, 20), left: r.left, right: r.right,
                       hit: hit ? (hit.id || hit.className || hit.tagName) : null});
  }
  window.scrollTo(0, y0);
  return out;
}"""

#: The table's blocks that must not overlap one another: the grid's items
#: (the notices, each seat, the seat's own buttons …) and the board's parts
#: (its top: whose turn, the felt, the facts …; its hand: the tools, the
#: hand, the buttons).
OVERLAPS = r"""() => {
  const visible = e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'
                       && getComputedStyle(e).position !== 'absolute' && e.getBoundingClientRect().height > 0;
  const blocks = [...document.querySelectorAll(
      "#table > :not(.seats):not(.board), #table > .seats > .seat, #table > .board > :not(.board-top):not(.board-hand),"
    + " #table > .board > .board-top > *, #table > .board > .board-hand > *")].filter(visible);
  const name = e => e.id || (e.className && String(e.className).split(' ')[0]) || e.tagName;
  const out = [];
  blocks.forEach((a, i) => blocks.slice(i + 1).forEach(b => {
    if (a.contains(b) || b.contains(a)) return;
    const A = a.getBoundingClientRect(), B = b.getBoundingClientRect();
    if (A.left < B.right - 1 && B.left < A.right - 1 && A.top < B.bottom - 1 && B.top < A.bottom - 1)
      out.push([name(a), name(b)]);
  }));
  return {n: blocks.length, overlaps: out};
}"""


def _blocks_at_rest(page) -> dict:
    """:data:`OVERLAPS` of the table at rest: an overlap read mid-push (a
    morph laying the status line out again; seen once in three CI runs,
    "status-line" over "felt" at 360 × 640) is read again a second later,
    and only an overlap that stays counts."""
    blocks = page.evaluate(OVERLAPS)
    if blocks["overlaps"]:
        page.wait_for_timeout(1000)
        blocks = page.evaluate(OVERLAPS)
    return blocks


@pytest.mark.parametrize("game", ["shengji", "baohuang"])
def test_short_screens_the_play_button_without_scrolling_and_on_autoplay(site_server, browser, game):
    """Session 20 (docs/table.md): the viewer's turn opened at 812×340,
    375×667 and 360×640: the play button wholly on screen (the page scrolls
    itself to the buttons' row, the hand's top kept), every control
    reachable, no two blocks overlapping; then on 托管 (the bot's move held
    back) opened sideways, 接管 and the hand's top on screen and no play
    button (the bot acts for the seat, session 24), and upright the notice
    compact; after 接管 the play button on screen."""
    base = site_server.web_url
    room = site_server.ops("bot_room", game=game, humans=1, autoplay=True, ready=True, bot_delay_ms=150,
                           turn_seconds=600, prefix="ts")
    ctx, page = open_page(browser, base, room["users"][0]["cookie"], PHONE)
    SHOT_DIR.mkdir(parents=True, exist_ok=True)
    try:
        page.goto(f"{base}/rooms/{room['room_id']}/")
        _turn_with_plays(page, game)
        for size in SHORT:
            tag = f"{size['width']}x{size['height']}"
            page.set_viewport_size(size)
            page.goto(f"{base}/rooms/{room['room_id']}/")  # opened at the viewer's turn, at this size
            page.wait_for_selector("#table[data-my-turn='1'] [data-region='actions'] [data-action='play']")
            page.wait_for_function("() => document.querySelector('#my-hand').dataset.rows")
            page.wait_for_timeout(300)
            m = page.evaluate(TURN_READING)
            page.screenshot(path=str(SHOT_DIR / f"short-{game}-my-turn-{tag}.png"))
            print(game, tag, "my turn: scrollY", m["scrollY"], "play", m["play"], "hand", m["hand"])
            assert m["play"], f"no play button at {tag}"
            assert 0 <= m["play"]["top"] and m["play"]["bottom"] <= m["vh"], \
                f"the play button not wholly on screen at {tag} ({game}): {m['play']}"
            assert m["hand"]["top"] >= 0, f"the hand's top scrolled off at {tag}: {m['hand']}"
            assert m["docw"] <= m["vw"], f"sideways scroll at {tag}: {m['docw']}"
            blocks = _blocks_at_rest(page)
            assert blocks["n"] > 5 and not blocks["overlaps"], f"blocks overlap at {tag} ({game}): {blocks}"
            unreachable = page.evaluate(REACHABLE, CONTROLS)
            assert not unreachable, f"controls out of reach at {tag} ({game}): {unreachable}"

        # 托管 with the viewer's decision pending: the bot's move held back
        site_server.ops("bot_delay", room_id=room["room_id"], ms=90_000)
        page.click("[data-action='autoplay-on']")
        page.wait_for_selector("#autoplay-notice [data-action='autoplay-off']")
        for size in ({"width": 812, "height": 340}, SIDEWAYS):
            tag = f"{size['width']}x{size['height']}"
            page.set_viewport_size(size)
            page.goto(f"{base}/rooms/{room['room_id']}/")  # opened on 托管 at this size
            page.wait_for_selector("#autoplay-notice [data-action='autoplay-off']")
            page.wait_for_function("() => document.querySelector('#my-hand').dataset.rows")
            page.wait_for_timeout(300)
            for theme in ("light", "dark"):
                page.emulate_media(color_scheme=theme)
                page.wait_for_timeout(100)
                page.screenshot(path=str(SHOT_DIR / f"short-{game}-autoplay-{tag}-{theme}.png"))
            m = page.evaluate(TURN_READING)
            print(game, tag, "托管: scrollY", m["scrollY"], "notice", m["notice"], "play", m["play"], "actions", m["actions"])
            assert m["play"] is None, f"a play button on 托管 at {tag} ({game}): {m['play']}"
            assert m["takeover"] and 0 <= m["takeover"]["top"] and m["takeover"]["bottom"] <= m["vh"], \
                f"接管 off screen at {tag}: {m['takeover']}"
            assert m["hand"]["top"] >= 0, f"the hand's top scrolled off on 托管 at {tag}: {m['hand']}"
            blocks = _blocks_at_rest(page)
            assert not blocks["overlaps"], f"blocks overlap on 托管 at {tag} ({game}): {blocks}"
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(200)
        m = page.evaluate(TURN_READING)
        print(game, PHONE, "托管 upright: notice", m["notice"])
        assert m["notice"]["h"] <= 56, f"the 托管 notice {m['notice']['h']} px tall at 375×812 ({game})"
        assert m["takeover"]["h"] >= MIN - 0.01
        assert not page.evaluate(OVERLAPS)["overlaps"]
        # opened upright on a short screen on 托管: the page does not scroll 接管 away;
        # taking over brings the buttons' row on screen
        page.set_viewport_size({"width": 360, "height": 640})
        page.goto(f"{base}/rooms/{room['room_id']}/")
        page.wait_for_selector("#autoplay-notice [data-action='autoplay-off']")
        page.wait_for_function("() => document.querySelector('#my-hand').dataset.rows")
        page.wait_for_timeout(300)
        m = page.evaluate(TURN_READING)
        print(game, "360x640 托管: scrollY", m["scrollY"], "notice", m["notice"], "play", m["play"])
        assert m["notice"]["h"] <= 56, f"the 托管 notice {m['notice']['h']} px tall at 360×640 ({game})"
        assert 0 <= m["takeover"]["top"] and m["takeover"]["bottom"] <= m["vh"], f"接管 off screen: {m['takeover']}"
        page.screenshot(path=str(SHOT_DIR / f"short-{game}-autoplay-360x640.png"))
        page.click("#autoplay-notice [data-action='autoplay-off']")
        page.wait_for_selector("#table[data-my-turn='1'] [data-region='actions'] [data-action='play']")
        page.wait_for_timeout(300)
        m = page.evaluate(TURN_READING)
        print(game, "360x640 taken over: scrollY", m["scrollY"], "play", m["play"])
        page.screenshot(path=str(SHOT_DIR / f"short-{game}-taken-over-360x640.png"))
        assert m["play"] and 0 <= m["play"]["top"] and m["play"]["bottom"] <= m["vh"], \
            f"the play button not on screen after 接管 at 360×640 ({game}): {m['play']}"
    finally:
        ctx.close()
