"""Per-seat views: hidden hands, kitty and 還牌 cards; failed throws never name who stopped them."""

import json
from dataclasses import replace

import pytest

from games.engine.base import Action
from games.engine.shengji import RULES

from .shengji_fixtures import act, build_deal, cards, play_state

TOP_KEYS = {
    "game", "seat", "phase", "to_act", "hand", "counts", "levels", "level", "dealer",
    "trump", "opener", "shown_card", "piles", "pile_points", "passed", "auction_winner",
    "kitty", "trick", "last_trick", "attackers_points", "failed_throw", "legal", "hint",
    "result",
}


@pytest.fixture
def give_state():
    deal = build_deal({0: "AS", 1: "5H 5H 5D KC 4C 4S 6D 7H", 2: "BJ BJ SJ 2S 2S"}, opener=0)
    s = RULES.start_hand(RULES.new_match(), deal)
    for a in (act(0, "bid", "AS"), act(1, "bid", "5H 5D"), act(2, "bid", "BJ BJ SJ 2S 2S"),
              act(3, "pass"), act(0, "pass"), act(1, "bid", "5H"), act(2, "pass")):
        s = RULES.apply(s, a)
    s = RULES.apply(s, act(1, "trump", "S"))
    assert s.phase == "give" and s.owed == {0: 1, 2: 5}
    return s


def test_view_has_the_agreed_members_and_is_json(give_state):
    for seat in (0, 1, None):
        v = RULES.view(give_state, seat)
        assert TOP_KEYS <= set(v)
        assert v["game"] == "shengji" and v["phase"] == "give"
        json.dumps(v)
    v = RULES.view(give_state, 1)
    assert v["legal"] == ["give"] and RULES.view(give_state, 0)["legal"] == []
    assert v["counts"] == {str(s): len(h) for s, h in enumerate(give_state.hands)}


def test_own_hand_is_sorted_by_trump_order(give_state):
    v = RULES.view(give_state, 1)
    ctx = give_state.ctx
    assert v["hand"] == [c.code for c in sorted(give_state.hands[1], key=ctx.sort_key)]
    assert v["hand"][0] == "AS"  # the strongest trump first


def test_a_seat_view_does_not_change_with_hidden_cards(give_state):
    """Swap cards between seats 2 and 3 and change the kitty: seat 0 sees nothing."""
    s = give_state
    h2, h3 = s.hands[2], s.hands[3]
    i = next(i for i, c in enumerate(h2) if c not in h3)
    j = next(j for j, c in enumerate(h3) if c not in h2)
    n2 = h2[:i] + (h3[j],) + h2[i + 1:]
    n3 = h3[:j] + (h2[i],) + h3[j + 1:]
    other = replace(s, hands=(s.hands[0], s.hands[1], n2, n3), kitty=tuple(reversed(s.kitty)))
    assert RULES.view(other, 0) == RULES.view(s, 0)
    assert RULES.view(other, 1) == RULES.view(s, 1)
    assert RULES.view(other, 2) != RULES.view(s, 2)
    assert RULES.view(other, None) == RULES.view(s, None)


def test_spectator_sees_no_hand(give_state):
    v = RULES.view(give_state, None)
    assert v["hand"] == [] and v["kitty"] is None and v["given"] == {}


def test_given_cards_are_seen_by_giver_and_receiver_only(give_state):
    s = give_state
    g = RULES.auto_action(s, 1)
    s2 = RULES.apply(s, g)
    mine = dict(g.arg)
    v0, v1, v2, v3 = (RULES.view(s2, seat) for seat in range(4))
    assert v1["given"] == {"0": [c.code for c in mine[0]], "2": [c.code for c in mine[2]]}
    assert v0["given"] == {"0": [c.code for c in mine[0]]}
    assert v2["given"] == {"2": [c.code for c in mine[2]]}
    assert v3["given"] == {}
    assert v3["owed"] == {"0": 1, "2": 5}  # the counts are public (the piles were)


def test_kitty_is_shown_to_the_dealer_from_the_bury_and_to_all_at_the_end(give_state):
    s = RULES.apply(give_state, RULES.auto_action(give_state, 1))
    assert s.phase == "bury" and s.dealer == 1
    assert sorted(RULES.view(s, 1)["kitty"]) == sorted(c.code for c in s.kitty)
    for seat in (0, 2, 3, None):
        assert RULES.view(s, seat)["kitty"] is None
    s = RULES.apply(s, RULES.auto_action(s, 1))
    assert RULES.view(s, 0)["kitty"] is None
    assert sorted(RULES.view(s, 1)["kitty"]) == sorted(c.code for c in s.kitty)


def test_kitty_and_result_are_public_after_the_hand():
    hands = {0: "AH", 1: "3C", 2: "4C", 3: "6C"}
    s = play_state(hands, "3S 4S 6S 7S 8S 9S JS QS", dealer=0, trump="H")
    for seat in range(4):
        s = RULES.apply(s, act(seat, "play", hands[seat]))
    v = RULES.view(s, 3)
    assert v["phase"] == "done" and v["to_act"] is None
    assert sorted(v["kitty"]) == sorted("3S 4S 6S 7S 8S 9S JS QS".split())
    assert v["result"]["attackers_points"] == 0 and v["result"]["levels_after"]["0"] == "8"


