"""B5 rounds (beat / 讓 once / 過, top skipped, round end, 接風), B6 the 3, B11 places."""

import pytest

from games.engine.base import IllegalAction
from games.engine.baohuang import RULES
from tests.engine.baohuang_helpers import act, play_state


def test_yield_then_play_then_pass():
    st = play_state({0: ["5S", "5H", "9S", "3S"], 1: ["6S", "6H", "3H"], 2: ["7S", "7H", "KS", "3D"],
                     3: ["8S", "QS", "3C"], 4: ["TS", "TH", "3S"]})
    st = act(st, 0, "play", ["5S", "5H"])
    assert RULES.legal_verbs(st, 1) == {"play", "yield", "pass"}
    st = act(st, 1, "yield")
    st = act(st, 2, "play", ["7S", "7H"])
    assert RULES.legal_verbs(st, 3) == {"yield", "pass"}  # 8 Q cannot beat a pair
    st = act(st, 3, "pass")
    st = act(st, 4, "yield")
    st = act(st, 0, "pass")
    assert RULES.to_act(st) == 1  # 讓 keeps him in the round
    assert RULES.legal_verbs(st, 1) == {"pass"}  # 66 does not beat 77, 讓 already used
    with pytest.raises(IllegalAction) as e:
        act(st, 1, "yield")
    assert e.value.rule == "B5" and "already" in e.value.message
    st = act(st, 1, "pass")
    assert RULES.to_act(st) == 4  # seat 2 is on top: skipped; 3 passed
    st = act(st, 4, "pass")
    # every other player with cards has passed: the player on top leads
    assert RULES.to_act(st) == 2 and st.top is None and st.leader == 2
    v = RULES.view(st, 0)
    assert v["round"] == {"leader": 2, "yielded": [], "passed": []} and v["trick_log"] == []
    assert [e["verb"] for e in v["last_round"]] == ["play", "yield", "play", "pass", "yield", "pass",
                                                  "pass", "pass"]
    assert RULES.legal_verbs(st, 2) == {"play"}  # the leader must play
    with pytest.raises(IllegalAction):
        act(st, 2, "pass")


def test_yield_is_again_allowed_in_the_next_round():
    st = play_state({0: ["5S", "9S", "3S"], 1: ["6S", "3H"], 2: ["3D", "KS"], 3: ["3C", "4S"],
                     4: ["3S", "4D"]})
    st = act(st, 0, "play", ["9S"])
    st = act(st, 1, "yield")
    for s in (2, 3, 4, 1):
        st = act(st, s, "pass")
    assert RULES.to_act(st) == 0
    st = act(st, 0, "play", ["5S"])
    assert "yield" in RULES.legal_verbs(st, 1)


def test_top_player_is_skipped_and_may_be_beaten_back_later():
    st = play_state({0: ["5S", "TS", "3S"], 1: ["6S", "3H"], 2: ["3D", "4S"], 3: ["3C", "4D"],
                     4: ["3S", "4C"]})
    st = act(st, 0, "play", ["5S"])
    st = act(st, 1, "play", ["6S"])
    for s in (2, 3, 4):
        st = act(st, s, "pass")
    assert RULES.to_act(st) == 0  # 0 has not passed: he may beat back
    st = act(st, 0, "play", ["TS"])
    assert RULES.to_act(st) == 1  # seat 1 has not passed: still in the round
    st = act(st, 1, "pass")
    assert RULES.to_act(st) == 0 and st.top is None and st.leader == 0


def test_jiefeng_next_seat_with_cards_leads_after_a_finished_top():
    st = play_state({0: ["3S"], 1: ["4S", "3H"], 2: ["5S", "3D"], 3: ["6S", "3C"], 4: ["7S", "3S"]})
    st = act(st, 0, "play", ["3S"])  # his last card, when leading (B6)
    assert st.finished == (0,)
    for s in (1, 2, 3, 4):
        st = act(st, s, "pass")
    assert RULES.to_act(st) == 1 and st.leader == 1 and st.top is None  # 接風


def test_jiefeng_skips_finished_seats():
    st = play_state({0: ["9S", "3S"], 1: [], 2: ["5S", "3D"], 3: ["6S", "3C"], 4: ["7S", "3S"]},
                    finished=(1,))
    st = act(st, 0, "play", ["9S"])
    for s in (2, 3, 4):
        st = act(st, s, "pass")
    st = act(st, 0, "play", ["3S"])
    for s in (2, 3, 4):
        st = act(st, s, "pass")
    assert RULES.to_act(st) == 2  # seat 1 has no cards: the next seat with cards leads


