"""B13 tribute: every case, with doubling, solo won and lost with too few 2s."""

from collections import Counter

from games.engine.baohuang import RULES
from games.engine.baohuang.state import Match
from tests.engine.baohuang_helpers import act, all_cards, hand_codes, make_deal, prev

LOW = "456789TJQK"
NO_TWOS = "456789TJQKA"


def crowned(previous, spec, fill=None, accept_by=None):
    """Start a hand owing ``previous``'s tribute; the BJ* holder (or, after passes,
    ``accept_by``) accepts.  Returns (state before the crown, state after)."""
    st = RULES.start_hand(Match(1, previous), make_deal(spec, fill))
    before = st
    while RULES.to_act(st) != (accept_by if accept_by is not None else st.crown_first):
        st = act(st, RULES.to_act(st), "crown", "pass")
    st = act(st, RULES.to_act(st), "crown", "accept")
    assert RULES.phase(st) == "declare"  # tribute is paid before the declaration
    return before, st


def highest(st, seat, n=1):
    return [c for c in hand_codes(st, seat) if c not in ("BJ*", "4H*") and c[0] != "3"][:n]


def flows(st):
    return [(t["from"], t["to"], t["card"]) for t in RULES.summary(st)["tribute"]]


SPEC = {0: ["3S", "BJ*"], 1: ["3H", "4H*"], 2: ["3D", "BJ", "SJ"], 3: ["3C", "2S"], 4: ["3S"]}
FILL = {2: LOW, 3: LOW, 4: LOW}


def test_emperor_side_won_each_rebel_pays_one_guard_takes_highest():
    p = prev(0, 1, [0, 2, 1, 3, 4])  # E side 4 + 0 > 0, 暗保: d = 1
    before, st = crowned(p, SPEC, FILL)
    top4 = highest(before, 4)[0]
    assert flows(st) == [(2, 1, "BJ"), (3, 0, "2S"), (4, 0, top4)]
    assert "BJ" in hand_codes(st, 1) and "BJ" not in hand_codes(st, 2)
    assert all_cards(st) == all_cards(before)


def test_open_guard_won_doubles_every_share_guard_takes_highest_two_of_six():
    p = prev(0, 1, [0, 2, 1, 3, 4], declared="open")
    before, st = crowned(p, {**SPEC, 3: ["3C", "2S", "2H"]}, FILL)
    f = flows(st)
    assert len(f) == 6
    assert [x for x in f if x[1] == 1] == [(2, 1, "BJ"), (2, 1, "SJ")]  # the highest two
    assert sorted(x[2] for x in f if x[1] == 0) == sorted(["2S", "2H"] + highest(before, 4, 2))
    assert Counter(x[0] for x in f) == {2: 2, 3: 2, 4: 2}


def test_open_guard_lost_is_not_doubled():
    p = prev(0, 1, [2, 0, 3, 1, 4], declared="open")  # E side 2 + -2 = 0: draw, E side pays
    before, st = crowned(p, SPEC, FILL)
    assert len(flows(st)) == 3


def test_emperor_side_lost_emperor_pays_two_guard_one_rebels_take_in_finishing_order():
    # previous: emperor 2, guard 3, finish 4, 0, 1, 3, 2 -> E side -6: rebels 4, 0, 1 take
    p = prev(2, 3, [4, 0, 1, 3, 2])
    spec = {0: ["3S", "BJ*"], 1: ["3H", "4H*"], 2: ["3D", "BJ", "2S"], 3: ["3C", "SJ"], 4: ["3S"]}
    before, st = crowned(p, spec, {2: LOW, 3: LOW, 4: LOW})
    # pool: BJ, 2S (from 2), SJ (from 3); highest first to 4, then 0, then 1
    assert flows(st) == [(2, 4, "BJ"), (3, 0, "SJ"), (2, 1, "2S")]


