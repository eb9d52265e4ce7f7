"""Match carry-over: dealer rotation (S15), levels (S2), match winner, JSON round trip."""

import random

import pytest

from games.engine.base import RecordError
from games.engine.shengji import RULES

from .shengji_fixtures import act, build_deal, earlier_trick, play_state


def test_new_match_defaults_and_json_round_trip():
    m = RULES.new_match()
    assert m.levels == ("2", "2") and m.dealer is None
    assert RULES.default_options() == {"multiplier": 1, "follow": "format"}
    m2 = RULES.new_match({"multiplier": 5, "follow": "suit"},
                         {"levels": {"0": "10", "1": "K"}, "dealer": 3})
    assert m2.levels == ("T", "K")
    assert RULES.new_match(**RULES.match_to_json(m2)) == m2


@pytest.mark.parametrize("options, start, message", [
    ({"multiplier": 0}, None, "multiplier"),
    ({"follow": "loose"}, None, "follow"),
    ({"speed": 1}, None, "unknown"),
    (None, {"levels": {"0": "3", "1": "2"}, "dealer": 0}, "not a level"),
    (None, {"levels": {"0": "4", "1": "2"}, "dealer": None}, "same level"),
    (None, {"levels": {"0": "2", "1": "2"}, "dealer": 4}, "dealer"),
])
def test_bad_options_and_starts_are_record_errors(options, start, message):
    with pytest.raises(RecordError, match=message):
        RULES.new_match(options, start)


def _finish(state_hands, dealer, attackers_points, match):
    """End a hand at once: one card each, defenders (dealer) win the last trick."""
    s = play_state(state_hands, "3S 4S 6S 7S 8S 9S JS QS", dealer=dealer, trump="H",
                   tricks=[earlier_trick((dealer + 1) % 4, attackers_points)], match=match)
    for i in range(4):
        seat = (dealer + i) % 4
        s = RULES.apply(s, act(seat, "play", state_hands[seat]))
    assert RULES.is_complete(s)
    return s


def test_first_hand_dealer_is_the_auction_winner():
    m = RULES.new_match()
    s = RULES.start_hand(m, build_deal({}, opener=2))
    for seat in (2, 3, 0):
        s = RULES.apply(s, act(seat, "pass"))
    assert s.dealer is None and s.auction_winner == 1  # no dealer before trumps
    s = RULES.apply(s, act(1, "trump", "C"))
    assert s.dealer == 1


def test_later_hand_the_dealer_deals_even_if_another_seat_wins_the_auction():
    m = RULES.new_match(None, {"levels": {"0": "2", "1": "4"}, "dealer": 3})
    s = RULES.start_hand(m, build_deal({}, opener=3))
    assert s.level == "4"  # the dealer team's level (S2)
    for seat in (3, 0, 1):
        s = RULES.apply(s, act(seat, "pass"))
    s = RULES.apply(s, act(2, "trump", "H"))
    assert s.auction_winner == 2 and s.dealer == 3
    assert s.phase == "bury" and s.to_act == 3


def test_dealer_team_wins_next_dealer_is_the_partner():
    m = RULES.new_match(None, {"levels": {"0": "2", "1": "2"}, "dealer": 1})
    hands = {1: "AH", 2: "3C", 3: "4C", 0: "6C"}
    s = _finish(hands, 1, 100, m)
    m2 = RULES.next_match(m, s)
    assert m2.dealer == 3 and m2.levels == ("2", "4")
    assert RULES.summary(s)["next_dealer"] == 3


def test_dealer_team_loses_next_dealer_is_the_next_seat():
    m = RULES.new_match(None, {"levels": {"0": "2", "1": "2"}, "dealer": 1})
    hands = {1: "AH", 2: "3C", 3: "4C", 0: "6C"}
    s = _finish(hands, 1, 250, m)
    m2 = RULES.next_match(m, s)
    assert m2.dealer == 2 and m2.levels == ("4", "2")
    m3 = RULES.next_match(m2, _finish({2: "AH", 3: "3C", 0: "4C", 1: "6C"}, 2, 170, m2))
    assert m3.dealer == 3 and m3.levels == ("4", "2")  # roles swap, no level


def test_a_team_at_k_going_up_wins_the_match():
    m = RULES.new_match(None, {"levels": {"0": "K", "1": "Q"}, "dealer": 0})
    s = _finish({0: "AH", 1: "3C", 2: "4C", 3: "6C"}, 0, 50, m)
    m2 = RULES.next_match(m, s)
    assert RULES.match_winner(m2) == 0
    assert RULES.summary(s)["match_winner"] == 0
    assert RULES.match_to_json(m2)["start"]["winner"] == 0


@pytest.mark.parametrize("policies", [("heuristic", "random") * 2, ("random",) * 4])
def test_a_match_of_bots_reaches_a_winner(policies):
    rng = random.Random(2024)
    m = RULES.new_match()
    hands = 0
    while RULES.match_winner(m) is None:
        assert hands < 150, "no winner after 150 hands"
        s = RULES.start_hand(m, RULES.deal(m, rng.getrandbits(63)))
        while not RULES.is_complete(s):
            seat = RULES.to_act(s)
            s = RULES.apply(s, RULES.bot_action(s, seat, policies[seat], rng))
        before = m
        m = RULES.next_match(m, s)
        out = RULES.summary(s)
        assert out["next_dealer"] == m.dealer
        assert out["levels_before"] == {"0": before.levels[0], "1": before.levels[1]}
        hands += 1
    assert RULES.match_winner(m) in (0, 1)


def test_rules_implement_every_method_of_the_game_rules_protocol():
    import inspect

    from games.engine import get_rules
    from games.engine.base import GameRules

    assert get_rules("shengji") is RULES
    assert isinstance(RULES, GameRules)
    assert RULES.game == "shengji" and RULES.seats == 4
    for name, member in vars(GameRules).items():
        if name.startswith("_") or not callable(member):
            continue
        mine = getattr(RULES, name)
        want = list(inspect.signature(member).parameters)[1:]
        assert list(inspect.signature(mine).parameters) == want, name
