"""Rules audit of the 保皇 engine: cross-cutting cases an expert would try, ruling by
ruling (B3–B13, C6), played through RULES.apply so that the whole path is checked."""

import random
from collections import Counter

import pytest

from games.engine.base import Action, IllegalAction
from games.engine.baohuang import RULES
from games.engine.baohuang.order import KIND_H4_MARKED, THREE_KINDS
from games.engine.baohuang.state import Match
from tests.engine.baohuang_helpers import act, make_deal, play_state, prev

LOW = "456789TJQK"


def beats_via_engine(top, new):
    """Seat 0 leads ``top``; can seat 1 play ``new`` on it?  (B3/B4 through apply.)"""
    st = play_state({0: list(top) + ["3S"], 1: list(new) + ["3H"], 2: ["3D", "5S"],
                     3: ["3C", "5H"], 4: ["3S", "5D"]})
    st = act(st, 0, "play", list(top))
    try:
        act(st, 1, "play", list(new))
        return True
    except IllegalAction as e:
        assert e.rule in ("B3", "B4"), e.message
        return False


# -- B3/B4 --------------------------------------------------------------------

@pytest.mark.parametrize("top,new,ok", [
    # jokers only
    (["SJ", "SJ"], ["BJ", "BJ"], True),
    (["SJ", "SJ"], ["BJ*", "BJ"], True),            # BJ* behaves as BJ
    (["BJ", "SJ"], ["BJ", "BJ"], False),            # BJ over BJ in the first place: not higher
    (["BJ", "SJ"], ["4H*", "BJ"], True),
    (["BJ", "BJ"], ["4H*", "BJ"], False),           # second place BJ vs BJ
    (["BJ", "BJ"], ["4H*", "BJ*"], False),
    (["SJ", "SJ"], ["4H*", "SJ"], False),
    (["BJ", "SJ", "SJ"], ["BJ", "BJ", "BJ"], False),
    (["SJ", "SJ", "SJ"], ["4H*", "BJ", "BJ"], True),
    # singles with the marked cards
    (["BJ"], ["4H*"], True),
    (["BJ*"], ["4H*"], True),
    (["BJ"], ["BJ*"], False),                       # B2: BJ* ranks as a BJ
    (["BJ*"], ["BJ"], False),
    (["SJ"], ["BJ*"], True),
    (["2S"], ["SJ"], True),
    (["4H*"], ["BJ"], False),
    # a 4H* attached makes a set unbeatable
    (["4H*", "5S"], ["BJ", "BJ"], False),
    (["4H*", "5S", "5H"], ["BJ", "BJ", "BJ"], False),
    (["4H*", "SJ"], ["BJ", "BJ"], False),
    # 4H* alone and 4H* with a plain set
    (["AS"], ["4H*"], True),
    (["9S", "9H"], ["4H*", "TS"], True),
    (["BJ", "9S"], ["4H*", "TS"], True),           # a BJ attached needs 4H*
    (["BJ", "9S"], ["BJ", "TS"], False),
    # plain sets and jokers on plain sets
    (["9S", "9H"], ["SJ", "SJ"], True),             # jokers only beat a plain pair
    (["9S", "9H"], ["SJ", "9D"], False),            # 9 over 9 is not higher
    (["9S", "9H"], ["SJ", "TD"], True),
    (["SJ", "9S"], ["BJ", "TS"], True),
    (["SJ", "9S"], ["SJ", "TS"], False),            # small joker needs a big joker
    (["SJ", "SJ", "9S", "9H", "9D"], ["BJ", "BJ", "JS", "JH", "JD"], True),
    (["SJ", "SJ", "9S", "9H", "9D"], ["BJ", "BJ", "BJ", "JS", "JH"], True),
    (["SJ", "SJ", "9S", "9H", "9D"], ["BJ", "SJ", "JS", "JH", "JD"], False),
    # position-wise: 2s with a SJ vs As with a BJ, either way
    (["SJ", "2S", "2H"], ["BJ", "AS", "AH"], False),
    (["BJ", "AS", "AH"], ["SJ", "2S", "2H"], False),
    # different sizes are refused
    (["9S"], ["TS", "TH"], False),
    (["9S", "9H"], ["BJ"], False),
    (["9S", "9H"], ["SJ", "SJ", "SJ"], False),
])
def test_b3_b4_cases(top, new, ok):
    assert beats_via_engine(top, new) is ok


