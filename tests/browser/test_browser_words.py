"""The pages around and at the table read well (a player's words, contrast,
the header on a phone), in headless Chromium against the embedded site:

* contrast: axe-core's ``color-contrast`` rule (the copy Lighthouse bundles,
  tools/lighthouse/node_modules/axe-core) finds nothing on a live table of
  each game, on a finished hand's table with its result, and on the replay
  with its review, in the light and the dark theme;
* words: an English table, result and replay hold no Han character outside
  the players' names (the language chooser, which names each language in
  itself, left out): no Simplified Chinese, no Chinese punctuation;
* the header at 375 px: the menu holds a link to every destination (lobby,
  each game, clubs, leaderboards, rules), signed in and signed out, and the
  signed-out menu's label is not cut off;
* creating a room: the engine's options are controls drawn from the game's
  option schema (no JSON box), posted and stored.

Screenshots of each page (375×812 and 1280×800) go under tmp/shots/.
"""

from __future__ import annotations

import re

import pytest

from .conftest import SHOTS
from .helpers import PHONE, assert_no_contrast_failures, bot_table, contrast_failures, open_page

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
HAN = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
SHOT_DIR = SHOTS / "shots"


def shot(page, name: str) -> None:
    SHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOT_DIR / f"{name}.png"), full_page=False)


def han_outside_names(page, names=()) -> list[str]:
    """The lines of the page's visible text (and its aria-labels and titles)
    holding a Han character or Chinese punctuation once the players' names
    are taken out; the language chooser is left out."""
    texts = page.evaluate("""() => {
        const out = [document.body.innerText];
        for (const e of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]'))
            for (const a of ['aria-label', 'title', 'placeholder', 'alt'])
                if (e.getAttribute(a)) out.push(e.getAttribute(a));
        for (const e of document.querySelectorAll('.language-form, .language-form *'))
            out.push('\\u0000' + e.innerText);
        return out;
    }""")
    chooser = {line for t in texts if t.startswith("\x00") for line in t[1:].splitlines() if line.strip()}
    bad = []
    for text in texts:
        if text.startswith("\x00"):
            continue
        for line in text.splitlines():
            if line.strip() in chooser:
                continue
            for name in names:
                line = line.replace(name, "")
            if HAN.search(line):
                bad.append(line.strip()[:120])
    return bad


@pytest.fixture(scope="module")
def finished(site_server):
    """A finished hand of each game (a closed room, its human's session)."""
    out = {}
    for game in ("shengji", "baohuang"):
        made = site_server.ops("finished_hands", timeout=600, count=1, game=game, prefix=f"w{game[:2]}", review=False)
        out[game] = {"hand": made["hands"][0], "room": made["rooms"][0], "cookie": made["cookies"][0]}
    return out


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("game", ["shengji", "baohuang"])
def test_axe_contrast_clean_on_table_result_and_replay(site_server, browser, finished, game, scheme):
    """axe's color-contrast rule: nothing on the live table (mid-hand, bots
    playing), the finished hand's table with its result, and the replay with
    its review (a flagged decision opened), light and dark theme, 375 px."""
    base = site_server.web_url
    failures = {}
    with bot_table(site_server, browser, game, PHONE, prefix=f"ax{game[:2]}{scheme[0]}", autoplay=True,
                   bot_delay_ms=400, turn_seconds=300, color_scheme=scheme) as page:
        page.wait_for_selector("#my-hand [data-card]")
        page.wait_for_timeout(2500)  # a few plays on the table
        shot(page, f"table-{game}-{scheme}-375x812")
        failures["table"] = contrast_failures(page)
    ctx, page = open_page(browser, base, finished[game]["cookie"], PHONE, color_scheme=scheme)
    try:
        page.goto(f"{base}/rooms/{finished[game]['room']}/")
        page.wait_for_selector("#table")
        shot(page, f"result-{game}-{scheme}-375x812")
        failures["result"] = contrast_failures(page)
        page.goto(f"{base}/hands/{finished[game]['hand']}/replay/?step=40")
        page.wait_for_selector("#replay")
        shot(page, f"replay-{game}-{scheme}-375x812")
        failures["replay"] = contrast_failures(page)
        page.goto(f"{base}/hands/{finished[game]['hand']}/replay/")
        failures["replay-end"] = contrast_failures(page)
    finally:
        ctx.close()
    assert_no_contrast_failures(failures)


