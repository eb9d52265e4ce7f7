"""An arena in Chromium (docs/tournaments.md "Arena"): an organiser opens a
保皇 arena with the form, adds four bot players and joins: the five are
seated at once and the push takes the player's page to the table.  A visitor watches the arena
page: the leaderboard is pushed (the player's hand count rises from 0 to 1
with no reload).  The player hands the table to 托管 and stays on its page; when its hand
ends the table closes, the page counts down and goes back to the arena, the
five go back to the pool and, after the arena's wait for a table that repeats
table-mates, are seated again: the arena page takes the player to the new
table by itself."""

from __future__ import annotations

import re

import pytest

from .conftest import SHOTS
from .test_browser_event import new_page, organiser_with_club


def new_arena(page, name: str, turn_seconds: int | None = None) -> str:
    """Open a 保皇 arena of 20 minutes (bots without delay) from the club page
    ``page`` is on, with the form; return the arena page's URL once it shows."""
    page.click("#new-arena")
    page.fill("#id_name", name)
    page.select_option("#id_game", "baohuang")
    page.fill("#id_minutes", "20")
    if turn_seconds is not None:
        page.fill("#id_turn_seconds", str(turn_seconds))
    page.fill("#id_bot_delay_ms", "0")
    page.click('#arena-form button[type="submit"]')
    page.wait_for_selector("#arena-live")
    return page.url

pytestmark = pytest.mark.browser


def test_arena_page_live_leaderboard_and_reseat(site_server, browser):
    base = site_server.web_url
    page, _link, _tag = organiser_with_club(browser, base, "ar")
    arena_url = new_arena(page, "周五竞技场", turn_seconds=5)
    assert re.search(r"/clubs/arenas/\d+/$", arena_url)
    page.fill('#arena-bots input[name="count"]', "4")
    page.click('#arena-bots button[type="submit"]')
    page.wait_for_selector('#arena-board tr[data-player]')

    watcher = new_page(browser)  # a visitor, not signed in
    watcher.goto(arena_url)
    watcher.wait_for_selector('#arena-board tr[data-player]')
    watcher.evaluate("window.__notReloaded = true")

    page.click("#arena-join")
    # seated at once: the push that names the table takes the page there (or,
    # if the join's own answer arrived first, the page links to it)
    page.wait_for_function(
        "() => location.pathname.startsWith('/rooms/') || !!document.getElementById('arena-my-table')",
        timeout=60_000)
    if page.url.startswith(base + "/rooms/"):
        first_room = re.search(r"/rooms/(\d+)/", page.url).group(1)
    else:
        first_room = page.locator("#arena-my-table").get_attribute("data-room")
        page.goto(base + f"/rooms/{first_room}/")
    assert watcher.locator('#arena-board tr[data-player]').count() == 5
    watcher.wait_for_selector("#arena-tables a")
    page.locator('[data-action="autoplay-on"]').click(timeout=60_000)
    back = page.locator('a[data-link="arena"]')  # the table links back to its arena
    assert back.get_attribute("href") == arena_url.removeprefix(base) + f"?from={first_room}"
    # pushed to the visitor: the player's row counts the hand (no reload)
    watcher.wait_for_function(
        "() => [...document.querySelectorAll('#arena-board tr[data-player]')].some(r => r.dataset.hands === '1')",
        timeout=240_000,
    )
    assert watcher.evaluate("window.__notReloaded === true")
    # the table closed under the player's eyes: a countdown, then on by itself
    page.wait_for_selector("#follow-notice:not([hidden])", timeout=120_000)
    assert page.locator("#table").get_attribute("data-status") == "closed"
    page.screenshot(path=str(SHOTS / "arena-table-closed.png"))
    # re-seated: the arena page (or its push) takes the player to the new table
    page.wait_for_url(re.compile(r"/rooms/(?!%s/)\d+/$" % first_room), timeout=120_000)
    assert f"/rooms/{first_room}/" not in page.url
    assert watcher.evaluate("window.__notReloaded === true")
    watcher.screenshot(path=str(SHOTS / "arena-leaderboard.png"), full_page=True)
