"""Strangers play safely, in headless Chromium against the embedded site:
a player reports another from the table (the hand and its chat attached),
a moderator (the 版主 group, not staff) opens the queue and suspends the
player for three days, and the player sees the notice with the reason and
how to appeal (and the action on his record page)."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import DESKTOP, open_page

pytestmark = pytest.mark.browser


def test_report_from_the_table_a_moderator_acts_the_player_sees_the_notice(site_server, browser):
    base = site_server.web_url
    room = site_server.ops("bot_room", game="baohuang", humans=2, autoplay=False, ready=True,
                           bot_delay_ms=500, turn_seconds=600, prefix="rep")
    reporter, offender = room["users"]
    mod = site_server.ops("moderator", prefix="mod")
    SHOTS.mkdir(exist_ok=True)
    contexts = []
    try:
        ctx, page = open_page(browser, base, reporter["cookie"], DESKTOP)
        contexts.append(ctx)
        page.goto(f"{base}/rooms/{room['room_id']}/")
        page.wait_for_selector("#table")
        page.fill("#chat-input", "这局谁都别想赢")
        page.click("[data-action=chat-send]")
        page.wait_for_selector("#chat-log .chat-line")
        assert "信誉 75" in page.locator(f'[data-seat-note]').first.inner_text()  # beside a seated name
        page.screenshot(path=str(SHOTS / "moderation-table.png"))
        page.click("a[data-link=report]")
        page.wait_for_selector("#report-form")
        page.select_option("select[name=user]", label=offender["username"])
        page.select_option("select[name=reason]", "abuse")
        page.fill("textarea[name=note]", "一直骂人")
        page.screenshot(path=str(SHOTS / "moderation-report.png"))
        page.click("[data-action=report-send]")
        page.wait_for_selector("#report-filed")

        ctx, mpage = open_page(browser, base, mod["cookie"], DESKTOP)
        contexts.append(ctx)
        mpage.goto(f"{base}/moderation/queue/")
        row = mpage.locator("#report-queue tbody tr[data-report]", has_text=offender["username"])
        row.locator("a").first.click()
        mpage.wait_for_selector("#moderation-act")
        assert mpage.locator("#report-replay").count() == 1  # the hand's replay is linked
        assert "这局谁都别想赢" in mpage.locator(".report-chat").inner_text()  # and its chat lines
        mpage.select_option("select[name=kind]", "suspend")
        mpage.fill("input[name=days]", "3")
        mpage.fill("textarea[name=reason]", "在牌桌上辱骂其他玩家")
        mpage.screenshot(path=str(SHOTS / "moderation-act.png"))
        mpage.click("[data-action=moderation-act]")
        mpage.wait_for_url(f"{base}/moderation/queue/")
        assert offender["username"] not in mpage.locator("#report-queue").inner_text()

        ctx, opage = open_page(browser, base, offender["cookie"], DESKTOP)
        contexts.append(ctx)
        opage.goto(f"{base}/notices/")
        body = opage.locator("main").inner_text()
        assert "禁赛" in body and "在牌桌上辱骂其他玩家" in body and "申诉" in body, body
        opage.screenshot(path=str(SHOTS / "moderation-notice.png"))
        opage.goto(f"{base}/moderation/mine/")
        assert "在牌桌上辱骂其他玩家" in opage.locator("#my-actions").inner_text()
    finally:
        for ctx in contexts:
            ctx.close()