@pytest.mark.parametrize("cards", [
    ["3S", "SJ"], ["3S", "BJ"], ["3S", "4H*"], ["3S", "3H"], ["3S", "4S"],
    ["9S", "TS"], ["SJ", "9S", "TS"], ["4H*", "4S", "5S"],
])
def test_b3_non_sets_are_refused_when_leading(cards):
    st = play_state({0: cards + ["5D"], 1: ["3H", "5H"]})
    with pytest.raises(IllegalAction) as e:
        act(st, 0, "play", cards)
    assert e.value.rule in ("B3", "B6")


@pytest.mark.parametrize("cards", [
    ["4H*"], ["4H*", "BJ", "SJ"], ["BJ", "BJ*", "SJ"], ["4H*", "4S", "4D"],
    ["4H", "4S"], ["SJ", "2S", "2H"], ["BJ*", "5S"],
])
def test_b3_sets_are_accepted_when_leading(cards):
    st = play_state({0: cards + ["6D", "3S"], 1: ["3H", "5H"]})
    st = act(st, 0, "play", cards)
    assert st.top[0] == 0


def test_b4_legal_plays_listed_for_jokers_only_top():
    st = play_state({0: ["BJ", "SJ", "3S"], 1: ["4H*", "BJ*", "BJ", "SJ", "SJ", "3H"]})
    st = act(st, 0, "play", ["BJ", "SJ"])
    plays = {tuple(c.code for c in a.arg) for a in RULES.legal_actions(st, 1) if a.verb == "play"}
    # only 4H* + BJ beats BJ SJ (4H* + SJ fails in the second place)
    assert plays == {("4H*", "BJ")}


# -- B5 -----------------------------------------------------------------------

def test_b5_yield_then_top_changes_then_yielder_may_beat_the_new_top_but_not_yield():
    st = play_state({0: ["5S", "QS", "3S"], 1: ["9S", "3H"], 2: ["7S", "KS", "3D"],
                     3: ["4S", "3C"], 4: ["4D", "3S"]})
    st = act(st, 0, "play", ["5S"])
    st = act(st, 1, "yield")
    st = act(st, 2, "play", ["7S"])
    st = act(st, 3, "pass")
    st = act(st, 4, "pass")
    st = act(st, 0, "yield")
    assert RULES.to_act(st) == 1
    assert RULES.legal_verbs(st, 1) == {"play", "pass"}  # 讓 once per round
    st = act(st, 1, "play", ["9S"])
    # 2 (beaten) may answer; 3 and 4 passed; 0 yielded: may still play
    assert RULES.to_act(st) == 2
    st = act(st, 2, "play", ["KS"])
    assert RULES.to_act(st) == 0 and RULES.legal_verbs(st, 0) == {"pass"}  # Q < K, 讓 used
    st = act(st, 0, "pass")
    assert RULES.to_act(st) == 1
    st = act(st, 1, "pass")
    assert RULES.to_act(st) == 2 and st.top is None  # round over, K leads


def test_b5_passed_player_skipped_for_the_rest_of_the_round_even_when_top_changes():
    st = play_state({0: ["5S", "3S", "AS"], 1: ["9S", "3H"], 2: ["7S", "3D", "KS"],
                     3: ["8S", "3C"], 4: ["JS", "3S"]})
    st = act(st, 0, "play", ["5S"])
    st = act(st, 1, "pass")
    st = act(st, 2, "play", ["7S"])
    st = act(st, 3, "play", ["8S"])
    st = act(st, 4, "play", ["JS"])
    st = act(st, 0, "play", ["AS"])
    assert RULES.to_act(st) == 2  # 1 passed: skipped although he could beat 8/J? not A
    st = act(st, 2, "pass")
    assert RULES.to_act(st) == 3
    st = act(st, 3, "pass")
    st = act(st, 4, "pass")
    assert RULES.to_act(st) == 0 and st.top is None and st.leader == 0


def test_b5_everyone_else_yields_then_passes():
    st = play_state({0: ["5S", "6S", "3S"], 1: ["9S", "3H"], 2: ["7S", "3D"],
                     3: ["8S", "3C"], 4: ["JS", "3S"]})
    st = act(st, 0, "play", ["5S"])
    for s in (1, 2, 3, 4):
        st = act(st, s, "yield")
    assert RULES.to_act(st) == 1  # the top player (0) is skipped
    for s in (1, 2, 3):
        st = act(st, s, "pass")
        assert st.top is not None  # not over while someone who only yielded remains
    st = act(st, 4, "pass")
    assert RULES.to_act(st) == 0 and st.top is None and st.last_round[-1] == (4, "pass", ())


