"""B14: leaving with tribute owed settles the leaver's shares in game points; tribute lapses."""

import itertools

import pytest

from games.engine.baohuang import RULES, leave_settlement
from games.engine.baohuang.state import Match
from tests.engine.baohuang_helpers import prev


def test_no_tribute_owed_no_points():
    assert leave_settlement(RULES.new_match(), 3) == {s: 0 for s in range(5)}


def test_rebel_leaving_after_emperor_win_pays_his_card():
    m = Match(1, prev(0, 1, [0, 2, 1, 3, 4]))  # won, 暗保: 1 card per rebel
    # rebels in finishing order 2, 3, 4: 2's card goes to the guard, the others' to the emperor
    assert leave_settlement(m, 2) == {0: 0, 1: 1, 2: -1, 3: 0, 4: 0}
    assert leave_settlement(m, 4) == {0: 1, 1: 0, 2: 0, 3: 0, 4: -1}
    assert leave_settlement(m, 0) == {0: 2, 1: 0, 2: 0, 3: -1, 4: -1}


def test_doubled_and_multiplied():
    m = Match(3, prev(0, 1, [0, 1, 2, 3, 4], declared="open"))  # won with 明保: doubled
    assert leave_settlement(m, 1) == {0: 0, 1: 6, 2: -6, 3: 0, 4: 0}


def test_emperor_leaving_after_a_loss_pays_two_cards():
    m = Match(1, prev(2, 3, [4, 0, 1, 3, 2]))
    assert leave_settlement(m, 2) == {0: 1, 1: 0, 2: -2, 3: 0, 4: 1}


@pytest.mark.parametrize("solo", ["open", "secret"])
def test_solo_shares(solo):
    d = 2 if solo == "open" else 1
    won = Match(1, prev(0, None, [0, 1, 2, 3, 4], solo=solo))
    assert leave_settlement(won, 0) == {0: 4 * d, 1: -d, 2: -d, 3: -d, 4: -d}
    lost = Match(1, prev(0, None, [1, 2, 0, 3, 4], solo=solo))  # emperor third: draw, he pays
    assert leave_settlement(lost, 3) == {0: -d, 1: 0, 2: 0, 3: d, 4: 0}


def test_zero_sum_for_every_previous_result_and_lapse():
    for order in itertools.permutations(range(5)):
        for declared in ("open", "secret"):
            m = Match(2, prev(order[2], order[4], list(order), declared=declared))
            for seat in range(5):
                assert sum(leave_settlement(m, seat).values()) == 0
    assert RULES.match_after_leave(m).previous is None
