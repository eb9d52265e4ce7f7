"""the won trick in headless Chromium: when a 升级 trick is complete,
its four plays stay on the felt for that one push, marked ``.won`` with the
winner's seat, and slide to the winner (``trick-won``, the way there in
--dx/--dy); with ``prefers-reduced-motion: reduce`` nothing moves (no
animation) and the won trick is hidden at once."""

from __future__ import annotations

import pytest

from .helpers import DESKTOP, bot_table

pytestmark = pytest.mark.browser

#: the first won trick seen, read at once (the next lead replaces it)
WON = """() => {
    const plays = [...document.querySelectorAll('#felt .played.won')];
    if (!plays.length) return null;
    const mini = plays[0].querySelector('.mini');
    const winner = plays[0].dataset.wonBy;
    return {
        n: plays.length, winner,
        same: plays.every(p => p.dataset.wonBy === winner),
        hidden: plays.every(p => p.getAttribute('aria-hidden') === 'true'),
        animation: mini ? getComputedStyle(mini).animationName : null,
        visibility: getComputedStyle(plays[0]).visibility,
        moved: plays.filter(p => p.dataset.playedSeat !== winner)
                    .map(p => [p.style.getPropertyValue('--dx'), p.style.getPropertyValue('--dy')]),
        seat: !!document.querySelector('#table .seat[data-seat="' + winner + '"]'),
    };
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_won_trick_slides_to_its_winner_unless_reduced_motion(site_server, browser, motion):
    with bot_table(site_server, browser, "shengji", DESKTOP, prefix="slide", autoplay=True,
                   bot_delay_ms=900, turn_seconds=60, reduced_motion=motion) as page:
        won = page.wait_for_function(WON, timeout=240_000, polling=50).json_value()
        assert won["n"] == 4 and won["same"] and won["seat"] and won["hidden"], won
        if motion == "reduce":
            assert won["animation"] == "none" and won["visibility"] == "hidden", won
        else:
            assert won["animation"] == "trick-won" and won["visibility"] == "visible", won
            # each play that is not the winner's own has its way to the winner's seat
            assert won["moved"] and all(dx and dy and (dx, dy) != ("0px", "0px") for dx, dy in won["moved"]), won
