"""the largest paint, in headless Chromium against the embedded site:
a new table is morphed into the page (idiomorph's htmx extension), not
swapped in as new elements.

* across websocket pushes, the player's own move included (its POST answers
  204: the push alone brings each version, rendered once), the table keeps its
  elements: ``#table``, the hand, a card, a seat and the hand tools bar
  (inserted by the page, marked ``data-morph-keep``) are the very same nodes
  afterwards, and a selected card stays selected;
* a move whose button left the page before its answer came leaves the table
  whole (the answer has nothing to swap; the push brings the table);
* the plays still arrive: after every push that brings a new play, each play
  marked ``.arrive`` that shows cards has their ``card-arrive`` animation running, also
  when a morph kept the play's element from the push before (printed: how
  many pushes, how many such kept elements);
* a new deal still deals: when the table's hand changes, the hand is marked
  ``.deal`` and its cards run ``card-deal``;
* the table's morph keeps what the viewer chose by the rules every morphed
  page shares (``static/games/morph.js``, loaded beside ``table.js``): an
  open ``<details>`` and a control the viewer changed, with ``table.js``'s
  own rules (the fan's strip width) still in force.

Reduced motion and the rest of the look: test_browser_look.py.
"""

from __future__ import annotations

import pytest

from .helpers import DESKTOP, PHONE, bot_table, newer_than, open_page, selected, version

pytestmark = pytest.mark.browser

MARK = """() => {
    const q = s => document.querySelector(s);
    window.__kept = {table: q('#table'), hand: q('#my-hand'), card: q('#my-hand [data-card]'),
                     seat: q('.seat[data-seat="1"]'), tools: q('#hand-tools')};
    return Object.values(window.__kept).every(Boolean);
}"""
SAME = """() => {
    const q = s => document.querySelector(s), k = window.__kept;
    return {table: q('#table') === k.table, hand: q('#my-hand') === k.hand,
            card: q('#my-hand [data-card]') === k.card, seat: q('.seat[data-seat="1"]') === k.seat,
            tools: q('#hand-tools') === k.tools, connected: k.table.isConnected};
}"""
ALL_SAME = {"table": True, "hand": True, "card": True, "seat": True, "tools": True, "connected": True}


def test_pushes_after_my_move_keep_the_tables_elements(site_server, browser):
    base = site_server.web_url
    room = site_server.ops("bot_room", game="shengji", humans=1, autoplay=False, ready=True,
                           bot_delay_ms=600, turn_seconds=600, prefix="morph")
    ctx, page = open_page(browser, base, room["users"][0]["cookie"], PHONE)
    try:
        page.goto(f"{base}/rooms/{room['room_id']}/")
        page.wait_for_function("() => [...document.querySelectorAll('#my-hand [data-card]')]"
                               ".reduce((n, e) => n + parseInt(e.dataset.count || '1', 10), 0) === 52")
        page.wait_for_selector("#hand-tools")
        assert page.evaluate(MARK)
        # my turn of the auction (the bots wait): select a card, then pass (a POST
        # answered 204: the push of that version changes the table)
        page.wait_for_selector("#table[data-my-turn='1']", timeout=60_000)
        card = page.locator("#my-hand [data-card]").nth(7)
        card.tap()
        want = selected(page)
        assert len(want) == 1
        v = version(page)
        with page.expect_response(lambda r: r.url.endswith("/act")) as answer:
            page.click('#actions [data-action="pass"]')
        assert answer.value.status == 204
        newer_than(page, v)
        assert page.evaluate(SAME) == ALL_SAME
        assert page.locator("#table").count() == 1
        assert selected(page) == want  # (a pass is no card play: the selection stays)
        # then the bots' moves arrive over the websocket, one table each
        for _ in range(2):
            v = version(page)
            newer_than(page, v)
            assert page.evaluate(SAME) == ALL_SAME
            assert selected(page) == want
            assert page.input_value("#cards-input") == want[0]
        assert page.locator("#hand-tools").count() == 1
    finally:
        ctx.close()


def test_a_move_whose_button_left_the_page_leaves_the_table_whole(site_server, browser):
    """A push can take the clicked button off the page before its POST answer
    comes (the next seat's move); the answer (204) swaps nothing, and the
    pushes keep bringing the whole table."""
    base = site_server.web_url
    room = site_server.ops("bot_room", game="shengji", humans=1, autoplay=False, ready=True,
                           bot_delay_ms=600, turn_seconds=600, prefix="gone")
    ctx, page = open_page(browser, base, room["users"][0]["cookie"], DESKTOP)
    try:
        page.goto(f"{base}/rooms/{room['room_id']}/")
        page.wait_for_selector("#table[data-my-turn='1']", timeout=60_000)
        v = version(page)
        page.evaluate("""() => document.addEventListener('htmx:beforeRequest', ev => {
            const button = ev.detail.elt; setTimeout(() => button.remove(), 0); }, {once: true})""")
        page.click('#actions [data-action="pass"]')
        newer_than(page, v)
        assert page.locator("#table").count() == 1
        assert page.locator("#my-hand").count() == 1
        v = version(page)
        newer_than(page, v)  # and the next push morphs it as usual
        assert page.locator("#table").count() == 1
    finally:
        ctx.close()