def test_b5_finishing_on_a_beat_while_on_top_jiefeng_to_next_seat_with_cards():
    st = play_state({0: ["5S", "6S", "3S"], 1: ["4S", "3H"], 2: ["9S"], 3: ["8S", "3C"],
                     4: ["JS", "3S"]})
    st = act(st, 0, "play", ["5S"])
    st = act(st, 1, "pass")
    st = act(st, 2, "play", ["9S"])  # his last card: finishes on top (no 3 in this crafted hand)
    assert st.finished == (2,)
    assert RULES.to_act(st) == 3  # the others may still beat it
    st = act(st, 3, "pass")
    st = act(st, 4, "pass")
    st = act(st, 0, "pass")
    assert RULES.to_act(st) == 3 and st.leader == 3 and st.top is None  # 接風: seat after 2


def test_b5_finished_top_beaten_later_then_round_ends_normally():
    st = play_state({0: ["5S", "6S", "3S"], 1: ["4S", "3H"], 2: ["9S"], 3: ["8S", "3C"],
                     4: ["JS", "3S"]})
    st = act(st, 0, "play", ["5S"])
    st = act(st, 1, "pass")
    st = act(st, 2, "play", ["9S"])
    st = act(st, 3, "pass")
    st = act(st, 4, "play", ["JS"])
    st = act(st, 0, "pass")
    assert RULES.to_act(st) == 4 and st.top is None  # 4 on top leads; 2 (no cards) skipped


def test_b5_leader_cannot_yield_or_pass():
    st = play_state({0: ["5S", "3S"], 1: ["6S", "3H"]})
    for verb in ("yield", "pass"):
        with pytest.raises(IllegalAction) as e:
            act(st, 0, verb)
        assert e.value.rule == "B5"
    assert [a.verb for a in RULES.legal_actions(st, 0)] == ["play"]


def test_b5_finished_players_never_act():
    st = play_state({0: ["5S", "6S", "3S"], 1: [], 2: ["9S", "3D"], 3: [], 4: ["JS", "3S"]},
                    finished=(1, 3))
    seen = []
    st = act(st, 0, "play", ["5S"])
    seen.append(RULES.to_act(st))
    st = act(st, 2, "pass")
    seen.append(RULES.to_act(st))
    st = act(st, 4, "pass")
    seen.append(RULES.to_act(st))
    assert seen == [2, 4, 0] and st.top is None


# -- B6 -----------------------------------------------------------------------

def test_b6_player_with_only_his_3_leads_it_after_jiefeng_and_finishes():
    st = play_state({0: ["9S"], 1: ["3H"], 2: ["5S", "3D"], 3: ["6S", "3C"], 4: ["7S", "3S"]})
    st = act(st, 0, "play", ["9S"])
    assert RULES.legal_verbs(st, 1) == {"yield", "pass"}
    for s in (1, 2, 3, 4):
        st = act(st, s, "pass")
    assert RULES.to_act(st) == 1  # 接風 to 1, who holds only his 3
    assert [a.arg for a in RULES.legal_actions(st, 1)] == [tuple(RULES.legal_actions(st, 1)[0].arg)]
    assert RULES.auto_action(st, 1).arg[0].code == "3H"
    st = act(st, 1, "play", ["3H"])
    assert st.finished == (0, 1)
    # the 3 on top is beaten by any single
    assert RULES.legal_verbs(st, 2) == {"play", "yield", "pass"}


