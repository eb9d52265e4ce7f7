"""Every page built on ``games.live.group_push.GroupPushConsumer`` morphs the
fragment its socket pushes (``PUSH_SWAP``, ``static/games/morph.js``): the page
keeps its elements, so a click pressed on a button just before a push and
released after it still lands on that button, and what the viewer typed stays.
With the old ``outerHTML`` swap each push replaced them all (the click sent no
form, the typed value went back to the server's).

For each page a push is caused while the page is open and marked: the element
the viewer may be pressing is remembered (``window.__kept``) and, once the
push is in, must be the page's element still.  The event page has its own
tests (``test_browser_event_morph.py``).

* the lobby of a game (``#room-list``): a second player creates a room; the
  push adds its row, and the link of the room listed before is the same;
* the quick-play queue (``#queue-status``): the page's ping (sent every 10 s;
  here at once) is answered with the status; the 退出队列 button is the same;
* an arena (``#arena-live``): a second page of the organiser adds bot players;
  the push lists them, and the page keeps its 加入竞技场 button and the
  number the organiser typed in the bot count.

Each test reads the live page in one ``wait_for_function`` call: the
condition that the push is in, and what was kept, at the same moment."""

from __future__ import annotations

import re

import pytest

from .conftest import SHOTS
from .helpers import PHONE, open_page
from .test_browser_arena import new_arena
from .test_browser_event import COUNT_PUSHES, new_page, organiser_with_club

pytestmark = pytest.mark.browser

#: Counts the messages of the quick-play page's own socket (queue.js opens a
#: plain WebSocket, not htmx's; the header's badge opens another, not counted)
#: and keeps it in ``window.__socket``.
COUNT_SOCKET_MESSAGES = """
window.__messages = 0;
(function () {
  const Native = window.WebSocket;
  function Counted(url, protocols) {
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    if (String(url).includes('/ws/quickplay/')) {
      socket.addEventListener('message', () => { window.__messages += 1; });
      window.__socket = socket;
    }
    return socket;
  }
  Counted.prototype = Native.prototype;
  for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Counted[k] = Native[k];
  window.WebSocket = Counted;
})();
"""


def _kept(page, condition: str, reading: str, arg, timeout: int = 60_000) -> dict:
    """Wait until ``condition`` holds, and return ``reading`` taken in the same
    call (the page may be pushed again between two calls)."""
    handle = page.wait_for_function(
        f"arg => ({condition}) ? ({reading}) : null", arg=arg, timeout=timeout)
    return handle.json_value()


def test_lobby_push_keeps_the_listed_rooms_links(site_server, browser):
    base = site_server.web_url
    listed = site_server.ops("bot_room", game="shengji", humans=1, autoplay=False, ready=False,
                             prefix="lm")["room_id"]
    viewer = site_server.ops("new_user", prefix="lv")
    creator = site_server.ops("new_user", prefix="lc")
    ctx, page = open_page(browser, base, viewer["cookie"], PHONE)
    ctx.add_init_script(COUNT_PUSHES)
    other_ctx, other = open_page(browser, base, creator["cookie"], PHONE)
    try:
        page.goto(base + "/g/shengji/")
        page.wait_for_function("window.__pushes > 0", timeout=60_000)  # the push on connect is in
        pushes = page.evaluate("""id => {
            window.__kept = {link: document.querySelector(`#room-list tr[data-room="${id}"] a`),
                             list: document.getElementById('room-list')};
            return window.__kept.link ? window.__pushes : -1; }""", listed)
        assert pushes > 0

        other.goto(base + "/rooms/new/?game=shengji")
        other.click('[data-action="create-room-submit"]')
        other.wait_for_url(re.compile(r"/rooms/\d+/$"), timeout=60_000)
        created = int(re.search(r"/rooms/(\d+)/$", other.url).group(1))

        kept = _kept(
            page,
            "window.__pushes > arg.n && document.querySelector(`#room-list tr[data-room=\"${arg.created}\"]`)",
            """{link: window.__kept.link === document.querySelector(`#room-list tr[data-room="${arg.listed}"] a`),
                list: window.__kept.list === document.getElementById('room-list')}""",
            {"n": pushes, "created": created, "listed": listed})
        page.screenshot(path=str(SHOTS / "push-morph-lobby-375.png"), full_page=True)
        assert kept == {"link": True, "list": True}
    finally:
        other_ctx.close()
        ctx.close()


def test_quickplay_push_keeps_the_leave_button(site_server, browser):
    base = site_server.web_url
    player = site_server.ops("new_user", prefix="qm")
    ctx, page = open_page(browser, base, player["cookie"], PHONE)
    ctx.add_init_script(COUNT_SOCKET_MESSAGES)
    try:
        page.goto(base + "/play/shengji/")
        page.select_option("#bot-wait", "never")  # no table: the queue stays
        page.click('[data-action="play-now"]')
        # the page the POST's redirect loads (the init script counts again)
        page.wait_for_selector('#queue-status[data-state="waiting"]', timeout=60_000)
        page.wait_for_function("""() => window.__messages > 0 && window.__socket.readyState === 1
            && !!document.querySelector('#queue-status[data-state="waiting"] [data-action="leave-queue"]')""",
                           timeout=60_000)
        messages = page.evaluate("""() => {
            window.__kept = {leave: document.querySelector('[data-action="leave-queue"]'),
                             status: document.getElementById('queue-status')};
            window.__socket.send('ping');  // the page's sign of life, answered with its status
            return window.__messages; }""")

        kept = _kept(
            page, "window.__messages > arg",
            """{leave: window.__kept.leave === document.querySelector('[data-action="leave-queue"]'),
                status: window.__kept.status === document.getElementById('queue-status'),
                state: document.getElementById('queue-status').dataset.state}""",
            messages)
        page.screenshot(path=str(SHOTS / "push-morph-quickplay-375.png"), full_page=True)
        assert kept == {"leave": True, "status": True, "state": "waiting"}
        # the button still works: the player leaves the queue
        page.click('[data-action="leave-queue"]')
        page.wait_for_selector('#queue-status[data-state="none"]', state="attached", timeout=60_000)
    finally:
        ctx.close()


def test_arena_push_keeps_the_join_button_and_the_typed_count(site_server, browser):
    base = site_server.web_url
    page, _link, _tag = organiser_with_club(browser, base, "am")
    page.set_viewport_size(PHONE)
    arena_url = new_arena(page, "推送竞技场")
    page.wait_for_function("window.__pushes > 0", timeout=60_000)  # the push on connect is in
    page.fill("#arena-bots-count", "3")
    pushes = page.evaluate("""() => {
        window.__kept = {join: document.getElementById('arena-join'),
                         count: document.getElementById('arena-bots-count')};
        return window.__pushes; }""")

    other = new_page(browser)
    other.context.add_cookies(page.context.cookies())
    other.goto(arena_url)
    other.fill("#arena-bots-count", "2")
    other.click('#arena-bots button[type="submit"]')
    other.wait_for_selector("#arena-board tr[data-player]", timeout=60_000)

    kept = _kept(
        page, "window.__pushes > arg && document.querySelectorAll('#arena-board tr[data-player]').length === 2",
        """{join: window.__kept.join === document.getElementById('arena-join'),
            count: window.__kept.count === document.getElementById('arena-bots-count'),
            typed: document.getElementById('arena-bots-count').value}""",
        pushes)
    page.screenshot(path=str(SHOTS / "push-morph-arena-375.png"), full_page=True)
    assert kept == {"join": True, "count": True, "typed": "3"}
    other.context.close()
    page.context.close()
