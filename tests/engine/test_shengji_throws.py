"""Shengji throws: 摔牌 (S11), 甩牌 (S12), and the winner of a thrown trick (S10)."""

from games.engine.cards import parse_cards
from games.engine.shengji.tricks import check_lead, resolve_throw, trick_winner
from games.engine.shengji.trumps import TrumpContext

L2H = TrumpContext("2", "H")
L7H = TrumpContext("7", "H")


def p(text):
    return parse_cards(text.split())


def resolve(ctx, leader_hand, lead, *others, leader=0):
    hands = {leader: p(leader_hand)}
    seats = [s for s in range(4) if s != leader]
    for seat, text in zip(seats, others):
        hands[seat] = p(text)
    return resolve_throw(check_lead(hands[leader], p(lead), ctx), leader, hands, ctx)


def test_shuaipai_stands_when_nobody_holds_a_higher_unit():
    # ♣AAKKK: the others hold at most two ♣A (four decks): no higher triple or pair
    stands, played = resolve(L2H, "AC AC KC KC KC 9C", "AC AC KC KC KC",
                             "AC AC QC QC QC", "KC 5C", "9S")
    assert stands and played == p("AC AC KC KC KC")


def test_shuaipai_fails_on_a_higher_pair_lowest_card_played():
    # ♣AKK: a pair of ♣A beats the pair of K; only ♣K is played
    stands, played = resolve(L2H, "AC KC KC 9C", "AC KC KC", "3S", "AC AC 4C", "9D")
    assert not stands and played == p("KC")


def test_shuaipai_fails_on_a_higher_single():
    stands, played = resolve(L2H, "AC KC 5C", "AC KC", "AC 4C", "5S", "9D", leader=2)
    # ♣A held by another is only equal to the single ♣A, but beats the single ♣K
    assert not stands and played == p("KC")


def test_shuaipai_triple_split_counts_as_pair():
    # another player's ♣AAA holds a pair of A higher than the lead's pair of K
    stands, _ = resolve(L2H, "AC KC KC", "AC KC KC", "AC AC AC", "5S", "9D")
    assert not stands


def test_spade_shuaipai_uses_king_and_queen():
    stands, played = resolve(L2H, "KS KS KS QS QS 9S", "KS KS KS QS QS", "KS 9S", "AS AS", "QS")
    assert stands                           # ♠A is a trump, not a spade
    stands, played = resolve(L2H, "KS QS QS 9S", "KS QS QS", "KS KS", "AS AS", "QS")
    assert not stands and played == p("QS")


def test_shuaiquan_stands_when_all_others_are_void():
    stands, played = resolve(L2H, "9D 9D JD 4S", "9D 9D JD", "3D AS", "KS", "QC QC")
    # ♦3 is the 副參謀 (a trump): the first other player is void in diamonds
    assert stands and played == p("9D 9D JD")


def test_shuaiquan_fails_when_anyone_holds_the_suit():
    stands, played = resolve(L2H, "9D 9D JD 4S", "9D 9D JD", "KS", "4D", "QC QC")
    assert not stands and played == p("9D")


def test_trump_shuaiquan_and_c6_for_the_lowest_equal_card():
    # level 7: ♦7 and ♣7 are equal trumps; C6 order S, H, D, C picks ♦7
    stands, played = resolve(L7H, "7C 7D SJ 4C", "7C 7D SJ", "4H", "KS", "QC")
    assert not stands and played == p("7D")
    stands, played = resolve(L7H, "7C 7D SJ 4C", "7C 7D SJ", "3C", "KS", "QC")
    assert stands


def test_throw_that_is_both_stands_by_either_rule():
    # all of the leader's clubs and made of A/K; others hold clubs but no ♣A
    stands, _ = resolve(L2H, "AC KC KC 9S", "AC KC KC", "QC QC", "4C", "5C")
    assert stands
    stands, played = resolve(L2H, "AC KC KC 9S", "AC KC KC", "QC QC", "AC AC", "5C")
    assert not stands and played == p("KC")


def test_not_a_throw_always_stands():
    stands, played = resolve(L2H, "9C 9C", "9C 9C", "AC AC", "4C", "5C")
    assert stands and played == p("9C 9C")


def test_result_does_not_name_who_stopped_it():
    result = resolve(L2H, "AC KC KC 9C", "AC KC KC", "3S", "AC AC 4C", "9D")
    assert len(result) == 2 and isinstance(result[0], bool)
    assert all(hasattr(c, "rank") for c in result[1])


# --- winning a trick against a standing throw (S10) -----------------------

L4H = TrumpContext("4", "H")
THROW = "AC KC 6C 6C 6C 6C 9C 9C"


def w(ctx, *plays):
    return trick_winner([(i, p(t)) for i, t in enumerate(plays)], ctx)


def test_text_example_bomb_in_trumps_kills_the_throw():
    assert w(L4H, THROW, "7H 8H 9H JH QH QH QH QH") == 1
    assert w(L4H, THROW, "2D 3D 5D 6D 7D 8D 9D TD", "7H 8H 9H JH QH QH QH QH") == 2