def test_draw_emperor_side_pays():
    p = prev(0, 1, [0, 2, 3, 4, 1], declared="secret")  # 4 + -4 = 0
    before, st = crowned(p, SPEC, FILL)
    f = flows(st)
    assert Counter(x[0] for x in f) == {0: 2, 1: 1}
    assert [x[1] for x in f] == [2, 3, 4]  # rebels in finishing order
    assert "BJ*" not in [x[2] for x in f] and "4H*" not in [x[2] for x in f]


def test_payer_never_gives_bj_marked_or_4h_marked():
    # the emperor of the previous hand lost and now holds BJ* and 4H* themselves
    p = prev(0, 1, [2, 3, 4, 1, 0])
    spec = {0: ["3S", "BJ*", "4H*"], 1: ["3H"], 2: ["3D"], 3: ["3C"], 4: ["3S"]}
    before, st = crowned(p, spec, None)
    paid0 = [x[2] for x in flows(st) if x[0] == 0]
    assert len(paid0) == 2 and "BJ*" not in paid0 and "4H*" not in paid0
    assert paid0 == highest(before, 0, 2)


def test_solo_won_each_player_with_a_2_gives_one():
    p = prev(0, None, [0, 1, 2, 3, 4], solo="secret")
    spec = {0: ["3S", "BJ*"], 1: ["3H", "4H*", "2S", "2H"], 2: ["3D"], 3: ["3C", "2D"], 4: ["3S"]}
    before, st = crowned(p, spec, {1: NO_TWOS, 2: NO_TWOS, 3: NO_TWOS, 4: NO_TWOS})
    assert flows(st) == [(1, 0, "2S"), (3, 0, "2D")]  # seats 2 and 4 hold no 2


def test_open_solo_won_doubles():
    p = prev(0, None, [0, 1, 2, 3, 4], solo="open")
    spec = {0: ["3S", "BJ*"], 1: ["3H", "4H*", "2S", "2H", "2D"], 2: ["3D", "2C"], 3: ["3C"], 4: ["3S"]}
    before, st = crowned(p, spec, {1: NO_TWOS, 2: NO_TWOS, 3: NO_TWOS, 4: NO_TWOS})
    assert flows(st) == [(1, 0, "2S"), (1, 0, "2H"), (2, 0, "2C")]  # 1 keeps his ♦2


def test_solo_lost_pays_2s_in_finishing_order_sellers_and_emperor_last_until_they_run_out():
    # previous solo emperor 4 lost; rebels finished 1, 0, 2, 3.
    # This hand: seat 0 sells a 3 (買3) and seat 2 is the emperor: both served last.
    p = prev(4, None, [1, 0, 2, 4, 3], solo="secret")
    spec = {0: ["3S", "3H"], 1: ["3D", "4H*"], 2: ["BJ*", "3C"], 3: ["3S"], 4: ["2S", "2H"]}
    # seat 4 holds no 3: he buys from seat 0 paying his ♠2, keeping only ♥2
    spec[4] = ["2S", "2H", "2D"]
    before, st = crowned(p, spec, {4: NO_TWOS, 0: NO_TWOS, 1: NO_TWOS, 2: NO_TWOS})
    assert RULES.summary(st)["bought_threes"][0]["seller"] == 0
    assert RULES.summary(st)["emperor"] == 2
    # 4 has two 2s left (♥2 ♦2): receivers 1, 3, then 0 (seller), 2 (emperor)
    assert flows(st) == [(4, 1, "2H"), (4, 3, "2D")]


def test_open_solo_lost_each_receiver_takes_whole_share_first():
    p = prev(4, None, [1, 0, 2, 4, 3], solo="open")
    spec = {0: ["3S"], 1: ["3D", "4H*"], 2: ["BJ*", "3C"], 3: ["3S"], 4: ["3H", "2S", "2H", "2D"]}
    before, st = crowned(p, spec, {4: NO_TWOS, 0: NO_TWOS, 1: NO_TWOS, 2: NO_TWOS})
    assert flows(st) == [(4, 1, "2S"), (4, 1, "2H"), (4, 0, "2D")]  # 2 (emperor) would be last


