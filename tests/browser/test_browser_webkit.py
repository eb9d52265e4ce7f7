"""The live table in WebKit (Safari's engine), not only in Chromium.

Most of our players hold a phone whose browser is WebKit, and the table's
layout leans on CSS that engines took up at different times (``:has()``,
``:is()``, grid placement by custom properties: static/games/ring.css).
These tests open the embedded site in Debian's WebKitGTK
(:mod:`tests.browser.webkit`) and check what the Chromium tests check of the
same pages:

* on a phone-wide window: nothing runs off the screen sideways (the page, the
  seats, every card of the hand), the hand stands in at most three rows, and a
  tap on a card selects it (static/games/table.js);
* on a desktop window: the ring (the viewer's seat at the bottom, each play
  on the felt on its own seat's side, in its seats' order);
* a phone move through the 提示 and 出牌 buttons (htmx's POST and morph);
* an organiser's event page: the 更正 disclosure button opens its form, and a
  push (round 2 paired from another browser) keeps it open with what was typed.

Screenshots for people: ``tmp/webkit-<game>-<w>.png``.  Without
``webkit2gtk-driver`` and ``xvfb`` (``.ci/run`` installs both) they skip.
"""

from __future__ import annotations

import time

import pytest

from .conftest import SHOTS
from .helpers import RING_PLACES, ring_violations, viewer_at_bottom
from .webkit import NO_WEBKIT, WebKit, WebKitError, webkit_found

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not webkit_found(), reason=f"{NO_WEBKIT} (apt-get install webkit2gtk-driver xvfb)"),
]


@pytest.fixture(scope="module")
def webkit():
    with WebKit() as wk:
        yield wk


def _open(webkit, base, cookie, width, height, language="zh-hans"):
    """A signed-in WebKit window of about ``width`` × ``height``."""
    session = webkit.session(width, height)
    session.goto(f"{base}/accounts/login/")  # any page of the site, for its cookies
    session.cookie("sessionid", cookie)
    session.cookie("django_language", language)
    return session


def _at_table(site_server, webkit, size: tuple[int, int], game: str, prefix: str, **room):
    """A new bot room of ``game`` (one human, ready: :func:`tests.integration.ops.bot_room`
    with ``room``'s options) and a WebKit window of about ``size`` on its table:
    ``(session, the ops' answer)``.  The caller closes the session."""
    base = site_server.web_url
    made = site_server.ops("bot_room", game=game, humans=1, ready=True, turn_seconds=60,
                           prefix=prefix, **room)
    session = _open(webkit, base, made["users"][0]["cookie"], *size)
    try:
        session.goto(f"{base}/rooms/{made['room_id']}/")
    except Exception:
        session.close()
        raise
    return session, made


#: The phone table's geometry, read in one go once the hand is on the page.
PHONE_LAYOUT = """
const cards = [...document.querySelectorAll('#my-hand [data-card]')];
if (!cards.length) return null;
const W = innerWidth;
const out = r => r.left < -0.5 || r.right > W + 0.5;
const rects = cards.map(e => e.getBoundingClientRect());
return {width: W, scroll: document.documentElement.scrollWidth, cards: cards.length,
        handOut: rects.filter(out).length,
        rows: new Set(cards.map(e => Math.round(e.offsetTop))).size,
        seats: document.querySelectorAll('.seat[data-seat]').length,
        seatsOut: [...document.querySelectorAll('.seat[data-seat]')]
            .filter(e => out(e.getBoundingClientRect())).length};
"""