def test_player_left_with_only_a_3():
    st = play_state({0: ["9S", "4S", "3S"], 1: ["3H"], 2: ["5S", "3D"], 3: ["6S", "3C"],
                     4: ["7S", "3S"]})
    st = act(st, 0, "play", ["4S"])
    assert RULES.legal_verbs(st, 1) == {"yield", "pass"}  # the 3 cannot follow
    assert RULES.legal_actions(st, 1)[0].verb == "yield"
    with pytest.raises(IllegalAction) as e:
        act(st, 1, "play", ["3H"])
    assert e.value.rule == "B6"
    st = act(st, 1, "pass")
    st = act(st, 2, "play", ["5S"])
    for s in (3, 4, 0):
        st = act(st, s, "pass")
    st = act(st, 2, "play", ["3D"])  # 2 finishes with his 3
    for s in (3, 4, 0, 1):
        st = act(st, s, "pass")
    assert RULES.to_act(st) == 3  # 接風 from seat 2
    st = act(st, 3, "play", ["6S"])
    for s in (4, 0, 1):
        st = act(st, s, "pass")
    st = act(st, 3, "play", ["3C"])
    for s in (4, 0, 1):
        st = act(st, s, "pass")
    st = act(st, 4, "play", ["7S"])
    for s in (0, 1):
        st = act(st, s, "pass")
    st = act(st, 4, "play", ["3S"])
    st = act(st, 0, "play", ["9S"])  # beats the 3
    st = act(st, 1, "pass")
    # the lead returns to 0 who holds only his 3 now
    assert RULES.to_act(st) == 0 and RULES.legal_actions(st, 0)[0].arg[0].code == "3S"
    assert len(RULES.legal_actions(st, 0)) == 1
    st = act(st, 0, "play", ["3S"])
    assert RULES.is_complete(st)
    assert RULES.summary(st)["finish_order"] == [2, 3, 4, 0, 1]  # B11: 1 is 大落


def test_three_cannot_be_led_early():
    st = play_state({0: ["9S", "3S"], 1: ["3H", "4S"], 2: ["3D", "4D"], 3: ["3C", "4C"], 4: ["3S", "4H"]})
    with pytest.raises(IllegalAction) as e:
        act(st, 0, "play", ["3S"])
    assert e.value.rule == "B6"
    with pytest.raises(IllegalAction) as e:
        act(st, 0, "play", ["9S", "3S"])
    assert e.value.rule in ("B3", "B6")


def test_hand_ends_when_four_have_finished():
    st = play_state({0: ["3S"], 1: ["3H"], 2: ["3D"], 3: ["3C"], 4: ["3S"]})
    order = []
    while not RULES.is_complete(st):
        s = RULES.to_act(st)
        verbs = RULES.legal_verbs(st, s)
        if "play" in verbs:
            order.append(s)
            st = act(st, s, "play", [RULES.legal_actions(st, s)[0].arg[0].code])
        else:
            st = act(st, s, "pass")
    assert order == [0, 1, 2, 3]  # the fifth never plays: 大落
    summ = RULES.summary(st)
    assert summ["finish_order"] == [0, 1, 2, 3, 4]
    assert summ["winner"] == "emperor" and summ["emperor_side_score"] == 12  # (4+2)×2 pair_top
    assert summ["game_points"] == {"0": 24, "1": 12, "2": -12, "3": -12, "4": -12}


def test_4h_played_reveals_the_guard():
    st = play_state({0: ["9S", "3S"], 1: ["4H*", "TS", "3H"], 2: ["3D", "4D"], 3: ["3C", "4C"],
                     4: ["3S", "4H"]}, emperor=0, guard=1)
    assert RULES.view(st, 2)["guard"] is None and RULES.view(st, 0)["guard"] is None
    assert RULES.view(st, 1)["guard"] == 1
    st = act(st, 0, "play", ["9S"])
    st = act(st, 1, "play", ["4H*"])
    assert RULES.view(st, 2)["guard"] == 1 and RULES.view(st, 0)["guard"] == 1


def test_the_log_is_every_applied_action_whether_linked_or_read():
    """The log is linked action by action and built as a tuple when read: at
    every step it is the previous log plus the action, a state compares and
    hashes equal to its twin whose log was never read, and it survives a
    pickle and an ``evolve``."""
    import pickle
    import random

    rng = random.Random(3)
    st = RULES.start_hand(RULES.new_match(), RULES.deal(RULES.new_match(), 5))
    steps = 0
    while not RULES.is_complete(st):
        seat = RULES.to_act(st)
        action = RULES.bot_action(st, seat, "heuristic", rng)
        before = st.log
        new, twin = RULES.apply(st, action), RULES.apply(st, action)
        assert type(new.log) is tuple and new.log == before + (action,)
        assert new == twin and hash(new) == hash(twin)  # twin's log still linked
        st = new
        steps += 1
    assert steps > 100 and len(st.log) == steps and RULES.actions(st) == st.log
    unread = RULES.apply(RULES.start_hand(RULES.new_match(), RULES.deal(RULES.new_match(), 5)),
                         st.log[0])
    assert pickle.loads(pickle.dumps(unread)).log == (st.log[0],)
    assert st.evolve(log=list(st.log[:3])).log == st.log[:3]
    assert pickle.loads(pickle.dumps(st)) == st
