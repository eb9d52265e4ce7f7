"""A joker's word stays on its card (session 38): in English a mini joker
shows JOKER top to bottom on its face (cards.css), and at .5rem the word
was 46 px tall, so on the 35 px face of a card in a line of text (the
review's "Played:", its flagged decisions) and the 41 px face of the
replay's hands its E and R stood below the card.  The word's size now
follows the face's: its foot stays on the face in every context, at a
phone's, a phone's sideways and a desktop's width."""

from __future__ import annotations

import pytest

from .conftest import SHOTS

pytestmark = pytest.mark.browser

SHEETS = ("games/design.css", "games/site.css", "vendor/svg-cards/faces.css", "games/cards.css")

BJ = '<span class="mini joker red" data-card="BJ">Big Joker</span>'
SJ = '<span class="mini joker" data-card="SJ">Small Joker</span>'
#: the contexts a mini joker stands in: a line of text, a list item, a
#: table cell, the replay's hands, a bare strip
BODY = (f'<p id="line">Played: <span class="move-cards">{BJ}{BJ}</span></p>'
        f'<ol><li id="item">Step 198 · played <span class="move-cards">{SJ}{BJ}</span>, better Pass</li></ol>'
        f'<table><tr><td id="cell">{BJ}</td></tr></table>'
        f'<section class="replay-hands"><div class="replay-hand" id="hands"><span class="stack">{BJ}</span>'
        f'<span class="stack">{SJ}</span></div></section>'
        f'<div id="strip">{BJ}{SJ}</div>')

#: Per mini joker: the face's height and the word's foot (its top inset
#: plus its height), in px.
FEET = """() => [...document.querySelectorAll('.mini.joker')].map(e => {
  const a = getComputedStyle(e, '::after'), f = getComputedStyle(e, '::before');
  return {where: e.closest('[id]').id, face: parseFloat(f.height),
          foot: parseFloat(a.top) + parseFloat(a.height), word: a.content, size: parseFloat(a.fontSize)};
})"""


@pytest.mark.parametrize("size", [{"width": 375, "height": 812}, {"width": 812, "height": 375},
                                  {"width": 1280, "height": 800}], ids=lambda s: f"{s['width']}x{s['height']}")
def test_the_joker_word_stays_on_its_face(site_server, browser, size):
    ctx = browser.new_context(viewport=size, locale="en-US")
    try:
        page = ctx.new_page()
        links = "".join(f'<link rel="stylesheet" href="{site_server.web_url}/static/{s}">' for s in SHEETS)
        page.set_content(f'<!doctype html><html lang="en"><head>{links}</head><body>{BODY}</body></html>',
                         wait_until="load")
        feet = page.evaluate(FEET)
        assert len(feet) == 9, feet
        for f in feet:
            assert f["word"] == '"JOKER"', f
            assert f["foot"] <= f["face"] + 0.5, f  # the E and R on the card
            assert f["size"] >= 5.5, f  # still letters (6 px on the smallest face)
        page.screenshot(path=str(SHOTS / f"joker-word-{size['width']}x{size['height']}.png"))
    finally:
        ctx.close()