@pytest.mark.parametrize("game", ["baohuang", "shengji"])
def test_phone_table_fits_and_a_tap_selects_a_card(site_server, webkit, game):
    # no 托管: the hand stays put while the test taps it (the bots play up to
    # the viewer's turn, which waits its 60 s)
    session, _room = _at_table(site_server, webkit, (375, 812), game, f"wk{game[0]}",
                               autoplay=False, bot_delay_ms=300)
    try:
        seen = session.wait_for(PHONE_LAYOUT, timeout=60)
        assert seen["width"] < 480, seen  # the phone layout (under 30rem)
        assert seen["scroll"] <= seen["width"], seen  # nothing scrolls sideways
        assert seen["seats"] == (5 if game == "baohuang" else 4), seen
        assert seen["seatsOut"] == 0 and seen["handOut"] == 0, seen
        assert 1 <= seen["rows"] <= 3, seen
        session.screenshot(SHOTS / f"webkit-{game}-{seen['width']}.png")
        # a tap on a card raises it: table.js's selection works in WebKit.
        # A push may be laying the hand out again at that moment (the 升級
        # auction moves on meanwhile): WebDriver then finds the card not
        # interactable (seen once under CI load); tapped again, as a player would
        for attempt in range(5):
            try:
                session.click("#my-hand [data-card]")
                break
            except WebKitError as exc:
                if "not interactable" not in str(exc) or attempt == 4:
                    raise
                time.sleep(0.5)
        picked = session.wait_for(
            "return [...document.querySelectorAll('#my-hand [data-card].selected')]"
            ".map(e => e.dataset.card)", timeout=10)
        first = session.run("return document.querySelector('#my-hand [data-card]').dataset.card")
        assert picked == [first], (picked, first)
    finally:
        session.close()


def test_desktop_ring_lays_each_play_before_its_seat(site_server, webkit):
    session, _room = _at_table(site_server, webkit, (1280, 800), "baohuang", "wkring",
                               autoplay=True, bot_delay_ms=700)
    try:
        seen = session.wait_for(f"return ({RING_PLACES})();", timeout=120, every=0.1)
        assert seen["scroll"] <= seen["width"], seen
        # each play on its seat's side of the felt, in its seats' order
        assert ring_violations(seen["placed"]) == [], seen["placed"]
        assert viewer_at_bottom(seen), seen
        session.screenshot(SHOTS / f"webkit-baohuang-{seen['width']}.png")
    finally:
        session.close()


#: The viewer's turn as the page shows it: ``[turn, hint, hand, actions, version]``.
TURN = """
const t = document.querySelector('#table');
if (!t) return null;
return [t.dataset.myTurn === '1',
        !!t.querySelector("[data-region='actions'] [data-action='hint']"),
        t.dataset.hand, +t.dataset.actions, +t.dataset.version];
"""


def test_phone_move_through_hint_and_play_buttons(site_server, webkit):
    """A move as a phone player makes it, in WebKit: 提示 selects a legal set,
    出牌 posts it (htmx), and the answer's table, morphed in, has one more
    action with the viewer's cards fewer and no refusal.  Decisions without a
    hint (保皇's 买3, the declaration) are left to 托管 and taken over again."""
    session, _room = _at_table(site_server, webkit, (375, 812), "baohuang", "wkmove",
                               autoplay=False, bot_delay_ms=200)
    try:
        for _ in range(10):
            turn = session.wait_for(f"const s = (() => {{{TURN}}})(); return s && s[0] ? s : null;",
                                    timeout=120)
            _, hint, hand, actions, _version = turn
            if hint:
                break
            session.click('[data-action="autoplay-on"]')
            session.wait_for(
                "const t = document.querySelector('#table');"
                " return t.dataset.hand !== arguments[0] || +t.dataset.actions > arguments[1];",
                hand, actions, timeout=60)
            session.click('[data-action="autoplay-off"]')
        else:
            pytest.fail("never my turn with a hint")
        before = session.run(
            "return [document.querySelectorAll('#my-hand [data-card]').length,"
            " [...document.querySelectorAll('#my-hand [data-card]')].reduce("
            "(n, e) => n + parseInt(e.dataset.count || '1', 10), 0)]")
        session.click("[data-region='actions'] [data-action='hint']")
        chosen = session.wait_for(
            "const v = document.querySelector('#cards-input').value.trim(); return v ? v.split(/\\s+/) : null;",
            timeout=10)
        hint_codes = session.run(
            "return document.querySelector(\"[data-region='actions'] [data-action='hint']\").dataset.hint.split(' ')")
        assert sorted(chosen) == sorted(hint_codes), (chosen, hint_codes)
        session.click("[data-region='actions'] [data-action='play']")
        after = session.wait_for(
            "const t = document.querySelector('#table');"
            " if (t.dataset.hand !== arguments[0] || +t.dataset.actions <= arguments[1]) return null;"
            " const msg = document.querySelector('#act-msg');"
            " return {actions: +t.dataset.actions, refused: !!(msg && msg.classList.contains('error')"
            " && msg.textContent.trim()), mine: [...document.querySelectorAll('#my-hand [data-card]')]"
            ".reduce((n, e) => n + parseInt(e.dataset.count || '1', 10), 0)};",
            hand, actions, timeout=30)
        assert not after["refused"], after
        assert after["mine"] == before[1] - len(chosen), (before, after, chosen)
    finally:
        session.close()