def test_multi_hand_sequence_carries_tribute():
    m = RULES.new_match()
    rng_seed = 11
    st = RULES.start_hand(m, RULES.deal(m, rng_seed))
    import random
    rng = random.Random(1)
    while not RULES.is_complete(st):
        st = RULES.apply(st, RULES.bot_action(st, RULES.to_act(st), "heuristic", rng))
    m2 = RULES.next_match(m, st)
    assert m2.previous.finish_order == tuple(RULES.summary(st)["finish_order"])
    assert RULES.new_match(**RULES.match_to_json(m2)) == m2
    st2 = RULES.start_hand(m2, RULES.deal(m2, 12))
    while RULES.phase(st2) == "crown":
        st2 = RULES.apply(st2, RULES.bot_action(st2, RULES.to_act(st2), "heuristic", rng))
    if RULES.phase(st2) != "voided":
        assert RULES.summary(st2)["tribute"]


def test_solo_draw_counts_as_lost_emperor_pays_his_2s():
    """B13: on a draw the emperor's side pays; a solo emperor in third place (0) drew."""
    p = prev(4, None, [1, 0, 4, 2, 3], solo="secret")
    spec = {0: ["3S"], 1: ["3D", "4H*"], 2: ["BJ*", "3C"], 3: ["3S"], 4: ["3H", "2S", "2H", "2D", "2C"]}
    before, st = crowned(p, spec, {4: NO_TWOS, 0: NO_TWOS, 1: NO_TWOS, 2: NO_TWOS})
    # rebels in finishing order 1, 0, (2: this hand's emperor, last), 3 -> 1, 0, 3, 2
    assert flows(st) == [(4, 1, "2S"), (4, 0, "2H"), (4, 3, "2D"), (4, 2, "2C")]


def test_solo_lost_several_sellers_served_last_in_finishing_order():
    # previous: solo emperor 0 lost; finish 3, 1, 4, 2, 0 (rebels 3, 1, 4, 2)
    # this hand: 3 and 4 each sell a 3 (to 0 and 2 who have none); 1 is the emperor
    p = prev(0, None, [3, 1, 4, 2, 0], solo="secret")
    spec = {0: ["2S", "2H", "2D", "2C", "4H*"], 1: ["BJ*", "3H"], 2: [],
            3: ["3S", "3S"], 4: ["3D", "3C"]}
    before, st = crowned(p, spec, {0: NO_TWOS, 1: NO_TWOS, 3: NO_TWOS, 4: NO_TWOS})
    bought = [(b["buyer"], b["seller"]) for b in RULES.summary(st)["bought_threes"]]
    assert bought == [(0, 3), (2, 4)]
    # 0 paid ♠2 for his 3 and keeps ♥2 ♦2 ♣2: first the plain rebel 2, then the
    # late ones in finishing order: 3 (seller), 1 (emperor), 4 (seller)
    assert flows(st) == [(0, 2, "2H"), (0, 3, "2D"), (0, 1, "2C")]


def test_emperor_side_won_payers_without_jokers_or_2s_give_their_highest_any_card():
    from games.engine.baohuang.order import KIND_OF
    from games.engine.cards import Card

    p = prev(0, 1, [1, 0, 2, 3, 4])  # E side 4 + 2: won, 暗保 -> d = 1
    spec = {0: ["3S", "BJ*"], 1: ["3H", "4H*"], 2: ["3D"], 3: ["3C"], 4: ["3S"]}
    before, st = crowned(p, spec, {2: "456789", 3: "456789TJQ", 4: LOW})
    tops = {s: highest(before, s)[0] for s in (2, 3, 4)}
    assert all(c[0] not in "2AB" and c != "SJ" for c in tops.values())  # no jokers, 2s or As
    f = flows(st)
    pool = sorted(tops.items(), key=lambda x: KIND_OF[Card.parse(x[1])])
    assert f == [(pool[0][0], 1, pool[0][1]), (pool[1][0], 0, pool[1][1]), (pool[2][0], 0, pool[2][1])]
