"""The event page morphs its pushed fragment in (static/games/morph.js, as every
page built on games.live.group_push; test_browser_push_morph.py tests the
others): an organiser runs round 1 of a 升级 event of two bot pairs (one hand),
reopens the event page, opens the finished table's 更正 form (its disclosure
button: aria-expanded, the form's row shown) and types a reason;
a second page of the same organiser then pairs round 2, which pushes a new
``#event-live`` to the first page. The push is applied (round 2's section
appears, the page is not reloaded) and the organiser's work is kept: the same
更正 button, still expanded, its row still shown, the typed reason, and the same
button of the form; the 更正 button (pressed from the keyboard) then closes it.
With the fragment replaced (the old ``outerHTML`` swap) the form closed on
every push, every second while other tables played, and lost the text.

Before a round starts, the same holds for the pairing's preview: a push (the
other page pairs again) keeps the 开始本轮 button the organiser may be pressing
and the two entries chosen in the swap's selects."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .test_browser_event import COUNT_PUSHES, click_live, organiser_event

pytestmark = pytest.mark.browser

REASON = "第三墩记错了"


def second_page(browser, page, url: str):
    """Another page of ``page``'s user (its cookies) at ``url``."""
    context = browser.new_context(viewport={"width": 900, "height": 900}, locale="zh-CN",
                                  storage_state=page.context.storage_state())
    context.add_init_script(COUNT_PUSHES)
    other = context.new_page()
    other.goto(url)
    return other


#: The first 更正 disclosure's state, read in one go: its button's
#: aria-expanded, whether its form's row is hidden and takes room, the reason typed.
TOGGLE_STATE = """() => {
  const toggle = document.querySelector('button.correction-toggle');
  const row = toggle && document.getElementById(toggle.getAttribute('aria-controls'));
  if (!row) return null;
  return {expanded: toggle.getAttribute('aria-expanded'), hidden: row.hidden,
          shown: row.getBoundingClientRect().height > 0,
          reason: row.querySelector('input[name="reason"]').value};
}"""


def test_a_push_keeps_the_open_correction_form(site_server, browser):
    page, event_url = organiser_event(site_server, browser, "mo", bots=2, rounds=2, hands=1, bot_delay_ms=0)
    click_live(page, "#start-round")
    page.wait_for_selector('#round-1 tr[data-finished="1"]', timeout=300_000)

    page.goto(event_url)
    page.wait_for_function("window.__pushes > 0")  # the push on connect is in
    closed = page.wait_for_function(TOGGLE_STATE).json_value()
    assert closed == {"expanded": "false", "hidden": True, "shown": False, "reason": ""}
    page.click("button.correction-toggle")
    opened = page.wait_for_function(f"() => {{ const s = ({TOGGLE_STATE})(); return s && s.shown && s; }}").json_value()
    assert opened["expanded"] == "true" and not opened["hidden"]
    page.fill('.correction-form input[name="reason"]', REASON)
    page.evaluate("""() => { window.__kept = {toggle: document.querySelector('button.correction-toggle'),
                                            button: document.querySelector('.correction-form button')}; }""")
    pushes = page.evaluate("window.__pushes")

    other = second_page(browser, page, event_url)
    other.click("#pair-round")
    other.wait_for_selector("#round-2")

    kept = page.wait_for_function(f"""n => window.__pushes > n && document.getElementById('round-2') && {{
        same: window.__kept.toggle === document.querySelector('button.correction-toggle')
              && window.__kept.button === document.querySelector('.correction-form button'),
        ...({TOGGLE_STATE})()}}""", arg=pushes, timeout=60_000).json_value()
    page.screenshot(path=str(SHOTS / "event-morph-correction.png"), full_page=True)
    assert kept == {"same": True, "expanded": "true", "hidden": False, "shown": True, "reason": REASON}

    page.focus("button.correction-toggle")
    page.keyboard.press("Enter")  # a real button: the keyboard closes it too
    closed = page.wait_for_function(f"() => {{ const s = ({TOGGLE_STATE})(); return s && !s.shown && s; }}").json_value()
    assert closed == {"expanded": "false", "hidden": True, "shown": False, "reason": REASON}
    other.context.close()


def test_a_push_keeps_the_preview_buttons_and_chosen_swap(site_server, browser):
    page, event_url = organiser_event(site_server, browser, "mp", bots=4, rounds=2, hands=1, bot_delay_ms=0)
    page.wait_for_function("window.__pushes > 0")  # the push on connect is in
    options = page.eval_on_selector_all("#swap-a-1 option", "os => os.map(o => o.value)")
    assert len(options) == 4
    page.select_option("#swap-a-1", options[1])
    page.select_option("#swap-b-1", options[2])
    page.evaluate("window.__start = document.getElementById('start-round')")
    pushes = page.evaluate("window.__pushes")

    other = second_page(browser, page, event_url)
    click_live(other, '#round-1 form[action$="/pair"] button')  # 重新配对
    other.wait_for_selector("#start-round")

    page.wait_for_function("n => window.__pushes > n", arg=pushes, timeout=60_000)
    kept = page.evaluate("""() => ({
        start: window.__start === document.getElementById('start-round'),
        a: document.getElementById('swap-a-1').value, b: document.getElementById('swap-b-1').value})""")
    assert kept == {"start": True, "a": options[1], "b": options[2]}
    other.context.close()