#: The first 更正 disclosure on the event page: its button's aria-expanded,
#: its form's row hidden or shown, the reason typed, and whether the button
#: and the form's row are still the elements kept in ``window.__kept``.
TOGGLE = """
const toggle = document.querySelector('button.correction-toggle');
const row = toggle && document.getElementById(toggle.getAttribute('aria-controls'));
if (!row) return null;
return {expanded: toggle.getAttribute('aria-expanded'), hidden: row.hidden,
        shown: row.getBoundingClientRect().height > 0,
        reason: row.querySelector('input[name="reason"]').value,
        same: !!window.__kept && window.__kept[0] === toggle && window.__kept[1] === row,
        round2: !!document.getElementById('round-2')};
"""


def test_event_correction_button_survives_a_push(site_server, browser, webkit):
    """An organiser on WebKit opens a finished table's 更正 form (a disclosure
    button, static/games/disclosure.js) and types a reason; the same organiser
    pairs round 2 from another browser, which pushes the event's fragment; the
    WebKit page morphs it in (static/games/morph.js) with the form still open,
    the same elements and the reason kept."""
    from .test_browser_event import click_live, organiser_event

    page, event_url = organiser_event(site_server, browser, "wke", bots=2, rounds=2, hands=1, bot_delay_ms=0)
    click_live(page, "#start-round")
    page.wait_for_selector('#round-1 tr[data-finished="1"]', timeout=300_000)
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "sessionid")

    session = _open(webkit, site_server.web_url, cookie, 375, 812)
    try:
        session.goto(event_url)
        closed = session.wait_for(TOGGLE, timeout=30)
        assert (closed["expanded"], closed["hidden"], closed["shown"]) == ("false", True, False), closed
        session.click("button.correction-toggle")
        opened = session.wait_for(f"const s = (() => {{{TOGGLE}}})(); return s && s.shown ? s : null;",
                                  timeout=10)
        assert opened["expanded"] == "true" and not opened["hidden"], opened
        session.type('.correction-form input[name="reason"]', "third trick miscounted")
        session.run("const t = document.querySelector('button.correction-toggle');"
                    " window.__kept = [t, document.getElementById(t.getAttribute('aria-controls'))];")

        page.goto(event_url)
        click_live(page, "#pair-round")  # round 2: a push to every page of the event
        page.wait_for_selector("#round-2")

        kept = session.wait_for(f"const s = (() => {{{TOGGLE}}})(); return s && s.round2 ? s : null;",
                                timeout=60)
        session.screenshot(SHOTS / "webkit-event-correction.png")
        assert kept == {"expanded": "true", "hidden": False, "shown": True,
                        "reason": "third trick miscounted", "same": True, "round2": True}, kept
    finally:
        session.close()