def test_b6_three_never_playable_while_other_cards_remain_even_when_leading():
    st = play_state({0: ["4H*", "3S"], 1: ["3H", "5S"]})
    assert all(a.arg[0].code != "3S" for a in RULES.legal_actions(st, 0))
    with pytest.raises(IllegalAction):
        act(st, 0, "play", ["3S"])


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 8])
def test_b6_b7_b9_one_3_each_and_4h_unmoved_after_buy_crown_and_tribute(seed):
    rng = random.Random(seed)
    p = prev(rng.randrange(5), None, rng.sample(range(5), 5), solo="open") if seed % 2 else None
    if p is None:
        e = rng.randrange(5)
        p = prev(e, (e + 1) % 5, rng.sample(range(5), 5), declared="open")
    m = Match(1, p)
    st = RULES.start_hand(m, RULES.deal(m, seed))
    threes = lambda st: [sum(st.hands[s][k] for k in THREE_KINDS) for s in range(5)]
    assert threes(st) == [1] * 5
    while RULES.phase(st) == "crown":
        st = RULES.apply(st, RULES.bot_action(st, RULES.to_act(st), "heuristic", rng))
    if RULES.phase(st) != "voided":
        assert threes(st) == [1] * 5
        # B9: 4H* never moves (not a 買3 payment, not in the crown pile, never tribute),
        # so a solo happens exactly when the emperor was dealt it
        h4 = [s for s, h in enumerate(RULES.deal_to_record(st.deal)["deal"].values()) if "4H*" in h]
        assert st.hands[h4[0]][KIND_H4_MARKED] == 1
        assert (st.guard is None) == (st.emperor == h4[0])


# -- B7 -----------------------------------------------------------------------

def test_b7_every_buyer_served_from_lowest_spare_seat_and_pays_in_c6_order():
    # seat 3 holds all five 3s; 0, 1, 2, 4 buy from him
    spec = {0: ["2H", "2C", "2S"], 1: ["SJ", "BJ"], 2: ["BJ", "BJ*", "4H*"], 3: ["3S", "3S", "3H", "3D", "3C"],
            4: []}
    st = RULES.start_hand(Match(), make_deal(spec, {1: LOW, 2: LOW, 4: LOW}))
    b = RULES.summary(st)["bought_threes"]
    assert [(x["buyer"], x["seller"], x["paid"], x["three"]) for x in b] == [
        (0, 3, "2S", "3S"), (1, 3, "SJ", "3S"), (2, 3, "BJ", "3H"), (4, 3, None, "3D")]


# -- B8 -----------------------------------------------------------------------

def test_b8_full_pass_round_pile_and_accept_after_second_offer():
    spec = {0: ["3S", "2S", "2H"], 1: ["3H", "4H*"], 2: ["3D", "BJ*"], 3: ["3C", "2D", "2C"], 4: ["3S", "2S"]}
    st = RULES.start_hand(Match(), make_deal(spec, {0: LOW, 1: LOW, 3: LOW, 4: LOW}))
    order = []
    while not st.crown_second:
        order.append(RULES.to_act(st))
        st = act(st, RULES.to_act(st), "crown", "pass")
    assert order == [2, 1, 0, 4, 3]  # clockwise: s-1
    # 1 has no 2: adds nothing; 0 adds ♠2, 4 ♠2, 3 ♦2 (C6 order within each hand)
    assert [c.code for c in st.crown_pile] == ["BJ*", "2S", "2S", "2D"]
    assert RULES.to_act(st) == 2
    st = act(st, 2, "crown", "accept")
    assert st.emperor == 2 and sum(st.sizes) == 205 - 0
    assert st.sizes[2] == 41 + 3 and st.sizes[0] == 40 and st.sizes[3] == 40


# -- B12 ----------------------------------------------------------------------

def test_b12_open_guard_pair_top_quadruples_and_draw_is_zero():
    from games.engine.baohuang.scoring import score
    r = score((3, 1, 0, 2, 4), emperor=3, guard=1, solo=None, guard_declared="open", multiplier=3)
    assert r["emperor_side_score"] == 24 and r["game_points"][3] == 144
    assert sum(r["game_points"].values()) == 0
    r = score((3, 0, 2, 4, 1), emperor=3, guard=1, solo=None, guard_declared="open")
    assert r["winner"] == "draw" and set(r["game_points"].values()) == {0}
    r = score((0, 1, 2, 3, 4), emperor=2, guard=None, solo="open", guard_declared=None)
    assert r["emperor_side_score"] == 0 and r["winner"] == "draw"
    r = score((1, 2, 3, 0, 4), emperor=4, guard=None, solo="open", guard_declared=None, multiplier=2)
    assert r["emperor_side_score"] == -8 and r["game_points"][4] == -64
    assert all(r["game_points"][s] == 16 for s in range(4))


# -- hidden information -------------------------------------------------------

