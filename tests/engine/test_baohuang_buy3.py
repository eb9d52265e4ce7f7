"""B7 買3: paying a 2, a SJ, a plain BJ (never BJ*/4H*), or free; buyer and seller order."""

from games.engine.baohuang import RULES
from tests.engine.baohuang_helpers import hand_codes, make_deal

LOW = "456789TJQK"


def start(spec, fill):
    return RULES.start_hand(RULES.new_match(), make_deal(spec, fill))


def test_buy_with_a_2_in_suit_order():
    # seat 1 has no 3 and two 2s: pays ♠2 (C6) to seat 0, which has three 3s
    st = start({0: ["3S", "3S", "3H", "BJ*"], 1: ["2D", "2S"], 2: ["3D"], 3: ["4H*"], 4: ["3C"]},
               {1: LOW, 3: LOW})
    summ = RULES.summary(st)
    assert summ["bought_threes"][0] == {"buyer": 1, "seller": 0, "paid": "2S", "three": "3S"}
    assert summ["bought_threes"][1] == {"buyer": 3, "seller": 0, "paid": None, "three": "3S"}
    assert "2S" in hand_codes(st, 0) and "2D" in hand_codes(st, 1)
    assert "2S" not in hand_codes(st, 1)
    for s in range(5):
        assert sum(c.startswith("3") for c in hand_codes(st, s)) == 1  # B6


def test_buy_with_sj_then_plain_bj_never_marked():
    st = start({0: ["3S", "3S", "3H", "3D", "3C"], 1: ["SJ", "BJ"], 2: ["BJ", "BJ*"], 3: ["4H*"],
                4: []}, {1: LOW, 2: LOW, 3: LOW, 4: LOW})
    bought = RULES.summary(st)["bought_threes"]
    assert [(b["buyer"], b["seller"], b["paid"]) for b in bought] == [
        (1, 0, "SJ"), (2, 0, "BJ"), (3, 0, None), (4, 0, None)]
    assert "BJ*" in hand_codes(st, 2)  # BJ* is never a payment
    assert "4H*" in hand_codes(st, 3)
    assert [b["three"] for b in bought] == ["3S", "3S", "3H", "3D"]  # seller's 3s in C6 order


def test_buyers_in_seat_order_from_lowest_seat_with_a_spare():
    st = start({0: ["BJ*"], 1: ["3S", "3H"], 2: ["4H*"], 3: ["3D", "3C", "3S"], 4: []},
               {0: LOW, 2: LOW, 4: LOW})
    bought = RULES.summary(st)["bought_threes"]
    assert [(b["buyer"], b["seller"]) for b in bought] == [(0, 1), (2, 3), (4, 3)]
    assert [len(hand_codes(st, s)) for s in range(5)] == [42, 40, 42, 39, 42]  # free 3s


def test_no_purchase_when_everyone_has_a_3():
    st = start({0: ["3S", "BJ*"], 1: ["3H"], 2: ["3D"], 3: ["3C", "4H*"], 4: ["3S"]}, None)
    assert RULES.summary(st)["bought_threes"] == []
