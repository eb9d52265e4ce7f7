"""保皇's 让 in English (session 25): on the felt a seat's 让 (a first
decline: the seat may still beat the set later in the round, B5) read
"Hold", a word for neither move; it now says "Yield", the word of the
rules page ("yields (让 …)"), and 过 (out of the round) says "Pass"."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import bot_table

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 812}

#: The words on the felt for the seats that did not play a set (让 / 过).
VERBS = "() => [...document.querySelectorAll('#felt .play .verb')].map(v => v.textContent.trim())"


def test_a_yield_says_yield_and_a_pass_says_pass(site_server, browser):
    with bot_table(site_server, browser, "baohuang", PHONE, prefix="yw", autoplay=True,
                   bot_delay_ms=300, turn_seconds=120, language="en") as page:
        # a decline that is not "Pass" on the felt: a 让 (bots yield first, B5);
        # waited for and read in one synchronous call (the round can end, and
        # its words leave the felt, between a wait and a separate reading)
        verbs = page.wait_for_function(
            f"() => {{ const verbs = ({VERBS})(); return verbs.some(v => v !== 'Pass') ? verbs : null; }}",
            timeout=240_000).json_value()
        page.screenshot(path=str(SHOTS / "baohuang-yield-word-en-375x812.png"))
        assert "Hold" not in verbs, verbs
        assert "Yield" in verbs, verbs
        assert set(verbs) <= {"Yield", "Pass"}, verbs
