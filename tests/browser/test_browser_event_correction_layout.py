"""A finished table's open 更正 form does not squeeze the round's table.

The form used to open inside the last cell of the table's row: at 375 px the
names and results columns wrapped a character or two a line and the form ran
off into the table's horizontal scroll; at 1280 px its "No-show" label was
clipped.  The form now opens in a row of its own under the table's row
(templates/clubs/_correction_form.html), so at 375x812, 812x375 and 1280x800,
in zh-Hans and English: closed, the form's row takes no room; open, the names
and results cells keep at least a few characters' width, the form fits inside
the table's visible width, no label or control of the form is clipped or
cut by the form's edge, and the table itself fits its box (in English at
375 px its last column, ▼ Correct, used to lie in the sideways scroll: a
phone's cells now take a smaller type, static/games/design.css).  The form is
opened by its row's 更正 button (a disclosure, static/games/disclosure.js).

The finished table's result cell reads a side a line: at 375x812 it takes at
most MAX_RESULT_LINES lines (in English it ran to nine, a word or two a line).
At every size and in both languages no line of it starts or ends with a
separator (a figure's " ·" used to end a wrapped line: "Margin 4 ·" over
"Points 16"), and each entrant's name in the names cell stands whole on one
line (at 375 px "机器人1 — 机" over "器人2").  A standings tie-break's
figure never stands on a line without its label (in English at 375 px
"Game points" over "-21": the two are joined by a no-break space).
"""

from __future__ import annotations

import re

import pytest

from .conftest import SHOTS
from .helpers import LINE_TEXTS
from .test_browser_event import click_live, organiser_event

pytestmark = pytest.mark.browser

#: At most this many lines for a finished table's result cell at 375 px (one
#: line per side, each wrapping once at most): the English result used to run
#: to eight lines ("Level | margin | -1 · | Game | points -4 | | Level ...").
MAX_RESULT_LINES = 4

#: The separator the figures of a side's result, and the standings' tie-breaks,
#: had between them in the text (now a gap of the layout's): no line of the
#: result cell or of a tie-breaks cell starts or ends with it.
SEPARATOR = "·"

#: A line of a tie-breaks cell that holds a figure and nothing else.
BARE_FIGURE = re.compile(r"[-+−]?\d+(?:[.,]\d+)?\s*%?")

SIZES = ({"width": 375, "height": 812}, {"width": 812, "height": 375}, {"width": 1280, "height": 800})

#: Opens round 1's first 更正 form and, once it is laid out, measures the
#: round's table, all in one reading of the live page (a push may come at any time).
MEASURE = """() => {
  const lineTexts = """ + LINE_TEXTS + """;
  const toggle = document.querySelector('#round-1 button.correction-toggle');
  if (!toggle) return null;
  const form = document.querySelector('#round-1 .correction-form');
  if (toggle.getAttribute('aria-expanded') !== 'true') {  // closed, the form's row takes no room
    window.__closedFormWidth = form ? form.getBoundingClientRect().width : -1;
    toggle.click();
  }
  if (!form || form.getBoundingClientRect().width === 0) return null;
  const wrapper = document.querySelector('#round-1 .scroll-x');
  const table = wrapper.querySelector('table.event-tables');
  const row = table.querySelector('tbody tr[data-table]');
  const em = parseFloat(getComputedStyle(row.cells[1]).fontSize);
  const box = wrapper.getBoundingClientRect();
  const formBox = form.getBoundingClientRect();
  const clipped = [];
  for (const el of form.querySelectorAll('label, button, input:not([type="hidden"]), legend')) {
    const r = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1 || r.right > formBox.right + 1 || r.left < formBox.left - 1)
      clipped.push(el.textContent.trim() || el.name);
  }
  // the lines of text the finished table's result cell takes: the distinct
  // tops of its text's line boxes
  const tops = [];
  const walker = document.createTreeWalker(row.cells[3], NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects())
      if (r.height > 0 && !tops.some(t => Math.abs(t - r.top) < r.height / 2)) tops.push(r.top);
  }
  return {
    resultLines: tops.length,
    resultText: lineTexts(row.cells[3]),
    tiebreakText: [...document.querySelectorAll('#standings table.standings tbody td:nth-child(4)')]
      .flatMap(cell => lineTexts(cell)),
    entrants: row.cells[1].textContent,
    entrantLines: lineTexts(row.cells[1]),
    names: row.cells[1].getBoundingClientRect().width / em,
    result: row.cells[3].getBoundingClientRect().width / em,
    formInside: formBox.left >= box.left - 1 && formBox.right <= box.right + 1,
    clipped,
    noShow: !!form.querySelector('input[type="checkbox"]'),
    closedFormWidth: window.__closedFormWidth,
    tableFits: table.getBoundingClientRect().width <= box.width + 1,
  };
}"""


def test_an_open_correction_form_keeps_the_tables_columns(site_server, browser):
    page, event_url = organiser_event(site_server, browser, "cl", bots=2, rounds=2, hands=1, bot_delay_ms=0)
    click_live(page, "#start-round")
    page.wait_for_selector('#round-1 tr[data-finished="1"]', timeout=300_000)
    base = site_server.web_url
    SHOTS.mkdir(exist_ok=True)
    failures = []
    for language in ("zh-hans", "en"):
        page.context.add_cookies([{"name": "django_language", "value": language, "url": base}])
        for size in SIZES:
            page.set_viewport_size(size)
            page.goto(event_url)
            page.wait_for_function("window.__pushes > 0")  # the push on connect is in
            seen = page.wait_for_function(MEASURE, timeout=30_000).json_value()
            page.locator("#round-1").screenshot(
                path=str(SHOTS / f"event-correction-{language}-{size['width']}x{size['height']}.png"))
            page.locator("#standings").screenshot(
                path=str(SHOTS / f"event-standings-{language}-{size['width']}x{size['height']}.png"))
            where = f"{language} {size['width']}x{size['height']}"
            assert seen["noShow"], where
            if size["width"] == 375 and seen["resultLines"] > MAX_RESULT_LINES:
                failures.append((where, "result lines", seen["resultLines"]))
            for cell in ("resultText", "tiebreakText"):
                dangling = [line for line in seen[cell]
                            if line.strip().startswith(SEPARATOR) or line.strip().endswith(SEPARATOR)]
                if dangling:
                    failures.append((where, "a separator at a line's edge", cell, seen[cell]))
            bare = [line for line in seen["tiebreakText"] if BARE_FIGURE.fullmatch(line.strip())]
            if bare:
                failures.append((where, "a tie-break's figure on a line of its own", seen["tiebreakText"]))
            cut = [name.strip() for name in seen["entrants"].split("—")
                   if not any(name.strip() in line for line in seen["entrantLines"])]
            if cut:
                failures.append((where, "names cut across lines", cut, seen["entrantLines"]))
            if (seen["closedFormWidth"] != 0 or seen["names"] < 4 or seen["result"] < 3
                    or not seen["formInside"] or seen["clipped"] or not seen["tableFits"]):
                failures.append((where, seen))
    assert failures == [], repr(failures)
