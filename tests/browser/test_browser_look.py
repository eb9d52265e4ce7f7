""" in headless Chromium against the embedded site (one daphne): the
table's look.

* the 升级 hand of 52 cards is a fan: at most two rows on a 375 px phone, one
  row at 1366 px; every card shows its vendored SVG face; a tap raises a card
  (selected, moved up), a drag across cards selects them all, and the
  selection survives the websocket pushes that replace the table;
* the trick lies by seat: each seat's play lies on the felt on its seat's
  side, in its seats' order (:func:`tests.browser.helpers.ring_violations`,
  the rule the WebKit test judges the ring by too), the play that stands
  (保皇's set to beat) marked there, the viewer's seat at the bottom of the ring;
* reduced motion: with ``prefers-reduced-motion: reduce`` a card's raise and a
  play's arrival do not animate (durations 0), without it they do;
* screenshots under ``tmp/`` (375×812 and 1366×768, zh-Hans and English) of a
  保皇 and a 升级 table mid-trick (and on a phone in the system's dark theme,
  whose page background must differ), the leaderboard, the profile and the
  event page mid-round.
"""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import (DESKTOP, PHONE, RING_PLACES, card_rows, open_page, ring_violations, selected,
                      version, viewer_at_bottom)
from .test_browser_table import _mid_trick

pytestmark = pytest.mark.browser


def test_fan_of_52_cards_tap_drag_and_selection_across_pushes(site_server, browser):
    base = site_server.web_url
    room = site_server.ops("bot_room", game="shengji", humans=1, autoplay=False, ready=True,
                           bot_delay_ms=600, turn_seconds=600, prefix="fan")
    ctx, page = open_page(browser, base, room["users"][0]["cookie"], PHONE)
    try:
        page.goto(f"{base}/rooms/{room['room_id']}/")
        page.wait_for_function("() => [...document.querySelectorAll('#my-hand [data-card]')]"
                               ".reduce((n, e) => n + parseInt(e.dataset.count || '1', 10), 0) === 52")
        page.wait_for_function("() => document.querySelector('#my-hand').dataset.rows")
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "look-shengji-auction-375x812.png"))
        print(page.evaluate("""() => { const h = document.querySelector('#my-hand');
            return [h.clientWidth, h.style.cssText, getComputedStyle(h).paddingRight, h.dataset.rows,
                    [...h.querySelectorAll('[data-card]')].slice(0, 3).map(e => e.getBoundingClientRect().width)]; }"""))
        # identical cards stacked (data-count), each element a strip of at
        # least 24 px: four rows at most on a 375 px phone
        rows = int(page.locator("#my-hand").get_attribute("data-rows"))
        assert card_rows(page) == rows <= 4
        # a card covered by the next one in its row (court or pip: only its
        # strip shows, our index on its white pad) is plain white; the card
        # ending a row and the last card have their faces (faces.css: an SVG
        # of the vendored deck; cards.css, table_ui.js coveredFaces)
        faces = page.locator("#my-hand [data-card]").evaluate_all("""els => els.map((e, i) => [
            e.getAttribute('data-card'), getComputedStyle(e, '::before').backgroundImage,
            i === els.length - 1 || els[i + 1].getBoundingClientRect().top !== e.getBoundingClientRect().top])""")
        heavy = ("K", "Q", "J", "BJ", "SJ", "AC")
        for code, face, row_end in faces:
            drawn = "/static/vendor/svg-cards/" in face and face.endswith('.svg")')
            assert drawn == row_end, (code, face, row_end)
        assert sum(1 for _, _, row_end in faces if row_end) == rows
        # (a stack takes one more copy per tap: the taps below are on single cards)
        single = page.locator("#my-hand [data-card]").evaluate_all("els => els.map(e => !e.dataset.count)")
        # raised, a covered card shows its top: its face is drawn (a court
        # card, if the deal gave one, and a pip card)
        court = [i for i, (code, _, row_end) in enumerate(faces) if code.startswith(heavy) and not row_end and single[i]]
        pip = [i for i, (code, _, row_end) in enumerate(faces) if not code.startswith(heavy) and not row_end and single[i]]
        cards = page.locator("#my-hand [data-card]")
        for i in court[:1] + pip[:1]:
            cards.nth(i).tap()
            page.wait_for_function("() => document.querySelectorAll('#my-hand [data-card].selected').length === 1")
            assert ".svg" in cards.nth(i).evaluate("e => getComputedStyle(e, '::before').backgroundImage")
            cards.nth(i).tap()
            assert selected(page) == []
            assert cards.nth(i).evaluate("e => getComputedStyle(e, '::before').backgroundImage") == "none"
        jokers = {c: page.locator(f'#my-hand [data-card="{c}"]').first for c in ("BJ", "SJ")
                  if page.locator(f'#my-hand [data-card="{c}"]').count()}
        if len(jokers) == 2:
            filters = {c: el.evaluate("e => getComputedStyle(e, '::before').filter") for c, el in jokers.items()}
            assert filters["BJ"] != filters["SJ"]

        # a tap raises one card
        cards = page.locator("#my-hand [data-card]")
        third = cards.nth(single.index(True, 3))
        y0 = third.bounding_box()["y"]
        third.tap()
        page.wait_for_function("() => document.querySelectorAll('#my-hand [data-card].selected').length === 1")
        page.wait_for_timeout(300)
        assert third.bounding_box()["y"] < y0 - 5
        assert page.input_value("#cards-input") == third.get_attribute("data-card")
        third.tap()
        assert selected(page) == []

        # a drag across five cards of the first row selects the five (on my
        # turn of the auction: the bots wait, no push replaces the hand mid-drag)
        page.wait_for_selector("#table[data-my-turn='1']", timeout=60_000)
        # (five in one row: rows of stacks hold about a dozen on a phone)
        first = page.evaluate("""() => { const t = [...document.querySelectorAll('#my-hand [data-card]')]
            .map(e => Math.round(e.getBoundingClientRect().top));
            for (let i = 0; i + 4 < t.length; i++) if (t[i] === t[i + 4]) return i; return 0; }""")
        picked = range(first, first + 5)
        boxes = [cards.nth(i).bounding_box() for i in picked]
        page.mouse.move(boxes[0]["x"] + boxes[0]["width"] / 2, boxes[0]["y"] + 12)
        page.mouse.down()
        for b in boxes[1:]:
            page.mouse.move(b["x"] + b["width"] / 2, b["y"] + 12, steps=3)
        page.mouse.up()
        want = [cards.nth(i).get_attribute("data-card") for i in picked]
        assert sorted(selected(page)) == sorted(want)

        # pass (not a card play: the selection stays), so that the others'
        # moves push new tables (S13)
        if page.locator('#actions [data-action="pass"]').count():
            v = version(page)
            page.click('#actions [data-action="pass"]')
            page.wait_for_function("v => parseInt(document.querySelector('#table').dataset.version, 10) > v", arg=v)
        page.locator("#my-hand").screenshot(path=str(SHOTS / "look-shengji-hand-375.png"))

        # the bots' moves replace the table; the five stay selected
        v = version(page)
        page.wait_for_function("v => parseInt(document.querySelector('#table').dataset.version, 10) > v",
                               arg=v, timeout=60_000)
        assert sorted(selected(page)) == sorted(want)
        assert sorted(page.input_value("#cards-input").split()) == sorted(want)
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "look-shengji-fan-375x812.png"))

        # a desktop holds the 52 in two rows at most
        page.set_viewport_size(DESKTOP)
        page.wait_for_function("() => parseInt(document.querySelector('#my-hand').dataset.rows, 10) <= 2")
        assert card_rows(page) <= 2
        page.screenshot(path=str(SHOTS / "look-shengji-fan-1366x768.png"))
    finally:
        ctx.close()