@pytest.mark.parametrize("game", ["shengji", "baohuang"])
def test_english_table_result_and_replay_have_no_chinese(site_server, browser, finished, game):
    """English pages: no Han character or Chinese punctuation outside the
    players' names, on the live table (several pushes), the finished hand's
    result, and the replay at several steps (review included)."""
    base = site_server.web_url
    seen = {}
    with bot_table(site_server, browser, game, DESKTOP, prefix=f"en{game[:2]}", autoplay=True,
                   bot_delay_ms=150, turn_seconds=300, language="en") as page:
        page.wait_for_selector("#my-hand [data-card]")
        for i in range(8):
            page.wait_for_timeout(700)
            seen[f"table-{i}"] = han_outside_names(page)
        shot(page, f"table-{game}-en-1280x800")
    ctx, page = open_page(browser, base, finished[game]["cookie"], DESKTOP, language="en")
    try:
        page.goto(f"{base}/rooms/{finished[game]['room']}/")
        page.wait_for_selector("#table")
        seen["result"] = han_outside_names(page)
        shot(page, f"result-{game}-en-1280x800")
        for step in (0, 10, 40, 80, ""):
            page.goto(f"{base}/hands/{finished[game]['hand']}/replay/?step={step}")
            page.wait_for_selector("#replay")
            seen[f"replay-{step}"] = han_outside_names(page)
        shot(page, f"replay-{game}-en-1280x800")
        page.set_viewport_size(PHONE)
        shot(page, f"replay-{game}-en-375x812")
        # no sideways scroll on a phone (the review's table included)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        ctx.close()
    bad = "\n".join(f"{page_name}: {line}" for page_name, lines in seen.items() for line in lines)
    assert not bad, bad


def _menu_destinations(page) -> dict[str, str]:
    """Open the site menu; every link a player can see in the header (the
    menu's and the visible nav's) → its path."""
    page.click("#site-menu > summary")
    return page.evaluate("""() => {
        const out = {};
        for (const a of document.querySelectorAll('header.site-header a')) {
            const r = a.getBoundingClientRect();
            const style = getComputedStyle(a);
            const box = (a.closest('nav') || a.parentElement).getBoundingClientRect();  // not clipped by its row
            if (r.width > 0 && r.height > 0 && style.visibility !== 'hidden' &&
                r.right <= window.innerWidth + 0.5 && r.left >= -0.5 &&
                r.right <= box.right + 0.5 && r.left >= box.left - 0.5)
                out[new URL(a.href).pathname] = a.innerText.trim();
        }
        return out;
    }""")


SIDEWAYS = {"width": 812, "height": 375}


@pytest.mark.parametrize("size", [PHONE, SIDEWAYS], ids=["375x812", "812x375"])
@pytest.mark.parametrize("signed_in", [True, False])
def test_header_menu_reaches_every_destination_on_a_phone(site_server, browser, signed_in, size):
    """At 375×812 and 812×375 every destination (lobby, each game, clubs,
    leaderboards, rules, and log in/sign up or the profile) is a visible link
    of the header, not clipped by its row, once the menu is open; the menu's
    label is shown whole (its text fits its box); English and zh-Hans."""
    base = site_server.web_url
    want = {"/", "/g/shengji/", "/g/baohuang/", "/clubs/", "/ratings/", "/help/"}
    for language in ("en", "zh-hans"):
        if signed_in:
            user = site_server.ops("new_user", prefix="menu")
            ctx, page = open_page(browser, base, user["cookie"], size, language=language)
        else:
            ctx = browser.new_context(viewport=size, device_scale_factor=2, is_mobile=True, has_touch=True)
            ctx.add_cookies([{"name": "django_language", "value": language, "url": base}])
            page = ctx.new_page()
        try:
            page.goto(base + "/clubs/")
            summary = page.locator("#site-menu > summary")
            fits = summary.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
            label = summary.inner_text()
            tag = f"{size['width']}x{size['height']}"
            shot(page, f"header-{'in' if signed_in else 'out'}-{language}-{tag}")
            links = _menu_destinations(page)
            shot(page, f"header-menu-{'in' if signed_in else 'out'}-{language}-{tag}")
            assert fits, label
            assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
            missing = {p for p in want if p not in links}
            assert missing == set(), (language, links)
            if signed_in:
                assert "/accounts/profile/" in links
            else:
                assert {"/accounts/login/", "/accounts/signup/"} <= set(links), links
                assert ("Log in" in label and "Settings" in label) if language == "en" else "登录" in label
            # the links lead somewhere
            page.locator('.menu-nav a[data-menu-goto="leaderboards"]').click()
            page.wait_for_url(re.compile(r"/ratings/"))
        finally:
            ctx.close()


