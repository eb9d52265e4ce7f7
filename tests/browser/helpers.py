"""Helpers shared by the browser tests of (the table's look): a
logged-in page of a given size, language and motion preference, and a few
readings of the table (hand rows, selection, version, waiting for a push)."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1366, "height": 768}
#: The axe-core Lighthouse bundles (tools/lighthouse: npm ci).
AXE = Path(__file__).resolve().parents[2] / "tools" / "lighthouse" / "node_modules" / "axe-core" / "axe.min.js"


def open_page(browser, base, cookie, size, language="zh-hans", reduced_motion="no-preference",
              color_scheme="light"):
    """A logged-in page of ``size`` in ``language`` (django_language cookie)."""
    phone = size["width"] < 500
    context = browser.new_context(viewport=size, locale="en-US" if language == "en" else "zh-CN",
                                  device_scale_factor=2,
                                  is_mobile=phone, has_touch=phone, reduced_motion=reduced_motion,
                                  color_scheme=color_scheme)
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": "sessionid", "value": cookie, "url": base},
                         {"name": "django_language", "value": language, "url": base}])
    return context, context.new_page()


@contextlib.contextmanager
def bot_table(site_server, browser, game, size, *, prefix, autoplay, bot_delay_ms, turn_seconds,
              init_script=None, **page_kw):
    """A room of ``game`` with one human and bots (seated, ready, ``bot_delay_ms``
    between bot moves, ``turn_seconds`` per turn, the human on 托管 when
    ``autoplay``; users named ``prefix``…), opened as the human in a page of
    ``size`` (:func:`open_page`'s ``page_kw``; ``init_script`` runs before the
    page's own): yields the page, closes its context after."""
    base = site_server.web_url
    # 240 s: the whole suite's four parts share two cores, and the op (a
    # process of its own on the site's SQLite file) once took over 120 s there
    room = site_server.ops("bot_room", game=game, humans=1, autoplay=autoplay, ready=True,
                           bot_delay_ms=bot_delay_ms, turn_seconds=turn_seconds, prefix=prefix,
                           timeout=240)
    ctx, page = open_page(browser, base, room["users"][0]["cookie"], size, **page_kw)
    try:
        if init_script:
            ctx.add_init_script(init_script)
        page.goto(f"{base}/rooms/{room['room_id']}/")
        yield page
    finally:
        ctx.close()


def emperor_seat(browser, base, cookie, size, room_id, timeout_ms: int = 300_000) -> int | None:
    """The seat index of a 保皇 room's emperor, read from the table page as
    the player of ``cookie`` sees it (his tag is public from the crown on,
    B8); waits up to ``timeout_ms`` for the tag to appear.  None when the
    deal was voided (all five passed the crown twice, B8) and the room went
    back to waiting: with every human on 托管 the table does not redeal
    (nobody is watching, :func:`games.services.hands.next_hand`)."""
    ctx, page = open_page(browser, base, cookie, size)
    try:
        page.goto(f"{base}/rooms/{room_id}/")
        # an object, never the bare number: seat 0 is falsy, and
        # wait_for_function waits on through a falsy value (an emperor at
        # seat 0 timed out after 300 s, one room in five)
        found = page.wait_for_function(
            "() => { const e = document.querySelector('.seat .tag.role.emperor');"
            " if (e) return {seat: +e.closest('.seat').dataset.seat};"
            " const t = document.querySelector('#table');"
            " return t && t.dataset.status === 'waiting' ? {seat: null} : null; }", timeout=timeout_ms).json_value()
        return found["seat"]
    finally:
        ctx.close()


def crowned_room(site_server, browser, humans: int, size, *, accept=lambda seat: True,
                 tries: int = 5, **room_kw) -> tuple[dict, int]:
    """``(room, emperor)``: a 保皇 room of ``humans`` humans on 托管 and bots,
    ready (ops ``bot_room`` with ``room_kw``; ``names``, if given, is called
    for each room's usernames, unique on the site), played until the crown is
    taken by a seat that ``accept`` takes.  A room whose deal was voided (see
    :func:`emperor_seat`) or whose emperor ``accept`` refuses is closed and
    another made, at most ``tries`` rooms; the test fails after."""
    names = room_kw.pop("names", None)
    for _ in range(tries):
        kw = dict(room_kw, names=names()) if callable(names) else dict(room_kw)
        room = site_server.ops("bot_room", game="baohuang", humans=humans, autoplay=True, ready=True,
                               timeout=240, **kw)
        seat = emperor_seat(browser, site_server.web_url, room["users"][0]["cookie"], size, room["room_id"])
        if seat is not None and accept(seat):
            return room, seat
        site_server.ops("close", room_id=room["room_id"])
    pytest.fail(f"no room of {tries} crowned an emperor the test could use (voided deals or bots' crowns)")


READY = "#my-controls [data-action='ready']"
#: What :func:`or_waiting`'s page function returns once the room is waiting.
WAITING = "__waiting__"


def or_waiting(until_js: str) -> str:
    """A page function (source) whose value is that of ``until_js`` (source
    of a function of no argument) or, once the viewer's seat shows 准备 (the
    room went back to waiting: a hand ended while every human was on 托管,
    ``services.hands.next_hand``), :data:`WAITING`."""
    return f"() => ({until_js})() || (document.querySelector(\"{READY}\") ? '{WAITING}' : null)"


def wait_on_autoplay(page, until_js: str, timeout_ms: int, tries: int = 3):
    """The truthy value of the page function ``until_js`` (source of a
    function of no argument), keeping the viewer's autoplayed table dealing:
    a hand that ends while every human is on 托管 sends the room back to
    waiting, its humans not ready and off 托管 (``next_hand``), and on a
    loaded machine that happened before a test had looked at the hand.  Then
    the viewer presses 准备 and goes on 托管 again, at most ``tries`` times;
    the test fails after."""
    for _ in range(tries):
        found = page.wait_for_function(or_waiting(until_js), timeout=timeout_ms).json_value()
        if found != WAITING:
            return found
        page.click(READY)
        page.wait_for_selector('[data-action="autoplay-on"]', timeout=timeout_ms)
        page.click('[data-action="autoplay-on"]')
    pytest.fail(f"the room went back to waiting {tries} times")


#: Either way a viewer on 托管 gets the next deal: 接管 during the result
#: pause (the table deals on), or 准备 once the room went back to waiting.
DEAL_ON = f"#autoplay-notice [data-action='autoplay-off'], {READY}"


def deal_on(page, timeout_ms: int = 60_000, tries: int = 4) -> None:
    """After a hand ended with the viewer on 托管, take the seat back so the
    table deals the next hand, and wait until it did (``#table``'s
    ``data-hand`` changes).  During the result pause (``HAND_PAUSE_S``) the
    notice's 接管 does it; once the pause ran out the room is waiting, the
    viewer not ready (``services.hands.next_hand``), and 准备 does it.  On a
    loaded machine the pause may end between the two (CI: 接管 was gone when
    the test came to press it), so whichever shows is pressed, in the page
    (a button that went meanwhile is no press), at most ``tries`` times, each
    answered (the table's version moves) before the next; fails after."""
    hand = page.locator("#table").get_attribute("data-hand")
    for _ in range(tries):
        state = page.wait_for_function(
            "([h, sel]) => document.querySelector('#table').dataset.hand !== h ? 'dealt'"
            " : (document.querySelector(sel) ? 'press' : null)",
            arg=[hand, DEAL_ON], timeout=timeout_ms).json_value()
        if state == "dealt":
            return
        v = version(page)
        if page.evaluate("sel => { const b = document.querySelector(sel); if (b) b.click(); return !!b; }", DEAL_ON):
            page.wait_for_function("v => +document.querySelector('#table').dataset.version !== v", arg=v,
                                   timeout=timeout_ms)
    pytest.fail(f"no new hand after {tries} presses of 接管 or 准备")


def card_rows(page) -> int:
    """How many rows the hand's cards stand in (distinct tops, selected cards
    counted at their row)."""
    tops = page.locator("#my-hand [data-card]").evaluate_all(
        "els => els.map(e => Math.round(e.offsetTop))")
    return len(set(tops))


def selected(page) -> list[str]:
    """The selected cards, each copy once (a stack says how many in data-sel)."""
    return page.locator("#my-hand [data-card].selected").evaluate_all(
        "els => els.flatMap(e => Array(parseInt(e.dataset.sel || '1', 10)).fill(e.dataset.card))")


def version(page) -> int:
    return int(page.locator("#table").get_attribute("data-version") or -1)


def newer_than(page, v: int, timeout_ms: int = 60_000) -> None:
    """Wait for a table newer than version ``v`` (a push or a POST answer)."""
    page.wait_for_function("v => parseInt(document.querySelector('#table').dataset.version, 10) > v",
                           arg=v, timeout=timeout_ms)


def set_pref(page, pref: str, on: bool) -> None:
    """Tick (or untick) a display preference in the site menu (prefs.js)."""
    page.click("#site-menu > summary")
    box = page.locator(f'[data-pref="{pref}"]')
    if box.is_checked() != on:
        box.click()
    page.click("#site-menu > summary")


def hint_codes(page) -> list[str]:
    """The hint button's cards, or [] without one: found and read in one task
    (a push between a count() and a get_attribute() may take the button away,
    and the read then waited 20 s for it: CI of session 13)."""
    return page.evaluate(
        "() => { const b = document.querySelector('#actions [data-action=\"hint\"]');"
        " return ((b && b.dataset.hint) || '').split(/\\s+/).filter(Boolean); }")


def click_copies(page, codes: list[str], seen: dict[str, int] | None = None) -> None:
    """Select ``codes`` in the hand by tapping: identical cards are one stack
    (``data-count``) that takes one more copy per tap, so the k-th copy of a
    code is a tap on the stack holding it (a kitty copy is a stack of its
    own); ``seen`` carries the copies already taken over several calls."""
    seen = {} if seen is None else seen
    for code in codes:
        nth = seen.get(code, 0)
        seen[code] = nth + 1
        counts = page.locator(f'#my-hand [data-card="{code}"]').evaluate_all(
            "els => els.map(e => parseInt(e.dataset.count || '1', 10))")
        i, left = 0, nth
        while i < len(counts) - 1 and left >= counts[i]:
            left -= counts[i]
            i += 1
        page.locator(f'#my-hand [data-card="{code}"]').nth(i).click()


#: ``el => n``: how many lines an element's text stands on (distinct tops of
#: its text's boxes; 0 when it is not rendered).
TEXT_LINES = """el => {
  const r = document.createRange(); r.selectNodeContents(el);
  const tops = new Set([...r.getClientRects()].filter(b => b.width > 0).map(b => Math.round(b.top)));
  return tops.size;
}"""

#: ``el => [word, …]``: the words of an element's text that are cut across two
#: lines (a word's characters do not all share one top).
BROKEN_WORDS = """el => {
  const out = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    const s = t.textContent, re = /\\S+/g;
    for (let m = re.exec(s); m; m = re.exec(s)) {
      const tops = new Set();
      for (let i = m.index; i < m.index + m[0].length; i++) {
        const r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + 1);
        const b = r.getBoundingClientRect(); if (b.width > 0) tops.add(Math.round(b.top));
      }
      if (tops.size > 1) out.push(m[0]);
    }
  }
  return out;
}"""

#: ``el => [line, …]``: the text of an element as it stands on the page, a
#: string a line (its visible characters grouped by the top of their line, in
#: the order of the text; a space the line wraps at is not shown, so a line
#: starts and ends with the text either side of the wrap).
LINE_TEXTS = """el => {
  const lines = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    for (let i = 0; i < t.textContent.length; i++) {
      const r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + 1);
      const b = r.getBoundingClientRect();
      if (b.width === 0 || b.height === 0) continue;
      let line = lines.find(l => Math.abs(l.top - b.top) < b.height / 2);
      if (!line) lines.push(line = {top: b.top, text: ''});
      line.text += t.textContent[i];
    }
  }
  return lines.sort((a, b) => a.top - b.top).map(l => l.text);
}"""

#: ``() => {placed, ref, tops, width, scroll}`` or null: the desktop ring
#: mid-trick (two or three plays on the felt not yet won) and at rest (no
#: animation running: a play arriving slides in from its seat), read in one
#: go.  ``placed``: for each play on the felt its seat, its column (the left,
#: middle or right third of the felt, by its centre) and that of its seat
#: (seats beside the felt fall in its outer columns), its top and its seat's
#: top; ``ref``: the viewer's seat; ``tops``: ``[seat, top]`` of every seat.
#: A function expression: Playwright's ``evaluate`` and ``wait_for_function``
#: take it as it is, WebDriver's execute-script as ``f"return ({RING_PLACES})();"``.
RING_PLACES = """() => {
  const plays = document.querySelectorAll('#felt [data-region="play"][data-played-seat]:not(.won)');
  if (plays.length < 2 || plays.length > 3) return null;
  if (document.getAnimations().some(a => a.playState === 'running')) return null;
  const felt = document.querySelector('#felt').getBoundingClientRect();
  const column = e => {
    const r = e.getBoundingClientRect(), x = r.left + r.width / 2;
    return x < felt.left + felt.width / 3 ? 'L' : x > felt.right - felt.width / 3 ? 'R' : 'M';
  };
  const top = e => e.getBoundingClientRect().top;
  const seats = [...document.querySelectorAll('.seat[data-seat]')];
  const placed = [...plays].map(p => {
    const s = seats.find(s => s.dataset.seat === p.dataset.playedSeat);
    return {seat: p.dataset.playedSeat, column: column(p), seatColumn: column(s),
            top: top(p), seatTop: top(s)};
  });
  return {placed, ref: document.querySelector('#table').dataset.ref,
          tops: seats.map(s => [s.dataset.seat, top(s)]),
          width: innerWidth, scroll: document.documentElement.scrollWidth};
}"""

_COLUMNS = {"L": "left", "M": "middle", "R": "right"}


def ring_violations(placed: list[dict]) -> list[str]:
    """What is wrong with the plays on the desktop ring's felt, measured by
    :data:`RING_PLACES` (its ``placed``): each play lies on its seat's side
    (in the felt's column of its seat), and of two plays on one side the
    upper seat's play is the upper one.  A sentence per fault; none, ``[]``.

    Side and order, not "nearest its own seat": a tall play (a long run of
    cards) can reach nearer another seat while lying on its own side."""
    faults = []
    for p in placed:
        if p["column"] != p["seatColumn"]:
            faults.append(f"seat {p['seat']}'s play lies in the felt's "
                          f"{_COLUMNS[p['column']]} column, its seat in the "
                          f"{_COLUMNS[p['seatColumn']]}")
    for a in placed:
        for b in placed:
            one_side = a["seatColumn"] == b["seatColumn"]
            if one_side and a["seatTop"] < b["seatTop"] and not a["top"] < b["top"]:
                faults.append(f"on the {_COLUMNS[a['seatColumn']]} side seat {a['seat']} sits "
                              f"above seat {b['seat']} but its play (top {a['top']:.0f}) is not "
                              f"above theirs (top {b['top']:.0f})")
    return faults


def viewer_at_bottom(seen: dict) -> bool:
    """Whether the viewer's seat is the lowest of the ring, from
    :data:`RING_PLACES`'s ``tops`` and ``ref``: every other seat's top above
    the viewer's."""
    tops, ref = dict(seen["tops"]), seen["ref"]
    return all(tops[ref] > top for seat, top in tops.items() if seat != ref)


def contrast_failures(page) -> list[str]:
    """axe's color-contrast violations on the page: ``["selector: text (ratio)"]``."""
    if not AXE.exists():
        pytest.skip(f"no axe-core at {AXE} (cd tools/lighthouse && npm ci)")
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {runOnly: {type: 'rule', values: ['color-contrast']},
                                           resultTypes: ['violations']});
        return r.violations.flatMap(v => v.nodes.map(n => n.target.join(' ') + ': ' +
            (n.any[0] && n.any[0].message || '').slice(0, 200) + ' | ' + (n.html || '').slice(0, 120)));
    }""")
    return found


def assert_no_contrast_failures(failures: dict[str, list[str]]) -> None:
    """Fail listing every page's :func:`contrast_failures` (``{page name: lines}``)."""
    bad = "\n".join(f"{name}: {line}" for name, lines in failures.items() for line in lines)
    assert not bad, bad
