"""bytes per move, in headless Chromium against the embedded site:
pushes carry only the table's regions that changed (the others as stubs the
page keeps, games/render/regions.py), and the page still shows exactly what a
whole render shows.

After the player's pass in a 升級 auction the bots' moves arrive over the
websocket: at least two of them keep the hand (a stub for ``#my-hand``) and
the card the player selected stays selected; when the table waits for the
player again, the page's ``#table`` (each region's hash and text, every card
code, the root's version, hand, action count and turn) equals the ``#table``
of a fresh GET of the page.  Printed: pushes, pushes with stubs, and the
page's requests for the whole table (a stub it could not apply).
"""

from __future__ import annotations

import pytest

from .helpers import PHONE, bot_table, selected, version

pytestmark = pytest.mark.browser

RECORD = """() => {
    window.__rec = {pushes: 0, partial: 0, handKept: 0, full: 0};
    document.addEventListener('htmx:wsBeforeMessage', ev => {
        const m = ev.detail.message || '';
        if (!m.startsWith('<div id="table"')) return;
        window.__rec.pushes++;
        if (m.includes('data-keep=')) window.__rec.partial++;
        if (/ id="my-hand" data-keep="/.test(m)) window.__rec.handKept++;
    });
    document.getElementById('table-full').addEventListener('submit', () => { window.__rec.full++; });
}"""

#: What the page's #table shows, comparable with a fresh GET's: per region its
#: hash and text (the countdowns' ticking text and the page's own hand tools
#: left out), the cards, and the root's state.
DIGEST = """async () => {
    const digest = t => {
        const regions = {};
        t.querySelectorAll('[data-h]').forEach(e => {
            const c = e.cloneNode(true);
            c.querySelectorAll('.countdown, .seat-timer, #hand-tools').forEach(x => x.remove());
            regions[e.id] = [e.getAttribute('data-h'), c.textContent.replace(/\\s+/g, ' ').trim()];
        });
        const codes = attr => [...t.querySelectorAll('[' + attr + ']')].map(e => e.getAttribute(attr));
        return {regions, hand: codes('data-card').sort(), shown: codes('data-c'), played: codes('data-played'),
                stubs: t.querySelectorAll('[data-keep]').length,
                root: ['data-version', 'data-hand', 'data-actions', 'data-my-turn', 'data-status'].map(a => t.getAttribute(a))};
    };
    const live = digest(document.querySelector('#table'));
    const html = await (await fetch(location.pathname, {credentials: 'same-origin'})).text();
    const fresh = digest(new DOMParser().parseFromString(html, 'text/html').querySelector('#table'));
    return {live, fresh};
}"""


def test_partial_pushes_leave_the_page_a_whole_render_shows(site_server, browser):
    with bot_table(site_server, browser, "shengji", PHONE, prefix="part", autoplay=False,
                   bot_delay_ms=300, turn_seconds=600) as page:
        page.wait_for_function("() => [...document.querySelectorAll('#my-hand [data-card]')]"
                               ".reduce((n, e) => n + parseInt(e.dataset.count || '1', 10), 0) === 52")
        page.evaluate(RECORD)
        page.wait_for_selector("#table[data-my-turn='1']", timeout=60_000)
        page.locator("#my-hand [data-card]").nth(5).tap()
        want = selected(page)
        assert len(want) == 1
        v = version(page)
        page.click('#actions [data-action="pass"]')
        page.wait_for_function("v => parseInt(document.querySelector('#table').dataset.version, 10) > v", arg=v)
        # the bots' moves: pushes that keep the hand, the selection with it
        page.wait_for_function("() => window.__rec.handKept >= 2", timeout=60_000)
        assert selected(page) == want
        assert page.input_value("#cards-input") == want[0]
        # the table waits for the player again: the page equals a fresh GET's table
        page.wait_for_selector("#table[data-my-turn='1']", timeout=90_000)
        page.wait_for_timeout(500)
        got = page.evaluate(DIGEST)
        live, fresh = got["live"], got["fresh"]
        assert live["stubs"] == 0  # no stub left on the page
        assert live["root"] == fresh["root"]
        assert live["hand"] == fresh["hand"] and live["shown"] == fresh["shown"] and live["played"] == fresh["played"]
        assert live["regions"] == fresh["regions"]
        rec = page.evaluate("() => window.__rec")
        print(f"\n{rec['pushes']} pushes, {rec['partial']} with stubs ({rec['handKept']} keeping the hand), "
              f"{rec['full']} asked whole; {len(live['regions'])} regions compared")
        assert rec["partial"] >= 2
        if want[0] in live["hand"]:
            assert want[0] in selected(page) or page.locator("#my-hand.give-mode").count()