RECORD = """() => {
    window.__pushes = [];
    let before = [];
    document.addEventListener('htmx:wsBeforeMessage', () => {
        before = [...document.querySelectorAll('#table .arrive')];
    });
    const record = () => {
        const hand = document.querySelector('#my-hand');
        const running = (el, name) => el.getAnimations({subtree: true}).some(
            a => a.animationName === name && a.playState === 'running');
        window.__pushes.push({
            version: document.querySelector('#table').dataset.version,
            hand: document.querySelector('#table').dataset.hand || '',
            arrive: [...document.querySelectorAll('#table .arrive')].map(el => ({
                kept: before.includes(el),  // (a pass shows no card: nothing to animate)
                running: el.querySelector('.mini') ? running(el, 'card-arrive') : null})),
            deal: !!(hand && hand.classList.contains('deal')),
            dealRunning: !!(hand && hand.classList.contains('deal') && running(hand, 'card-deal')),
        });
    };
    document.addEventListener('htmx:wsAfterMessage', record);
    document.addEventListener('htmx:afterSwap', record);
}"""


def test_plays_arrive_and_a_new_deal_deals_through_morphs(site_server, browser):
    base = site_server.web_url
    room = site_server.ops("bot_room", game="baohuang", humans=1, autoplay=True, ready=True,
                           bot_delay_ms=150, turn_seconds=60, prefix="mmot")
    ctx, page = open_page(browser, base, room["users"][0]["cookie"], DESKTOP)
    try:
        page.goto(f"{base}/rooms/{room['room_id']}/")
        page.wait_for_selector("#my-hand [data-card]")
        page.evaluate(RECORD)
        first_hand = page.locator("#table").get_attribute("data-hand")
        # on until the hand is over (everyone on 托管: the table then waits
        # for the player's 准备), then the next hand is dealt
        page.wait_for_selector('#table [data-action="ready"]', timeout=150_000)
        page.click('#table [data-action="ready"]')
        page.wait_for_function(
            "h => (window.__pushes || []).some(p => p.hand && p.hand !== h)", arg=first_hand, timeout=60_000)
        pushes = page.evaluate("() => window.__pushes")
        with_plays = [p for p in pushes if p["arrive"]]
        kept = sum(1 for p in with_plays for a in p["arrive"] if a["kept"])
        print(f"\n{len(pushes)} pushes, {len(with_plays)} with a new play, {kept} plays in a kept .arrive element")
        assert len(with_plays) >= 5
        stopped = [p for p in with_plays if any(a["running"] is False for a in p["arrive"])]
        assert any(a["running"] for p in with_plays for a in p["arrive"])
        assert not stopped, stopped
        deals = [p for p in pushes if p["hand"] and p["hand"] != first_hand]
        assert deals[0]["deal"] and deals[0]["dealRunning"], deals[0]
    finally:
        ctx.close()


#: The table as pushed (closed, the server's choice selected), a ``<details>``
#: and a ``<select>`` added to it (no table shows both yet); the page's copy
#: open and changed by the viewer; then morphed as a push is (Idiomorph's
#: defaults, which htmx's morph swap uses).
VIEWER_CHOICES = """() => {
    const table = document.getElementById('table');
    const probe = '<details id="probe-details"><summary>s</summary><p>x</p></details>'
        + '<select id="probe-select"><option value="a" selected>a</option><option value="b">b</option></select>';
    table.insertAdjacentHTML('beforeend', probe);
    const copy = table.cloneNode(true);  // the server sends no strip width (table_ui.js's)
    copy.querySelector('#my-hand').removeAttribute('style');
    copy.querySelector('#my-hand').removeAttribute('data-rows');
    const pushed = copy.outerHTML;
    const details = document.getElementById('probe-details');
    const select = document.getElementById('probe-select');
    details.querySelector('summary').click();
    select.value = 'b';
    select.dispatchEvent(new Event('change', {bubbles: true}));
    const hand = document.getElementById('my-hand');
    const strip = hand.style.getPropertyValue('--strip');
    Idiomorph.morph(table, pushed);
    return {details: document.getElementById('probe-details') === details && details.open,
            select: document.getElementById('probe-select') === select && select.value === 'b',
            strip: !!strip && hand.style.getPropertyValue('--strip') === strip};
}"""


def test_the_tables_morph_keeps_what_the_viewer_chose(site_server, browser):
    with bot_table(site_server, browser, "shengji", DESKTOP, prefix="chose", autoplay=False,
                   bot_delay_ms=600, turn_seconds=600) as page:
        page.wait_for_selector("#my-hand [data-card]", timeout=60_000)
        assert page.evaluate(VIEWER_CHOICES) == {"details": True, "select": True, "strip": True}
