"""B8 crown (passes clockwise with 2s, five passes, second refusal voids), B9/B10 declarations."""

import pytest

from games.engine.base import IllegalAction
from games.engine.baohuang import RULES
from games.engine.baohuang.state import Match
from tests.engine.baohuang_helpers import act, all_cards, hand_codes, make_deal, prev

LOW = "456789TJQK"


def start(spec=None, fill=None, match=None):
    spec = spec or {0: ["3S"], 1: ["3H"], 2: ["3D", "BJ*"], 3: ["3C"], 4: ["3S", "4H*"]}
    return RULES.start_hand(match or RULES.new_match(), make_deal(spec, fill))


def test_accept_makes_emperor_and_4h_holder_declares_guard():
    st = start()
    assert RULES.phase(st) == "crown" and RULES.to_act(st) == 2
    st = act(st, 2, "crown", "accept")
    assert st.emperor == 2 and RULES.phase(st) == "declare"
    assert RULES.to_act(st) == 4 and RULES.legal_verbs(st, 4) == {"guard"}
    st = act(st, 4, "guard", "open")
    assert RULES.phase(st) == "play" and RULES.to_act(st) == 2  # the emperor leads
    summ = RULES.summary(st)
    assert (summ["emperor"], summ["guard"], summ["solo"], summ["guard_declared"]) == (2, 4, None, "open")


def test_pass_goes_clockwise_and_later_passers_add_a_2():
    st = start()
    before = all_cards(st)
    st = act(st, 2, "crown", "pass")
    assert RULES.to_act(st) == 1  # clockwise = s-1 (C2)
    assert [c.code for c in st.crown_pile] == ["BJ*"]  # the first passer adds no 2
    twos = [c for c in hand_codes(st, 1) if c.startswith("2")]
    assert twos
    st = act(st, 1, "crown", "pass")
    assert RULES.to_act(st) == 0
    assert [c.code for c in st.crown_pile] == ["BJ*", twos[0]]  # first 2 in C6 order S,H,D,C
    twos1 = len(twos)
    assert sum(c.startswith("2") for c in hand_codes(st, 1)) == twos1 - 1
    st = act(st, 0, "crown", "accept")
    assert st.emperor == 0 and "BJ*" in hand_codes(st, 0)
    assert RULES.view(st, 0)["counts"]["0"] == 43
    assert all_cards(st) == before  # conserved


def test_passer_without_a_2_adds_nothing():
    st = start({0: ["3S"], 1: ["3H"], 2: ["3D", "BJ*"], 3: ["3C"], 4: ["3S", "4H*"]}, {1: LOW})
    st = act(st, 2, "crown", "pass")
    st = act(st, 1, "crown", "pass")
    assert [c.code for c in st.crown_pile] == ["BJ*"]


def test_five_passes_return_to_first_holder_then_second_refusal_voids():
    st = start()
    for seat in (2, 1, 0, 4, 3):
        st = act(st, seat, "crown", "pass")
    assert RULES.to_act(st) == 2 and st.crown_second
    assert len(st.crown_pile) == 5  # BJ* and four 2s
    v = RULES.view(st, 0)["crown"]
    assert v["holder"] == 2 and v["twos"] == 4 and v["passed"] == [2, 1, 0, 4, 3]
    voided = act(st, 2, "crown", "pass")
    assert RULES.is_complete(voided) and RULES.phase(voided) == "voided"
    summ = RULES.summary(voided)
    assert summ["voided"] is True and summ["complete"] is True and summ["emperor"] is None
    assert summ["game_points"] == {str(s): 0 for s in range(5)}
    assert RULES.view(voided, 1)["phase"] == "voided"


def test_second_round_accept_takes_the_whole_pile():
    st = start()
    for seat in (2, 1, 0, 4, 3):
        st = act(st, seat, "crown", "pass")
    st = act(st, 2, "crown", "accept")
    assert st.emperor == 2 and hand_codes(st, 2).count("BJ*") == 1
    assert RULES.view(st, 2)["counts"]["2"] == 41 + 4


def test_voided_deal_keeps_tribute_owed_for_the_redeal():
    p = prev(0, 1, [0, 1, 2, 3, 4])
    match = Match(1, p)
    st = start(match=match)
    for seat in (2, 1, 0, 4, 3, 2):
        st = act(st, seat, "crown", "pass")
    assert RULES.summary(st)["tribute"] == []
    assert RULES.next_match(match, st) == match
    st2 = start(match=RULES.next_match(match, st))
    st2 = act(st2, 2, "crown", "accept")
    # emperor's side won with 暗保: each of the three rebels pays one card (B13)
    assert [(t["from"], t["to"]) for t in RULES.summary(st2)["tribute"]][0][1] == 1
    assert sorted(t["from"] for t in RULES.summary(st2)["tribute"]) == [2, 3, 4]


def test_solo_when_emperor_holds_4h():
    st = start({0: ["3S"], 1: ["3H"], 2: ["3D", "BJ*", "4H*"], 3: ["3C"], 4: ["3S"]})
    st = act(st, 2, "crown", "accept")
    assert RULES.to_act(st) == 2 and RULES.legal_verbs(st, 2) == {"solo"}
    with pytest.raises(IllegalAction) as e:
        act(st, 2, "guard", "open")
    assert e.value.rule == "B9"
    st = act(st, 2, "solo", "secret")
    summ = RULES.summary(st)
    assert summ["solo"] == "secret" and summ["guard"] is None and summ["guard_declared"] is None


def test_4h_holder_accepting_the_passed_crown_plays_solo():
    # the 4H* holder accepting the passed BJ* becomes a solo emperor
    st = start({0: ["3S"], 1: ["3H", "4H*"], 2: ["3D", "BJ*"], 3: ["3C"], 4: ["3S"]})
    st = act(st, 2, "crown", "pass")
    st = act(st, 1, "crown", "accept")
    assert st.emperor == 1 and RULES.legal_verbs(st, 1) == {"solo"}