def test_trumps_without_a_bomb_do_not_kill():
    assert w(L4H, THROW, "7H 8H 9H JH QH QH KH KH") == 0
    assert w(L4H, THROW, "7H 7H 7H 8H 8H 8H JH QH") == 0     # larger unit: not the same shape


def test_two_killing_plays_compare_by_their_bombs():
    assert w(L4H, THROW, "7H 8H 9H JH QH QH QH QH", "2H 3D 5H 6H AH AH AH AH") == 2
    assert w(L4H, THROW, "2H 3D 5H 6H AH AH AH AH", "7H 8H 9H JH QH QH QH QH") == 1



def test_equal_deciding_units_tie_to_the_earlier_killer():
    # the throw's largest unit is the pair of 9; two trump pairs of L (♠4, ♦4) are equal
    assert w(L4H, "AC KC 9C 9C", "4S 4S 2H 6H", "4D 4D 7H 8H") == 1
    assert w(L4H, "AC KC 9C 9C", "4S 4S 2H 6H", "4H 4H 7H 8H") == 2


def test_side_suit_plays_never_beat_a_standing_throw():
    assert w(L4H, "AC AC KC", "QC QC QC", "KC KC JC") == 0


def test_mixed_trump_and_side_play_cannot_kill():
    assert w(L4H, THROW, "7H 8H 9H JH QH QH QH QC") == 0


# ---------------------------------------------------------------- audit (S10-S12)

def test_level_k_shuaipai_uses_ace_and_queen_and_spades_queen_and_jack():
    lk = TrumpContext("K", "H")
    lead = check_lead(p("AC AC QC QC QC 4C"), p("AC AC QC QC QC"), lk)
    assert lead.kind == "throw" and "S11" in lead.throw_rules
    assert check_lead(p("AC AC QC QC 4C"), p("AC AC QC QC"), lk).kind == "tractor"
    lead = check_lead(p("QS QS QS JS JS 4S"), p("QS QS QS JS JS"), lk)
    assert "S11" in lead.throw_rules
    stands, played = resolve(lk, "QS QS QS JS JS 4S", "QS QS QS JS JS", "QS", "JS JS JS", "KS")
    assert stands                            # ♠K is a trump at level K
    stands, played = resolve(lk, "QS JS JS 4S", "QS JS JS", "QS QS", "TS", "KS")
    assert not stands and played == p("JS")  # a pair of ♠Q beats the pair of ♠J


def test_shuaipai_ignores_trumps_held_by_the_others():
    # nobody holds a higher club unit; trumps (even a bomb) do not stop a 摔牌
    stands, _ = resolve(L2H, "AC KC KC KC 9C", "AC KC KC KC", "2H 2H 2H 2H", "BJ BJ", "4C")
    assert stands


def test_a_throw_made_of_one_unit_or_one_tractor_is_not_a_throw():
    lead = check_lead(p("AC AC AC KC KC KC 4C"), p("AC AC AC KC KC KC"), L2H)
    assert lead.kind == "tractor" and not lead.is_throw
    lead = check_lead(p("9D 9D"), p("9D 9D"), L2H)   # whole suit, one unit: not a 甩牌
    assert lead.kind == "unit"


def test_failed_throw_plays_the_lowest_by_s4_then_c6():
    # a trump 甩牌 of ♠7 ♥7? (level 7 hearts: ♥7 is L of T, above ♠7): lowest ♠7
    stands, played = resolve(L7H, "7H 7S BJ 4C", "7H 7S BJ", "2H", "KS", "QC")
    assert not stands and played == p("7S")
    # equal L of three side suits: ♠ first (C6 S, H, D, C)
    stands, played = resolve(L7H, "7C 7S 7D 4C", "7C 7S 7D", "2H", "KS", "QC")
    assert not stands and played == p("7S")


def test_a_trump_pair_does_not_kill_a_throw_of_two_singles():
    """S10 (text: 最大的一個牌型…相一致): the killer's largest unit must have the
    throw's shape; a throw of singles is killed by two different trumps only."""
    assert w(L4H, "AC KC", "2H 2H") == 0
    assert w(L4H, "AC KC", "2H 6H") == 1
    assert w(L4H, "AC KC", "2H 6H", "BJ SJ") == 2


def test_shuaipai_killed_by_a_trump_triple():
    # ♣AAKKK: the largest unit is the triple of K; a trump triple (+ a pair) kills,
    # the higher trump triple wins
    assert w(L4H, "AC AC KC KC KC", "2H 2H 2H 6H 7H") == 1
    assert w(L4H, "AC AC KC KC KC", "2H 2H 2H 6H 7H", "QH QH QH 9H 9H") == 2
    assert w(L4H, "AC AC KC KC KC", "2H 2H 6H 6H 7H") == 0        # two pairs: no
