"""The scoring conversions of :mod:`clubs.tournament.scoring`: Neuberg's
formula and the WBF 2013 continuous victory-point scale."""

from __future__ import annotations

from fractions import Fraction

import pytest

from clubs.tournament.duplicate import neuberg_matchpoints
from clubs.tournament.scoring import neuberg, wbf_vp


pytestmark = pytest.mark.pure  # no topology: the embedded half runs it (Makefile)


def test_neuberg_ebu_worked_example():
    """The EBU's example: 10 results where 11 were expected, matchpointed on
    the two-per-beat scale (top 18): a top becomes 19.9, a bottom 0.1."""
    assert neuberg(18, 11, 10) == pytest.approx(19.9)
    assert neuberg(0, 11, 10) == pytest.approx(0.1)
    assert neuberg(9, 11, 10) == pytest.approx(10.0)  # an average stays an average
    assert neuberg(12, 10, 10) == 12  # nothing missing: unchanged


def test_neuberg_refuses_no_results():
    with pytest.raises(ValueError):
        neuberg(0, 11, 0)


def test_neuberg_on_the_one_per_beat_scale_of_the_duplicate_module():
    """Our matchpoints give 1 a beat (top A − 1): the same example is a top of
    9 of 9 becoming 9.95 of 10, exactly."""
    assert neuberg_matchpoints(Fraction(9), 10, 11) == (Fraction(199, 20), 10)
    assert neuberg_matchpoints(Fraction(0), 10, 11) == (Fraction(1, 20), 10)
    assert neuberg_matchpoints(Fraction(2), 3, 4) == (Fraction(17, 6), 3)
    with pytest.raises(ValueError):
        neuberg_matchpoints(Fraction(1), 5, 4)


# The WBF 2013 continuous scale for a 16-board match (blitz 15·√16 = 60 IMPs):
# winner's VPs at a margin, computed with the WBF's algorithm (formula rounded
# to hundredths, then the technical report's concavity correction: 14 IMPs is
# 13.75, not the formula's 13.74).  0 IMPs = 10.00 is the report's own value.
WBF_16 = {0: 10.00, 1: 10.31, 2: 10.61, 3: 10.91, 5: 11.48, 10: 12.80, 14: 13.75, 15: 13.97,
          20: 15.00, 30: 16.73, 40: 18.09, 50: 19.16, 59: 19.93, 60: 20.00}


@pytest.mark.parametrize(("imps", "vp"), sorted(WBF_16.items()))
def test_wbf_vp_16_boards(imps, vp):
    win, lose = wbf_vp(imps, 16)
    assert (win, lose) == (vp, round(20 - vp, 2))
    assert wbf_vp(-imps, 16) == (lose, win)  # the loser's side


def test_wbf_vp_published_20_board_values():
    """Values of the continuous scale quoted by a Dutch club when it adopted
    it (bcstar.nl, 2013: 1 IMP 10.28, 2 IMPs 10.55; the board count is not
    given there, these are the 20-board scale's)."""
    assert wbf_vp(1, 20) == (10.28, 9.72)
    assert wbf_vp(2, 20) == (10.55, 9.45)


def test_wbf_vp_is_capped_concave_and_sums_to_twenty():
    assert wbf_vp(200, 16) == (20.0, 0.0)
    wins = [wbf_vp(i, 16)[0] for i in range(62)]
    steps = [round(b - a, 2) for a, b in zip(wins, wins[1:])]
    assert all(s >= 0 for s in steps)
    assert all(later <= earlier for earlier, later in zip(steps, steps[1:]))  # each IMP worth no more
    assert all(round(sum(wbf_vp(i, b)), 2) == 20.0 for i in range(-70, 71) for b in (8, 16, 32))
    assert wbf_vp(10.5, 16)[0] == pytest.approx(12.93, abs=0.01)  # a fractional margin: the formula
    with pytest.raises(ValueError):
        wbf_vp(3, 0)
