"""the four-colour deck in headless Chromium: with the menu's
"four-colour" box ticked the suits of a 升级 hand of 52 cards take four
colours (♦ differs from ♥ and ♣ from ♠, the index's colour and the face's
filter); unticked (the default) ♦ is drawn as ♥ and ♣ as ♠."""

from __future__ import annotations

import pytest

from .helpers import PHONE, bot_table, set_pref

pytestmark = pytest.mark.browser

#: the computed colour and face filter of the first number card of each suit
#: in the hand (jokers, marked codes and court cards aside: a court club keeps
#: its drawn figure, only its index turns green); level cards and trumps keep
#: their suit
COLOURS = """() => {
    const out = {};
    for (const s of ['S', 'H', 'D', 'C']) {
        const card = [...document.querySelectorAll('#my-hand [data-card]')]
            .find(c => /^(10|[2-9A])[SHDC]$/.test(c.dataset.card) && c.dataset.card.endsWith(s));
        out[s] = card ? [getComputedStyle(card).color, getComputedStyle(card, '::before').filter] : null;
    }
    return out;
}"""


def test_four_colour_deck_on_and_off(site_server, browser):
    with bot_table(site_server, browser, "shengji", PHONE, prefix="four", autoplay=False,
                   bot_delay_ms=600, turn_seconds=600) as page:
        page.wait_for_function("() => [...document.querySelectorAll('#my-hand [data-card]')]"
                               ".reduce((n, e) => n + parseInt(e.dataset.count || '1', 10), 0) === 52")
        off = page.evaluate(COLOURS)
        assert all(off.values()), off  # 52 cards of four decks: every suit is there
        assert off["D"][0] == off["H"][0] and off["C"][0] == off["S"][0], off
        assert off["H"][0] != off["S"][0], off

        set_pref(page, "fourColour", True)
        assert page.evaluate("() => document.documentElement.classList.contains('four-colour')")
        on = page.evaluate(COLOURS)
        assert on["D"][0] != on["H"][0] and on["C"][0] != on["S"][0], on
        assert len({on[s][0] for s in "SHDC"}) == 4, on
        assert on["D"][1] != off["D"][1] and on["C"][1] != off["C"][1], (on, off)  # the faces too
        assert on["H"] == off["H"] and on["S"] == off["S"], (on, off)

        # kept across pages (localStorage), and off again when unticked
        page.reload()
        page.wait_for_function("() => [...document.querySelectorAll('#my-hand [data-card]')]"
                               ".reduce((n, e) => n + parseInt(e.dataset.count || '1', 10), 0) === 52")
        assert page.evaluate(COLOURS)["D"][0] == on["D"][0]
        set_pref(page, "fourColour", False)
        again = page.evaluate(COLOURS)
        assert again["D"][0] == again["H"][0] and again["C"][0] == again["S"][0], again