def test_room_form_options_are_controls_posted_and_stored(site_server, browser):
    """The create-room form: no JSON box; 升级's follow rule a labelled select
    (only while 升级 is the chosen game); its choice posted and stored in the
    room's options; on a phone every control as wide as the form."""
    base = site_server.web_url
    user = site_server.ops("new_user", prefix="form")
    ctx, page = open_page(browser, base, user["cookie"], PHONE, language="en")
    try:
        page.goto(base + "/rooms/new/")
        assert page.locator("#id_options").get_attribute("type") == "hidden"
        assert "JSON" not in page.locator("#create-room").inner_text()
        page.select_option("#id_game", "baohuang")
        assert not page.locator("#id_opt_shengji_follow").is_visible()
        page.select_option("#id_game", "shengji")
        follow = page.locator("#id_opt_shengji_follow")
        assert follow.is_visible()
        assert page.locator('label[for="id_opt_shengji_follow"]').inner_text().strip() != ""
        widths = page.evaluate("""() => [...document.querySelectorAll('#create-room p > select, #create-room p > input:not([type=checkbox]):not([type=hidden])')]
            .filter(e => e.offsetParent).map(e => Math.round(e.getBoundingClientRect().width))""")
        assert len(set(widths)) == 1, widths  # one column, every control as wide
        shot(page, "room-create-en-375x812")
        follow.select_option("suit")
        page.fill("#id_name", "Options room")
        page.click('[data-action="create-room-submit"]')
        page.wait_for_url(re.compile(r"/rooms/\d+/$"))
        room_id = int(page.locator("#table").get_attribute("data-room"))
        page.set_viewport_size(DESKTOP)
        page.goto(base + "/rooms/new/")
        shot(page, "room-create-en-1280x800")
    finally:
        ctx.close()
    log = site_server.ops("room_options", room_id=room_id)
    assert log["options"] == {"follow": "suit"}
    assert log["game"] == "shengji" and log["name"] == "Options room"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["375x812", "1280x800"])
def test_pages_around_the_table_read_well(site_server, browser, size):
    """English, both sizes: the home page greets a signed-in player above the
    numbered steps (step 1 is a thing to do); the lobby's heading over the two
    games, the club page's over its events and members are plural; the
    event page offers one way to print; sign-up states the password rule
    once; the create-a-club form is one column of equally wide boxes;
    no page scrolls sideways.  Screenshots of each."""
    base = site_server.web_url
    tag = f"{size['width']}x{size['height']}"
    event = site_server.ops("event_round", game="shengji", bots=4, bot_delay_ms=5000, prefix="pg")
    ctx, page = open_page(browser, base, event["user"]["cookie"], size, language="en")
    try:
        page.goto(base + "/")
        steps = page.locator("#intro ol.how > li").all_inner_texts()
        assert page.locator("#intro .greeting").inner_text().startswith("Hello")
        assert not any(s.startswith("Hello") for s in steps) and len(steps) == 3
        assert "Games" in page.locator("main h2").all_inner_texts()
        shot(page, f"home-en-{tag}")
        page.goto(f"{base}/clubs/{event['club_id']}/")
        headings = page.locator("main h2").all_inner_texts()
        assert "Members" in headings and "Events" in headings, headings
        shot(page, f"club-en-{tag}")
        page.goto(f"{base}/clubs/events/{event['event_id']}/")
        assert page.locator("#print-standings").count() == 0
        assert page.get_by_text("Printable page").count() == 1
        assert "Started:" not in page.locator("main").inner_text()
        # the organiser's name boxes show their whole placeholder
        for box in page.locator("#register-for input.name-input").all():
            assert box.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
            assert box.bounding_box()["width"] >= 150
        shot(page, f"event-en-{tag}")
        page.goto(base + "/clubs/")
        widths = page.evaluate("""() => [...document.querySelectorAll('#club-create input:not([type=hidden]), #club-create textarea')]
            .map(e => Math.round(e.getBoundingClientRect().width))""")
        assert len(widths) == 2 and widths[0] == widths[1], widths
        shot(page, f"clubs-en-{tag}")
        for url in ("/", f"/clubs/{event['club_id']}/", f"/clubs/events/{event['event_id']}/", "/clubs/"):
            page.goto(base + url)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"], url
    finally:
        ctx.close()
    ctx = browser.new_context(viewport=size, device_scale_factor=1)
    ctx.add_cookies([{"name": "django_language", "value": "en", "url": base}])
    page = ctx.new_page()
    try:
        page.goto(base + "/accounts/signup/")
        text = page.locator("main").inner_text()
        assert len(re.findall(r"\b8\b", text)) == 1, text  # the length rule stated once
        shot(page, f"signup-en-{tag}")
    finally:
        ctx.close()
