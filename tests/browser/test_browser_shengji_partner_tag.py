"""The English seat tag of the dealer's partner in 升級 (session 25): 庄家
on a seat says that it is on the dealer's side, the dealer's partner
(S15); in English it read "Ally" beside the team row's "Dealer", an ally
of nobody named. It now says "Partner" (under the context "seat tag"),
and on an 812 × 375 phone it stands whole on its seat's second line,
beside the count (a seat's role tags went from the name's line to the
count's, so that 保皇's 皇帝 / Emperor keeps a five-seat seat in two
lines too)."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import bot_table

pytestmark = pytest.mark.browser

LANDSCAPE = {"width": 812, "height": 375}

#: Each seat's name, its role tags (text and middle), its count's box; and
#: the team row: each team's text and its tag.
READ = """() => ({
  seats: [...document.querySelectorAll('.seats .seat')].map(seat => {
    const c = seat.querySelector('.seat-info .count').getBoundingClientRect();
    return {name: seat.querySelector('.name').textContent.trim(), top: c.top, bottom: c.bottom,
            tags: [...seat.querySelectorAll('.seat-info .tag.role')].map(t => {
              const b = t.getBoundingClientRect(); return {text: t.textContent.trim(), mid: (b.top + b.bottom) / 2}; })};
  }),
  teams: [...document.querySelectorAll('#sj-levels .sj-team')].map(t => ({
    text: t.textContent.trim(), tag: (t.querySelector('.tag') || {}).textContent})),
})"""


def test_the_dealers_partner_is_called_partner(site_server, browser):
    with bot_table(site_server, browser, "shengji", LANDSCAPE, prefix="pt", autoplay=True,
                   bot_delay_ms=300, turn_seconds=120, language="en") as page:
        page.wait_for_function("() => document.querySelectorAll('.seat .tag.role').length >= 4",
                               timeout=180_000)
        r = page.evaluate(READ)
        page.screenshot(path=str(SHOTS / "shengji-partner-tag-en-812x375.png"))
        words = sorted(t["text"] for s in r["seats"] for t in s["tags"])
        assert words == ["Attack", "Attack", "Dealer", "Partner"], r
        partner = next(s for s in r["seats"] if s["tags"][0]["text"] == "Partner")
        dealer = next(s for s in r["seats"] if s["tags"][0]["text"] == "Dealer")
        # the partner is on the dealer's team, the team the row tags "Dealer"
        team = next(t for t in r["teams"] if dealer["name"] in t["text"])
        assert partner["name"] in team["text"] and team["tag"] == "Dealer", r
        # the partner's tag on its count's line (every seat)
        for s in r["seats"]:
            for t in s["tags"]:
                assert s["top"] <= t["mid"] <= s["bottom"], s
