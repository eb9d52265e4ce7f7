"""S17 result table at every boundary, S2 level steps, S18 ♠A penalty, room multiplier."""

import pytest

from games.engine.shengji import RULES
from games.engine.shengji.match import new_match
from games.engine.shengji.scoring import hand_result, result_row, spade_ace_penalties

from .shengji_fixtures import act, cards, earlier_trick, play_state

# x -> (winning side, levels gained by the winners, game points per player)
TABLE = [
    (0, "defenders", 4, 8),
    (5, "defenders", 1, 2),
    (155, "defenders", 1, 2),
    (160, "attackers", 0, 1),
    (235, "attackers", 0, 1),
    (240, "attackers", 1, 2),
    (315, "attackers", 1, 2),
    (320, "attackers", 2, 4),
    (395, "attackers", 2, 4),
    (400, "attackers", 3, 6),
    (450, "attackers", 3, 6),  # a doubled kitty can take x past 400
]


@pytest.mark.parametrize("x, side, levels, gp", TABLE)
def test_result_row_at_every_boundary(x, side, levels, gp):
    assert result_row(x) == (side, levels, gp)


@pytest.mark.parametrize("x, side, levels, gp", TABLE)
def test_hand_result_at_every_boundary(x, side, levels, gp):
    """Dealer seat 1 (team 1 defends at 4); attackers team 0 at level 6."""
    match = new_match(None, {"levels": {"0": "6", "1": "4"}, "dealer": 1})
    r = hand_result(match, 1, x, cards("3S 4S 6S 7S 8S 9S JS QS"), 1, False, [0, 0, 0, 0])
    assert r.attackers_points == x
    seq = ["2", "4", "6", "7", "8", "9", "T", "J", "Q", "K"]
    if side == "defenders":
        assert r.levels_after == ("6", seq[seq.index("4") + levels])
        assert r.levels_gained == (0, levels)
        assert r.next_dealer == 3  # the dealer's partner (S15)
        assert r.game_points == (-gp, gp, -gp, gp)
    else:
        assert r.levels_after == (seq[seq.index("6") + levels], "4")
        assert r.levels_gained == (levels, 0)
        assert r.next_dealer == 2  # the seat after the dealer (S15)
        assert r.game_points == (gp, -gp, gp, -gp)
    assert r.match_winner is None
    assert sum(r.game_points) == 0


def test_game_points_are_multiplied_by_the_room_multiplier():
    match = new_match({"multiplier": 3}, {"levels": {"0": "2", "1": "2"}, "dealer": 0})
    r = hand_result(match, 0, 0, cards("3S 4S 6S 7S 8S 9S JS QS"), 0, False, [0, 0, 0, 0])
    assert r.game_points == (24, -24, 24, -24)


def test_levels_skip_a_3_and_5_and_ten_is_t():
    match = new_match(None, {"levels": {"0": "2", "1": "9"}, "dealer": 1})
    r = hand_result(match, 1, 100, (), 1, False, [0] * 4)
    assert r.levels_after == ("2", "T")
    match = new_match(None, {"levels": {"0": "2", "1": "4"}, "dealer": 1})
    r = hand_result(match, 1, 0, (), 1, False, [0] * 4)
    assert r.levels_after == ("2", "9")  # 4 -> 6 7 8 9


@pytest.mark.parametrize("levels, dealer, x, winner", [
    ({"0": "K", "1": "2"}, 0, 100, 0),     # defenders at K go up one: past K
    ({"0": "Q", "1": "2"}, 0, 0, 0),       # +4 from Q
    ({"0": "2", "1": "K"}, 0, 240, 1),     # attackers at K +1
    ({"0": "2", "1": "K"}, 0, 200, None),  # swap but no level: not past K
    ({"0": "J", "1": "2"}, 0, 100, None),  # J -> Q
])
def test_a_team_going_past_k_wins_the_match(levels, dealer, x, winner):
    match = new_match(None, {"levels": levels, "dealer": dealer})
    r = hand_result(match, dealer, x, (), dealer, False, [0] * 4)
    assert r.match_winner == winner


# ------------------------------------------------------------- S18 ♠A penalty

def test_spade_ace_played_into_an_opponents_trick_costs_five():
    # trick 1: seat 0 leads ♠A, seat 1 (opponent) also plays ♠A: seat 0 wins
    # (ties go to the earlier play); seat 2 (partner) plays ♠A too: no penalty
    plays = ((0, cards("AS")), (1, cards("AS")), (2, cards("AS")), (3, cards("4C")))
    assert spade_ace_penalties([(plays, 0)]) == [5, -5, 0, 0]