def test_trick_lies_by_seat_viewer_at_the_bottom(site_server, browser):
    base = site_server.web_url
    room = site_server.ops("bot_room", game="baohuang", humans=1, autoplay=True, ready=True,
                           bot_delay_ms=700, turn_seconds=60, prefix="seat")
    ctx, page = open_page(browser, base, room["users"][0]["cookie"], DESKTOP)
    try:
        page.goto(f"{base}/rooms/{room['room_id']}/")
        # mid-trick (two or three plays on the felt) and at rest, waited for and
        # read in one synchronous call: on this live table the round can end
        # between a wait and separate readings (no play, no top set)
        seen = page.wait_for_function(f"""() => {{
            const seen = ({RING_PLACES})();
            if (!seen) return null;
            const topSet = document.querySelector('#top-set');
            seen.top = (topSet && topSet.dataset.topSeat) || null;
            seen.marks = [...document.querySelectorAll('#table [data-played-seat]')].map(
                p => [p.dataset.playedSeat, getComputedStyle(p).outlineStyle]);
            return seen;
        }}""", timeout=120_000).json_value()
        # each play lies on the felt on its seat's side, in its seats' order
        assert ring_violations(seen["placed"]) == [], seen["placed"]
        # the play that stands (B: the set to beat) is marked in front of its seat, and only it
        top, marks = seen["top"], seen["marks"]
        assert top is not None and top in dict(marks), (top, marks)
        assert [seat for seat, style in marks if style != "none"] == [top], (top, marks)
        # the viewer's seat at the bottom of the ring
        assert viewer_at_bottom(seen), seen["tops"]
    finally:
        ctx.close()


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_reduced_motion_stops_card_animations(site_server, browser, motion):
    base = site_server.web_url
    room = site_server.ops("bot_room", game="baohuang", humans=1, autoplay=True, ready=True,
                           bot_delay_ms=500, turn_seconds=60, prefix="rm")
    ctx, page = open_page(browser, base, room["users"][0]["cookie"], PHONE, reduced_motion=motion)
    try:
        page.goto(f"{base}/rooms/{room['room_id']}/")
        page.wait_for_selector("#my-hand [data-card]")
        raise_s = page.locator("#my-hand [data-card]").first.evaluate(
            "e => getComputedStyle(e).transitionDuration")
        # found and read in one task: the next push's table_ui.js takes .arrive off a
        # play already shown, so a lookup then a read in two calls could see it gone
        arrive = page.wait_for_function("""() => { const m = document.querySelector('#table .arrive .mini');
            return m ? getComputedStyle(m).animationName : null; }""", timeout=60_000).json_value()
        # a deal's cards (table_ui.js marks the hand .deal when data-hand changes)
        dealt = page.evaluate("""() => { const h = document.querySelector('#my-hand'); h.classList.add('deal');
            return getComputedStyle(h.querySelector('[data-card]')).animationName; }""")
        if motion == "reduce":
            assert raise_s == "0s" and arrive == "none" and dealt == "none"
        else:
            assert raise_s != "0s" and arrive == "card-arrive" and dealt == "card-deal"
    finally:
        ctx.close()


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("game", ["baohuang", "shengji"])
def test_screenshots_tables_leaderboard_profile(site_server, browser, game, language):
    base = site_server.web_url
    room = site_server.ops("bot_room", game=game, humans=1, autoplay=True, ready=True,
                           bot_delay_ms=900, turn_seconds=60, prefix="look")
    SHOTS.mkdir(exist_ok=True)
    for size in (PHONE, DESKTOP):
        tag = f"{size['width']}x{size['height']}-{language}"
        ctx, page = open_page(browser, base, room["users"][0]["cookie"], size, language=language)
        try:
            page.goto(f"{base}/rooms/{room['room_id']}/")
            _mid_trick(page, game)
            count = page.locator("#my-hand [data-card]").count()
            page.screenshot(path=str(SHOTS / f"look-{game}-table-{tag}.png"))
            print(f"\n[{game} {tag}] {count} cards in hand, rows {page.locator('#my-hand').get_attribute('data-rows')}")
            if size is PHONE and language == "zh-hans":  # the dark theme follows the system
                dctx, dark = open_page(browser, base, room["users"][0]["cookie"], size, color_scheme="dark")
                try:
                    dark.goto(f"{base}/rooms/{room['room_id']}/")
                    _mid_trick(dark, game)
                    bg = dark.evaluate("() => getComputedStyle(document.body).backgroundColor")
                    assert bg != page.evaluate("() => getComputedStyle(document.body).backgroundColor"), bg
                    dark.screenshot(path=str(SHOTS / f"look-{game}-table-{tag}-dark.png"))
                finally:
                    dctx.close()
            if game == "baohuang":
                for name, path in (("leaderboard", "/leaderboards/baohuang/"), ("profile", "/accounts/profile/")):
                    page.goto(base + path)
                    page.wait_for_load_state()
                    page.screenshot(path=str(SHOTS / f"look-{name}-{tag}.png"), full_page=True)
        finally:
            ctx.close()


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_event_page_mid_round(site_server, browser, language):
    """The event page of a running round: entrants as a table with a status
    badge each, the round as a panel of its tables, standings; screenshots."""
    base = site_server.web_url
    event = site_server.ops("event_round", game="shengji", bots=4, bot_delay_ms=900, prefix="lookev")
    for size in (PHONE, DESKTOP):
        tag = f"{size['width']}x{size['height']}-{language}"
        ctx, page = open_page(browser, base, event["user"]["cookie"], size, language=language)
        try:
            page.goto(f"{base}/clubs/events/{event['event_id']}/")
            page.wait_for_selector('#round-1.panel[data-status="running"]')
            rows = page.locator("#entries tr[data-entry]")
            assert rows.count() == 4
            assert page.locator("#entries tr[data-entry] .badge.status-active").count() == 4
            assert page.locator("#round-1 .event-tables tr[data-table]").count() >= 1
            page.screenshot(path=str(SHOTS / f"look-event-{tag}.png"), full_page=True)
        finally:
            ctx.close()
