"""the optional sounds in headless Chromium: off by default (a play
pushed to the table makes no sound), and once the menu's "sounds" box is
ticked a play pushed to the table plays static/games/sounds/play.wav.

The page's ``Audio`` is wrapped by an init script that records every
``new Audio(src)`` whose ``play()`` is called (the browser's audio itself is
not heard in a headless run)."""

from __future__ import annotations

import pytest

from .helpers import PHONE, bot_table, set_pref

pytestmark = pytest.mark.browser

RECORD = """(() => {
    window.__sounds = [];
    const Real = window.Audio;
    window.Audio = function (src) {
        const a = new Real(src);
        a.play = () => { window.__sounds.push(String(src)); return Promise.resolve(); };
        return a;
    };
})();"""

#: a new play on the felt: any seat's played cards that were not there before
NEW_PLAY = """() => {
    const now = [...document.querySelectorAll('#table [data-played-seat]:not(.won)')]
        .map(p => p.dataset.playedSeat + ':' + p.textContent).join('|');
    if (window.__plays === undefined) { window.__plays = now; return false; }
    const changed = now !== window.__plays && now !== '';
    window.__plays = now;
    return changed;
}"""


def test_sounds_off_by_default_and_a_play_sounds_when_on(site_server, browser):
    with bot_table(site_server, browser, "baohuang", PHONE, prefix="snd", autoplay=True,
                   bot_delay_ms=500, turn_seconds=60, init_script=RECORD) as page:
        page.wait_for_selector("#table")
        assert page.evaluate("() => localStorage.getItem('cardroom.sounds')") is None
        page.click("#site-menu > summary")
        assert not page.locator('[data-pref="sounds"]').is_checked()
        page.click("#site-menu > summary")
        # off: plays come and go on the felt, nothing is played
        page.wait_for_function(NEW_PLAY, timeout=90_000, polling=100)
        page.wait_for_function(NEW_PLAY, timeout=60_000, polling=100)
        assert page.evaluate("() => window.__sounds") == []

        set_pref(page, "sounds", True)
        assert page.evaluate("() => localStorage.getItem('cardroom.sounds')") == "1"
        page.wait_for_function("() => window.__sounds.some(s => s.endsWith('/play.wav'))", timeout=60_000)
        sounds = page.evaluate("() => window.__sounds")
        assert all("/static/games/sounds/" in s for s in sounds), sounds
