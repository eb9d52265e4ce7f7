"""Hand review in headless Chromium against the embedded site: a hand
with a human (on 托管) against bots ends; the site reviews it by itself in
the background (the embedded topology's review thread and its nice-19 child
process); the replay page then shows the expected-result graph, and clicking
a flagged decision (in the list, then on the graph) jumps the replay to that
step with the move played and the better one.
"""

from __future__ import annotations

import time

import pytest

from tests.integration.stack import LiveStack, running

from .conftest import SHOTS

pytestmark = pytest.mark.browser

REVIEW_TIMEOUT_S = 180


@pytest.fixture(scope="module")
def review_server(tmp_path_factory):
    """One daphne, embedded topology, reviews of 300 CPU ms per hand."""
    stack = LiveStack.embedded(tmp_path_factory.mktemp("browser-review"),
                               extra_env={
        "GAMES_REVIEW_BUDGET_MS": "300",
        # the test waits for reviews on a busy machine: no governor
        # (its tests: tests/site/test_review_governor.py)
        "GAMES_REVIEW_IDLE_BELOW": "off"})
    with running(stack) as s:
        yield s


def _finished_hand(stack, room_id: int) -> int:
    deadline = time.monotonic() + REVIEW_TIMEOUT_S
    while time.monotonic() < deadline:
        log = stack.ops("hand_log", room_id=room_id)
        for h in log["hands"]:
            if h["complete"] and len(h["actions"]) > 20:  # not a voided deal
                return h["id"]
        time.sleep(1.0)
    raise AssertionError(f"no finished hand in room {room_id}:\n{stack.logs()}")


def test_replay_shows_the_graph_and_jumps_to_a_flagged_decision(browser, review_server):
    stack = review_server
    room = stack.ops("bot_room", game="baohuang", humans=1, bot_delay_ms=20, autoplay=True,
                     ready=True, prefix="rv")
    hand_id = _finished_hand(stack, room["room_id"])
    stack.ops("close", room_id=room["room_id"])
    base = stack.web_url
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": "sessionid", "value": room["users"][0]["cookie"], "url": base}])
    page = context.new_page()
    url = f"{base}/hands/{hand_id}/replay/"
    deadline = time.monotonic() + REVIEW_TIMEOUT_S
    while True:  # the review runs in the background: reload until it is there
        page.goto(url)
        if page.locator("#review-graph").count():
            break
        assert page.locator("#review").get_attribute("data-review") in ("pending", "none")
        assert time.monotonic() < deadline, stack.logs()
        time.sleep(1.0)
    assert page.locator("#review-graph polyline").count() >= 1
    assert page.locator("#review-seats [data-review-seat]").count() == 5
    flagged = page.locator("#review-flagged [data-jump-decision]")
    assert flagged.count() >= 1, "a 托管 player's C5 moves leave no flagged decision?"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "review-replay.png"), full_page=True)

    # the list: an htmx jump, no page load
    step = flagged.first.get_attribute("data-jump-decision")
    page.evaluate("window.__same_page = true")
    flagged.first.click()
    page.wait_for_selector(f'#review-current[data-decision="{step}"]')
    assert page.evaluate("window.__same_page === true")
    assert page.locator("#replay-step").get_attribute("data-step") == step
    assert f"step={step}" in page.url
    verdict = page.locator("#review-current").get_attribute("data-verdict")
    assert verdict in ("inaccuracy", "mistake", "blunder")
    assert page.locator("#review-better").count() == 1

    # the graph: its marker of the last flagged decision
    page.goto(url + "?step=0")
    marker = page.locator("#review-graph [data-jump-decision]").last
    last = marker.get_attribute("data-jump-decision")
    marker.locator("circle").click()
    page.wait_for_selector(f'#review-current[data-decision="{last}"]')
    assert page.locator("#replay-step").get_attribute("data-step") == last
    context.close()