def test_spade_ace_penalty_end_to_end_with_multiplier_and_kitty_exempt():
    """Seat 1's ♠A falls to seat 0's; the ♠A buried in the kitty costs nothing."""
    match = new_match({"multiplier": 2}, {"levels": {"0": "2", "1": "2"}, "dealer": 0})
    hands = {0: "AS", 1: "AS", 2: "2C", 3: "4H"}
    s = play_state(hands, "AS 3S 4S 6S 7S 8S 9S JS", dealer=0, trump="H",
                   tricks=[earlier_trick(0, 300), earlier_trick(1, 100)], match=match)
    for seat in range(4):
        s = RULES.apply(s, act(seat, "play", hands[seat]))
    out = RULES.summary(s)
    assert out["tricks"][-1]["winner"] == 0
    assert out["attackers_points"] == 100  # defenders won the last trick: 0 < x < 160
    # result ±2 ×2; penalty 5 ×2: seat 0 +10, seat 1 -10
    assert out["game_points"] == {"0": 4 + 10, "1": -4 - 10, "2": 4, "3": -4}


def test_spade_ace_won_by_the_partner_is_not_penalised():
    plays = ((1, cards("3C")), (2, cards("AS")), (3, cards("AS")), (0, cards("4C")))
    # seat 2 wins (earlier ♠A); seat 3 is an opponent of seat 2: penalised
    assert spade_ace_penalties([(plays, 2)]) == [0, 0, 5, -5]
    plays = ((1, cards("AS")), (2, cards("4C")), (3, cards("AS")), (0, cards("6C")))
    assert spade_ace_penalties([(plays, 1)]) == [0, 0, 0, 0]


# ---------------------------------------------------------------- audit (S16-S18)

def test_several_spade_aces_in_one_trick_each_cost_five():
    # seat 1 leads ♠A♠A and wins (seat 3's equal pair comes later, S4);
    # seat 3 is his partner: no penalty; seat 2 (an opponent) pays for his ♠A
    plays = ((1, cards("AS AS")), (2, cards("AS 4C")), (3, cards("AS AS")),
             (0, cards("6C 7C")))
    assert spade_ace_penalties([(plays, 1)]) == [0, 5, -5, 0]
    # the same cards in a trick won by seat 0: seats 1 and 3 pay 10 each
    assert spade_ace_penalties([(plays, 0)]) == [20, -10, 0, -10]


def test_spade_ace_penalty_counts_every_card_and_goes_to_the_winner():
    plays = ((0, cards("AS AS")), (1, cards("BJ BJ")), (2, cards("AS 3C")),
             (3, cards("4C 6C")))
    assert spade_ace_penalties([(plays, 0)]) == [0, 0, 0, 0]     # own team's trick
    assert spade_ace_penalties([(plays, 3)]) == [-10, 0, -5, 15]


def test_spade_ace_in_a_failed_throw_returns_to_the_hand_unpenalised():
    """A failed trump 甩牌 containing ♠A plays only its lowest card (S12), so the
    ♠A is not played into that trick (S18)."""
    match = new_match({}, {"levels": {"0": "2", "1": "2"}, "dealer": 0})
    hands = {0: "AS 4H 9C", 1: "6H 3C 4C", 2: "5C 6C 7C", 3: "8C 9S TS"}
    s = play_state(hands, "3S 4S 6S 7S 8S 9S JS QS", dealer=0, trump="H", match=match)
    s = RULES.apply(s, act(0, "play", "AS 4H"))     # every trump of seat 0; seat 1 has ♥6
    assert s.plays[0][1] == cards("4H")
    s = RULES.apply(s, act(1, "play", "6H"))
    s = RULES.apply(s, act(2, "play", "5C"))
    s = RULES.apply(s, act(3, "play", "8C"))
    assert s.tricks[-1].winner == 1 and s.tricks[-1].failed_throw
    assert cards("AS")[0] in s.hands[0]


@pytest.mark.parametrize("x, next_dealer_offset, swap", [
    (155, 2, False), (160, 1, True), (0, 2, False), (400, 1, True)])
def test_role_swap_moves_the_deal_to_the_next_seat(x, next_dealer_offset, swap):
    match = new_match({}, {"levels": {"0": "4", "1": "9"}, "dealer": 1})
    r = hand_result(match, 1, x, (), last_winner=1, last_play_all_trumps=False,
                    penalties=[0, 0, 0, 0])
    assert r.next_dealer == (1 + next_dealer_offset) % 4
    assert (r.winners == "attackers") == swap
    # levels: attackers are team 0 at 4, defenders team 1 at 9
    expected = {155: ("4", "T"), 160: ("4", "9"), 0: ("4", "K"), 400: ("8", "9")}[x]
    assert r.levels_after == expected


def test_kitty_multiplier_follows_the_winning_play_not_the_lead():
    """S16: on a side-suit last trick, an attacker's winning trump doubles the
    kitty (the winning play decides, not the lead)."""
    match = new_match({}, {"levels": {"0": "2", "1": "2"}, "dealer": 0})
    hands = {0: "9C", 1: "4H", 2: "JC", 3: "QC"}
    s = play_state(hands, "KS KS 5C 3S 4S 6S 7S 8S", dealer=0, trump="H",
                   tricks=[earlier_trick(0, 200), earlier_trick(1, 100)], match=match)
    for seat in range(4):
        s = RULES.apply(s, act(seat, "play", hands[seat]))
    out = RULES.summary(s)
    assert out["tricks"][-1]["winner"] == 1
    assert out["kitty_points"] == 25 and out["kitty_multiplier"] == 2
    assert out["attackers_points"] == 100 + 50
