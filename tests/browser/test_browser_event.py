"""A club event in Chromium, end to end: an organiser signs up, creates a club
and a 升级 event; four players sign up, join the club by its link and register
as two pairs (the partner confirms); the organiser pairs round 1 and starts
it; each player follows the "go to your table" link on the event page to the
seat the seat plan gives them (the registrant at seat 0 or 1, the partner
opposite, S1), says ready and turns 托管 on; the hand is played out and the
result and the standings appear on the event page (pushed over its websocket).
"""

from __future__ import annotations

import secrets

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import SHOTS

pytestmark = pytest.mark.browser

PASSWORD = "Cards-" + secrets.token_hex(6)


#: Counts the fragments the page's socket has swapped in (``window.__pushes``).
COUNT_PUSHES = ("window.__pushes = 0; document.addEventListener('htmx:wsAfterMessage', "
                "() => { window.__pushes += 1; });")


def new_page(browser):
    context = browser.new_context(viewport={"width": 900, "height": 900}, locale="zh-CN")
    context.set_default_timeout(30_000)
    context.add_init_script(COUNT_PUSHES)
    return context.new_page()


def click_live(page, selector: str) -> None:
    """Click a form button of the event page's ``#event-live`` fragment, as
    soon as the socket's first push (sent when it connects) has replaced the
    copy the page came with: a click while that push swaps the fragment in can
    press the old button and release over the new one, and then no form is
    sent.  Fails (a timeout naming the request) if the click sent no POST."""
    page.wait_for_function("window.__pushes > 0")
    with page.expect_request(lambda r: r.method == "POST"):
        page.click(selector)


def press_ready(page) -> None:
    """Say ready at the table once its socket's push on connect is in, and
    until the server has had the POST: a click while a push (the one on
    connect, or another player's ready) swaps the table in can be lost, as
    ``click_live`` says, and a player then taps again.  Bounded: three tries of
    10 s; fails if none sent the POST and the button is still there."""
    page.wait_for_function("window.__pushes > 0", timeout=60_000)
    ready = page.locator('[data-action="ready"]')
    for _ in range(3):
        if ready.count() == 0:
            return  # the POST of a try that timed out did arrive
        try:
            with page.expect_response(
                    lambda r: r.request.method == "POST" and r.url.endswith("/ready"),
                    timeout=10_000):
                ready.click(timeout=10_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError("the ready button sent no POST in three tries")


def sign_up(page, base: str, username: str) -> None:
    page.goto(base + "/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click('[data-action="signup"]')
    page.wait_for_load_state()
    assert "/accounts/signup/" not in page.url


def organiser_with_club(browser, base: str, prefix: str) -> tuple:
    """A new user (``prefix`` + a random tag) signs up and creates a club:
    (their page on the club, the club's join link, the tag)."""
    tag = secrets.token_hex(3)
    page = new_page(browser)
    sign_up(page, base, f"{prefix}{tag}")
    page.goto(base + "/clubs/")
    page.fill('#club-create input[name="name"]', f"牌社{tag}")
    page.click('#club-create button[type="submit"]')
    page.wait_for_selector("#join-link")
    return page, page.input_value("#join-link"), tag


def new_event(page, name: str, *, rounds: int, hands: int, bot_delay_ms: int) -> str:
    """From the club's page, create a 升级 event of ``rounds`` rounds of
    ``hands`` hands (bots at ``bot_delay_ms``): the event's URL."""
    page.click("#new-event")
    page.fill("#id_name", name)
    page.select_option("#id_game", "shengji")
    page.fill("#id_rounds", str(rounds))
    page.fill("#id_hands_per_round", str(hands))
    page.fill("#id_bot_delay_ms", str(bot_delay_ms))
    page.click('#event-form button[type="submit"]')
    page.wait_for_selector("#event-name")
    return page.url


def organiser_event(site_server, browser, prefix: str, *, bots: int, rounds: int, hands: int,
                    bot_delay_ms: int) -> tuple:
    """A new organiser (:func:`organiser_with_club`) creates an event
    (:func:`new_event`), adds ``bots`` bot entries and pairs round 1: (the
    organiser's page on the event, showing 开始本轮, the event's URL)."""
    page, _link, tag = organiser_with_club(browser, site_server.web_url, prefix)
    event_url = new_event(page, f"比赛{tag}", rounds=rounds, hands=hands, bot_delay_ms=bot_delay_ms)
    page.fill('#organiser-tools input[name="count"]', str(bots))
    page.click('#organiser-tools form[action$="/bots"] button[type="submit"]')
    page.wait_for_selector("#entries")
    page.click("#pair-round")
    page.wait_for_selector("#start-round")
    return page, event_url


def test_organiser_runs_round_one_for_two_pairs(site_server, browser):
    base = site_server.web_url
    organiser, join_link, tag = organiser_with_club(browser, base, "org")
    event_url = new_event(organiser, "周五升级赛", rounds=2, hands=1, bot_delay_ms=0)

    names = [f"p{i}{tag}" for i in range(4)]
    players = []
    for name in names:
        page = new_page(browser)
        sign_up(page, base, name)
        page.goto(join_link)
        page.click('#club-join button[type="submit"]')
        page.wait_for_selector("#club-name")
        players.append(page)
    # two pairs: p0 with p1, p2 with p3; the partners confirm
    for lead, partner in ((0, 1), (2, 3)):
        players[lead].goto(event_url)
        players[lead].fill('#register input[name="partner"]', names[partner])
        players[lead].click('#register button[type="submit"]')
        players[lead].wait_for_selector("#entries")
        players[partner].goto(event_url)
        players[partner].click(".confirm-entry")
        players[partner].wait_for_selector("#entries")
    organiser.goto(event_url)
    assert organiser.locator("#entries tr[data-entry]").count() == 2
    assert organiser.locator("#entries").inner_text().count("已报名") == 2

    for page in players:  # watching the event page: the link must arrive live
        page.goto(event_url)
    organiser.click("#pair-round")
    organiser.wait_for_selector("#start-round")
    click_live(organiser, "#start-round")
    organiser.wait_for_selector('#round-1[data-status="running"]', timeout=60_000)

    seats = {}
    for i, page in enumerate(players):
        link = page.locator("#go-to-table a")
        link.wait_for(timeout=30_000)  # pushed over ws/events/<id>/
        link.click()
        page.wait_for_selector("#table[data-my-seat]")
        seat = int(page.locator("#table").get_attribute("data-my-seat"))
        assert page.locator(f'.seat[data-seat="{seat}"]').inner_text().count(names[i]) == 1
        seats[i] = seat
    # entry k of the table holds seats k and k + 2 (which pair is entry 0
    # depends on the pairing): the registrant at 0 or 1, the partner opposite
    for lead in (0, 2):
        assert seats[lead] in (0, 1) and seats[lead + 1] == seats[lead] + 2
    assert sorted(seats.values()) == [0, 1, 2, 3]
    for page in players:
        press_ready(page)
    for page in players:
        page.locator('[data-action="autoplay-on"]').click(timeout=60_000)

    organiser.goto(event_url)
    organiser.wait_for_selector('#round-1 tr[data-finished="1"]', timeout=300_000)
    organiser.screenshot(path=str(SHOTS / "event-round1.png"), full_page=True)
    result = organiser.locator("#round-1 tr[data-finished] .result").inner_text()
    assert "级差" in result and "游戏积分" in result
    standings = organiser.locator("#standings tbody tr")
    assert standings.count() == 2
    assert all(page.locator("#table").count() == 1 for page in players)
