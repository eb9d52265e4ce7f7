"""The room's menu on a 375 × 812 phone (session 24): its links and the
owner's 关闭房间 on one line, in Chinese and in English (the English menu,
"Back to the lobby · Report a player · Seat requirement · Close the room",
took two lines, 90 px, and pushed the table down; it now says "Lobby ·
Report · Seat rule · Close room", the words of the context "room menu")."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import bot_table

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 812}

MENU = """() => [...document.querySelectorAll('.room-menu > a, .room-menu button')]
  .filter(e => e.getClientRects().length)
  .map(e => { const b = e.getBoundingClientRect();
              return {text: e.textContent.trim(), top: Math.round(b.top), bottom: Math.round(b.bottom), right: b.right}; })"""


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_room_menu_is_one_line(site_server, browser, language):
    with bot_table(site_server, browser, "baohuang", PHONE, prefix=f"mn{language[:2]}", autoplay=True,
                   bot_delay_ms=500, turn_seconds=120, language=language) as page:
        page.wait_for_selector("[data-action='close-room']")
        page.wait_for_selector(".room-menu [data-link='minimum']")
        items = page.evaluate(MENU)
        page.screenshot(path=str(SHOTS / f"room-menu-{language}-375x812.png"))
        texts = [i["text"] for i in items]
        assert len(items) == 5, texts  # 规则, 返回大厅, 举报玩家, 入座要求, 关闭房间
        if language == "en":
            assert texts == ["Rules ?", "Lobby", "Report", "Seat rule", "Close room"], texts
        # one line: every item's box overlaps the first one's line
        first = items[0]
        assert all(i["top"] < first["bottom"] and i["bottom"] > first["top"] for i in items), items
        assert max(i["right"] for i in items) <= PHONE["width"], items