def test_a_failed_throw_is_public_but_not_who_stopped_it():
    # hearts trump, level 2: ♣AAK is a 摔牌 (A, K are the top clubs); seat 1's ♣A
    # beats the K, so the throw fails and the ♣K is played alone (S11)
    hands = {0: "AC AC KC 6D", 1: "AC 4C 6C 7D", 2: "3C 8C 9C 8D", 3: "QC JC 9C 9D"}
    s = play_state(hands, "3S 4S 6S 7S 8S 9S JS QS", dealer=0, trump="H")
    s = RULES.apply(s, act(0, "play", "AC AC KC"))
    assert s.hands[0] == cards("AC AC 6D")
    for seat in range(4):
        v = RULES.view(s, seat)
        assert v["failed_throw"] == {"seat": 0, "played": ["KC"],
                                     "attempted": ["AC", "AC", "KC"]}
        assert v["trick"]["plays"] == [{"seat": 0, "cards": ["KC"]}]
    assert RULES.view(s, 1)["hint"] is not None
    for seat, c in ((1, "4C"), (2, "3C"), (3, "QC")):
        s = RULES.apply(s, act(seat, "play", c))
    v = RULES.view(s, 2)
    assert v["failed_throw"] is None and v["last_trick"]["failed_throw"] is True
    assert v["last_trick"]["winner"] == 0
    assert RULES.summary(s)["tricks"][0]["failed_throw"] is True
    assert RULES.summary(s)["tricks"][0]["plays"]["0"] == ["KC"]


def test_legal_verbs_only_for_the_seat_to_act(give_state):
    assert RULES.legal_verbs(give_state, 1) == frozenset({"give"})
    assert RULES.legal_verbs(give_state, 0) == frozenset()
    assert RULES.legal_actions(give_state, 0) == []
    assert isinstance(RULES.legal_actions(give_state, 1)[0], Action)


def test_before_trumps_the_hand_shows_the_bipai_first():
    deal = build_deal({0: "3C 2H AS KS SJ"}, opener=0)
    s = RULES.start_hand(RULES.new_match(), deal)
    hand = RULES.view(s, 0)["hand"]
    assert hand[:3] == ["AS", "SJ", "2H"]
    assert hand.index("KS") < hand.index("3C")


def test_own_hand_order_is_s4_then_side_suits_s_h_d_c_high_to_low():
    """Spades trump at level 2: ♠A ♥5 BJ 正參謀♠3 副參謀♣3 ♠2 (L of T) ♥2 = ♣2
    (C6 order) ♠K ♠4, then hearts, diamonds, clubs high to low."""
    hand = "4S KH 2C 3C 5H AC 2H KS BJ 3S 4D AS 3H 2S"
    s = play_state({0: hand, 1: "", 2: "", 3: ""}, "3S 4S 6S 7S 8S 9S JS QS",
                   dealer=0, trump="S")
    assert RULES.view(s, 0)["hand"] == [
        "AS", "5H", "BJ", "3S", "3C", "2S", "2H", "2C", "KS", "4S",
        "KH", "3H", "4D", "AC"]


def test_seat_view_equals_the_dataclass_built_by_keywords():
    """``seat_view`` builds its SeatView with the positional descriptor builder;
    at every step of a hand, for every seat and a spectator, each field is the
    one the keyword construction names (so a reordered field cannot slip)."""
    import dataclasses
    import random as _random

    from games.engine.shengji import view as vm

    m = RULES.new_match()
    s = RULES.start_hand(m, RULES.deal(m, 5))
    rng = _random.Random(4)
    while True:
        for seat in (0, 1, 2, 3, None):
            v = vm.seat_view(s, seat)
            hand = s.hands[seat] if seat is not None else ()
            want = vm.SeatView(
                seat=seat, phase=s.phase, to_act=s.to_act, hand=hand,
                counts=tuple(len(h) for h in s.hands), levels=s.match.levels,
                level=s.level, dealer=s.dealer, trump=s.trump, ctx=s.ctx,
                opener=s.deal.opener, shown_card=s.deal.shown, piles=s.piles,
                highest=s.highest, passed=s.passed, auction_winner=s.auction_winner,
                owed=s.taken, given=v.given, kitty=v.kitty, leader=s.leader,
                plays=s.plays, tricks=s.tricks, played=s.played or {}, voids=s.voids,
                failed_attempt=s.lead_attempt, multiplier=s.match.multiplier,
                follow=s.match.follow, result=s.result)
            assert v == want
            assert type(v) is vm.SeatView
            for f in dataclasses.fields(want):
                assert getattr(v, f.name) == getattr(want, f.name), f.name
        if RULES.is_complete(s):
            break
        s = RULES.apply(s, RULES.bot_action(s, s.to_act, "heuristic", rng))