def _swap(deal, a, b, code_a, code_b):
    """A deal where seat a's ``code_a`` and seat b's ``code_b`` are exchanged."""
    hands = {str(s): [c.code for c in h] for s, h in enumerate(deal.hands)}
    hands[str(a)][hands[str(a)].index(code_a)] = code_b
    hands[str(b)][hands[str(b)].index(code_b)] = code_a
    return RULES.deal_from_record(RULES.new_match(), {"deal": hands})


def _holder(deal, code):
    return [s for s, h in enumerate(deal.hands) if any(c.code == code for c in h)]


def _same_views_until_4h(deal_a, deal_b, seat_map, watchers, seed, previous=None,
                         policy="heuristic"):
    """Play deal A with bots; apply the same actions (declaration seat mapped) to
    deal B; every watcher's view must be identical until 4H* is played (or a swapped plain
    ♥4 cannot be) or the hand ends.  Returns the number of actions compared."""
    rng = random.Random(seed)
    m = Match(1, previous)
    a = RULES.start_hand(m, deal_a)
    b = RULES.start_hand(m, deal_b)
    n = 0
    while not RULES.is_complete(a):
        for w in watchers:
            assert RULES.view(a, w) == RULES.view(b, w), (n, w)
        if RULES.phase(a) == "crown":  # the BJ* holder is the emperor in both deals
            act_a = Action(RULES.to_act(a), "crown", "accept")
        elif policy == "random":  # random, but keeping 4H* back while it can
            legal = [x for x in RULES.legal_actions(a, RULES.to_act(a))
                     if not any(c.code == "4H*" for c in x.cards)]
            act_a = rng.choice(legal) if legal else RULES.legal_actions(a, RULES.to_act(a))[0]
        else:
            act_a = RULES.bot_action(a, RULES.to_act(a), policy, rng)
        if act_a.verb == "play" and any(c.code == "4H*" for c in act_a.arg):
            break
        if act_a.verb in ("solo", "guard"):
            act_b = Action(seat_map[act_a.seat], "guard", "secret")
            act_a = Action(act_a.seat, act_a.verb, "secret")
        else:
            act_b = act_a
        a = RULES.apply(a, act_a)
        try:
            b = RULES.apply(b, act_b)
        except IllegalAction:  # a plain ♥4 the other deal does not hold there
            break
        n += 1
    return n


@pytest.mark.parametrize("policy", ["heuristic", "random"])
@pytest.mark.parametrize("seed", [3, 5, 8, 13])
def test_views_identical_whoever_is_the_secret_guard(seed, policy):
    """B10: swap 4H* and a plain ♥4 between two seats other than the emperor: every
    other seat (and a spectator) sees exactly the same views until 4H* is played."""
    deal = RULES.deal(RULES.new_match(), seed)
    e = _holder(deal, "BJ*")[0]
    g = _holder(deal, "4H*")[0]
    others = [s for s in _holder(deal, "4H") if s not in (e, g)]
    if g == e or not others:
        pytest.skip("deal does not allow the swap")
    o = others[0]
    deal_b = _swap(deal, g, o, "4H*", "4H")
    watchers = [s for s in range(5) if s not in (g, o)] + [None]
    # the BJ* holder must accept at once so that he is the emperor in both deals
    n = _same_views_until_4h(deal, deal_b, {g: o}, watchers, seed,
                             prev(e, (e + 2) % 5, [0, 1, 2, 3, 4]), policy)
    assert n > 3


@pytest.mark.parametrize("policy", ["heuristic", "random"])
@pytest.mark.parametrize("seed", [3, 4, 8, 13, 18])
def test_views_identical_secret_solo_or_secret_guard(seed, policy):
    """B9/B10: the emperor holding 4H* (暗獨) or another seat holding it (暗保) look
    the same to the three remaining seats and a spectator until 4H* is played."""
    deal = RULES.deal(RULES.new_match(), seed)
    e = _holder(deal, "BJ*")[0]
    g = _holder(deal, "4H*")[0]
    if g == e:
        pytest.skip("already a solo")
    if "4H" not in [c.code for c in deal.hands[e]]:
        pytest.skip("the emperor holds no plain ♥4")
    solo_deal = _swap(deal, g, e, "4H*", "4H")  # the emperor now holds 4H*
    watchers = [s for s in range(5) if s not in (g, e)] + [None]
    n = _same_views_until_4h(solo_deal, deal, {e: g}, watchers, seed, None, policy)
    assert n > 3
