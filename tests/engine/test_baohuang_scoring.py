"""B12 scoring: place points, every doubling, game points, zero-sum over all 120 orders."""

import itertools

import pytest

from games.engine.baohuang.scoring import score


def test_place_points_and_the_texts_example_without_the_slip():
    # emperor 頭科, guard 二落, rebels 二科, third, 大落: emperor side 4 + -2 = 2
    r = score((0, 2, 3, 1, 4), emperor=0, guard=1, solo=None, guard_declared="secret")
    assert r["emperor_side_score"] == 2 and r["winner"] == "emperor" and r["doublings"] == []
    assert r["game_points"] == {0: 4, 1: 2, 2: -2, 3: -2, 4: -2}


def test_draw():
    r = score((0, 2, 1, 3, 4), emperor=0, guard=4, solo=None, guard_declared="open")
    assert r["emperor_side_score"] == 0 and r["winner"] == "draw"
    assert set(r["game_points"].values()) == {0}


@pytest.mark.parametrize("order,solo,declared,expected,doublings", [
    ((0, 1, 2, 3, 4), None, "secret", 12, ["pair_top"]),            # 6 × 2
    ((2, 3, 4, 0, 1), None, "secret", -12, ["pair_bottom"]),        # -6 × 2
    ((0, 1, 2, 3, 4), None, "open", 24, ["pair_top", "open_guard"]),  # 明保 won: ×2 more
    ((2, 3, 4, 0, 1), None, "open", -12, ["pair_bottom"]),          # 明保 lost: no doubling
    ((0, 2, 3, 1, 4), None, "open", 4, ["open_guard"]),
    ((0, 2, 3, 1, 4), "open", None, 8, ["open_solo"]),              # 明獨: 4 × 2
    ((2, 0, 3, 1, 4), "secret", None, 2, []),                       # 暗獨: no doubling
    ((2, 3, 1, 4, 0), "open", None, -8, ["open_solo"]),
])
def test_every_doubling(order, solo, declared, expected, doublings):
    r = score(order, emperor=0, guard=None if solo else 1, solo=solo, guard_declared=declared)
    assert r["emperor_side_score"] == expected
    assert r["doublings"] == doublings


def test_game_points_shares_and_multiplier():
    r = score((0, 2, 3, 1, 4), emperor=0, guard=None, solo="open", guard_declared=None,
              multiplier=3)
    assert r["game_points"] == {0: 4 * 8 * 3, 1: -24, 2: -24, 3: -24, 4: -24}
    r = score((0, 1, 2, 3, 4), emperor=2, guard=4, solo=None, guard_declared="secret",
              multiplier=2)
    # emperor third (0), guard 大落 (-4): E = -4; emperor -8, guard -4, rebels +4, × 2
    assert r["game_points"] == {0: 8, 1: 8, 2: -16, 3: 8, 4: -8}


@pytest.mark.parametrize("solo,declared", [(None, "secret"), (None, "open"), ("secret", None),
                                           ("open", None)])
def test_zero_sum_over_all_120_finishing_orders(solo, declared):
    for order in itertools.permutations(range(5)):
        for emperor in range(5):
            guard = None if solo else (emperor + 2) % 5
            r = score(order, emperor, guard, solo, declared, multiplier=2)
            assert sum(r["game_points"].values()) == 0
            assert (r["emperor_side_score"] > 0) == (r["winner"] == "emperor")


def test_game_points_are_whole_numbers_even_with_every_doubling():
    """B12: game points are integers (the record and the fingerprints print them):
    three doublings give 8× as an int, not 8.0 (the compiled engine of
    ``make engine-fast`` once turned ``2 ** len(doublings)`` into a float)."""
    r = score((0, 2, 3, 1, 4), emperor=0, guard=None, solo="open", guard_declared=None)
    assert r["doublings"] == ["open_solo"]
    assert r["game_points"] == {0: 32, 1: -8, 2: -8, 3: -8, 4: -8}
    r = score((0, 1, 2, 3, 4), emperor=0, guard=1, solo=None, guard_declared="open", multiplier=3)
    assert r["emperor_side_score"] == 24 and type(r["emperor_side_score"]) is int
    assert all(type(v) is int for v in r["game_points"].values())
