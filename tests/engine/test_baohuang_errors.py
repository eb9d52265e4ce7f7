"""Bad inputs raise IllegalAction with a clear message and rule; the state is unchanged."""

import copy

import pytest

from games.engine.base import Action, IllegalAction
from games.engine.baohuang import RULES
from games.engine.cards import Card
from tests.engine.baohuang_helpers import act, make_deal, play_state


def refused(st, action, rule, *words):
    snapshot = copy.deepcopy(RULES.view(st, action.seat)), st._key()
    with pytest.raises(IllegalAction) as e:
        RULES.apply(st, action)
    assert e.value.rule == rule, e.value.message
    for w in words:
        assert w in e.value.message
    assert (RULES.view(st, action.seat), st._key()) == snapshot
    return e.value


@pytest.fixture
def following():
    st = play_state({0: ["9S", "9H", "5S", "3S"], 1: ["TS", "TH", "SJ", "BJ", "8S", "8H", "3H"],
                     2: ["3D", "4S"], 3: ["3C", "4D"], 4: ["3S", "4C"]})
    return act(st, 0, "play", ["9S", "9H"])


def test_unknown_code(following):
    refused(following, Action(1, "play", ("TS", "XX")), "C1", "XX")


def test_card_not_held(following):
    refused(following, Action(1, "play", tuple(map(Card.parse, ["JS", "JH"]))), "B5", "JS")
    refused(following, Action(1, "play", tuple(map(Card.parse, ["SJ", "SJ"]))), "B5", "SJ")


def test_out_of_turn(following):
    refused(following, Action(2, "play", (Card.parse("4S"),)), "B5", "turn")
    refused(following, Action(3, "pass", True), "B5", "turn")


def test_set_that_does_not_beat_names_b4_and_the_top(following):
    e = refused(following, Action(1, "play", tuple(map(Card.parse, ["8S", "8H"]))), "B4", "9 9")
    assert "8 8" in e.message
    refused(following, Action(1, "play", (Card.parse("TS"),)), "B4", "2 cards", "9 9")
    refused(following, Action(1, "play", tuple(map(Card.parse, ["TS", "TH", "SJ"]))), "B4")


def test_not_a_set(following):
    refused(following, Action(1, "play", tuple(map(Card.parse, ["TS", "8S"]))), "B3")
    refused(following, Action(1, "play", ()), "B3")


def test_three_played_early():
    st = play_state({0: ["9S", "3S"], 1: ["3H", "4S"], 2: ["3D", "4D"], 3: ["3C", "4C"], 4: ["3S", "4H"]})
    refused(st, Action(0, "play", (Card.parse("3S"),)), "B6", "last card")


def test_yield_twice_in_a_round(following):
    st = act(following, 1, "yield")
    for s in (2, 3, 4):
        st = act(st, s, "pass")
    assert RULES.to_act(st) == 1  # seat 0 is on top: skipped
    refused(st, Action(1, "yield", True), "B5", "讓")


def test_crown_by_the_wrong_seat_and_bad_choice():
    st = RULES.start_hand(RULES.new_match(), make_deal(
        {0: ["3S"], 1: ["3H"], 2: ["3D", "BJ*"], 3: ["3C"], 4: ["3S", "4H*"]}))
    refused(st, Action(1, "crown", "accept"), "B8", "seat 2")
    refused(st, Action(2, "crown", "maybe"), "B8")
    refused(st, Action(2, "play", (Card.parse("3D"),)), "B5")
    st = act(st, 2, "crown", "accept")
    refused(st, Action(2, "crown", "accept"), "B8")
    e = refused(st, Action(3, "guard", "open"), "B10")
    assert "4" not in e.message  # does not reveal who is deciding
    refused(st, Action(4, "guard", "loudly"), "B10")
    refused(st, Action(4, "solo", "open"), "B10")


def test_actions_after_the_hand_are_refused():
    st = play_state({0: ["3S"], 1: [], 2: [], 3: [], 4: ["3H"]}, finished=(1, 2, 3))
    st = act(st, 0, "play", ["3S"])
    assert RULES.is_complete(st)
    refused(st, Action(4, "pass", True), "B11", "over")


def test_codes_are_accepted_and_logged_as_cards(following):
    st = RULES.apply(following, Action(1, "play", ["10S", "th"]))
    assert RULES.actions(st)[-1].to_record() == {"seat": 1, "play": ["TS", "TH"]}
