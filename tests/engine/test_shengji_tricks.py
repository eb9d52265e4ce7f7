"""Shengji trick winner for units and tractors (rulings S4, S7, S10)."""

import pytest

from games.engine.cards import parse_cards
from games.engine.shengji.tricks import trick_winner
from games.engine.shengji.trumps import TrumpContext

L7H = TrumpContext("7", "H")


def p(text):
    return parse_cards(text.split())


def winner(ctx, *plays, first=0):
    return trick_winner([((first + i) % 4, p(t)) for i, t in enumerate(plays)], ctx)


def test_equal_off_suit_level_cards_first_played_wins():
    assert winner(L7H, "7C", "7D", "7S", "4H") == 0
    assert winner(L7H, "4H", "7D", "7C", "7S") == 1
    assert winner(L7H, "4H", "7D", "7C", "7H") == 3           # L of T is higher
    assert winner(L7H, "7S 7S", "7D 7D", "7C 7C", "6H 6H", first=2) == 2


def test_side_suit_single():
    assert winner(L7H, "KC", "AC", "AD", "9C") == 1           # off-suit ♦A cannot win
    assert winner(L7H, "KC", "AC", "2H", "9C") == 2           # any trump beats
    assert winner(L7H, "KC", "AC", "2H", "3D") == 3           # 副參謀 > ♥2
    assert winner(L7H, "KS", "QS", "AS", "BJ") == 2           # ♠A is the top trump


def test_side_suit_ace_of_spades_is_trump_so_king_is_top():
    assert winner(L7H, "QS", "KS", "JS", "2S") == 1


def test_pairs():
    assert winner(L7H, "KC KC", "AC AC", "9C 9C", "4C 4C") == 1
    assert winner(L7H, "KC KC", "AC QC", "2H 4H", "4C 4C") == 0   # not pairs
    assert winner(L7H, "KC KC", "AC AC", "2H 2H", "4C 4C") == 2   # trump pair
    assert winner(L7H, "KC KC", "7C 7D", "9C 9C", "4C 4C") == 0   # 7C 7D: not a pair (S5)
    assert winner(L7H, "KC KC", "AC AC", "2H 2H", "BJ BJ") == 3


def test_identical_trump_pairs_tie_to_the_earlier():
    assert winner(L7H, "KC KC", "2H 2H", "2H 2H", "4C 4C") == 1


def test_tractors_and_bombs():
    assert winner(L7H, "6C 6C 8C 8C", "9C 9C TC TC", "4C 4C 5C 5C", "JC QC KC AC") == 1
    # same-suit bomb beats the tractor (S7); a trump tractor beats both; a trump
    # bomb beats the trump tractor
    assert winner(L7H, "6C 6C 8C 8C", "3C 3C 3C 3C", "KC KC AC AC", "2D 2D 4D 4D") == 1
    assert winner(L7H, "6C 6C 8C 8C", "3C 3C 3C 3C", "8H 8H 9H 9H", "2D 2D 4D 4D") == 2
    assert winner(L7H, "6C 6C 8C 8C", "3C 3C 3C 3C", "8H 8H 9H 9H", "2H 2H 2H 2H") == 3
    # two trump pairs that are not a tractor do not win
    assert winner(L7H, "6C 6C 8C 8C", "9C 9C QC QC", "8H 8H JH JH", "2D 3D 4D 6D") == 0


@pytest.mark.parametrize("lead,follow", [
    ("6C 6C 7C 7C".replace("7C", "8C"), "4C 4C 4C 4C"),                       # 4444 > 6688
    ("QC QC KC KC AC AC", "6C 6C 6C 8C 8C 8C"),                               # triple > pair tr.
    ("JC JC QC QC KC KC AC AC", "4C 4C 4C 4C 5C 5C 5C 5C"),                   # quad tr. of 8
    ("JC JC JC QC QC QC KC KC KC AC AC AC",
     "5C 5C 5C 5C 6C 6C 6C 6C 8C 8C 8C 8C"),                                  # quad tr. of 12
])
def test_s7_examples_as_tricks(lead, follow):
    assert winner(L7H, lead, follow) == 1
    assert winner(L7H, follow, lead) == 0


def test_trump_lead_only_trumps_win():
    assert winner(L7H, "4H", "AC", "6H", "AH") == 3
    assert winner(L7H, "4H 4H", "AC AC", "2H 2H", "7S 7S") == 3
    assert winner(L7H, "4H 4H 6H 6H", "8H 8H 9H 9H", "AC AC KC KC", "BJ BJ SJ SJ") == 1


def test_failed_throw_single_is_an_ordinary_single():
    # after a failed throw only its lowest card is led: a normal single trick
    assert winner(L7H, "KC", "AC", "AC", "QC") == 1


# ---------------------------------------------------------------- audit (S7, S10)

def test_trump_tractor_beats_a_side_suit_bomb_on_a_tractor_lead():
    """S10: an all-trump play of the lead's shape (or stronger) beats any side-suit
    play, even a side-suit bomb that beat the lead by S7."""
    assert winner(L7H, "6C 6C 8C 8C", "2C 2C 2C 2C", "2H 2H 4H 4H", "9C 9C TC TC") == 2
    # a trump pair tractor over-trumped by a higher one, then by a trump bomb
    assert winner(L7H, "6C 6C 8C 8C", "2H 2H 4H 4H", "QH QH KH KH", "4D 4D 6D 6D") == 2
    assert winner(L7H, "6C 6C 8C 8C", "QH QH KH KH", "2H 2H 2H 2H", "AH AH KH KH") == 2


def test_trump_follow_must_match_the_lead_size_to_win():
    # a pair tractor led: a trump triple + single or two loose trump pairs never win
    assert winner(L7H, "6C 6C 8C 8C", "2H 2H 2H 4H", "3C 4C 5C 9C") == 0
    # a triple led: a trump pair + 1 does not win; a trump triple does
    assert winner(L7H, "9C 9C 9C", "AH AH KH", "2H 2H 2H", "4C 6C 8C") == 2


def test_triple_tractor_of_trumps_beats_a_pair_tractor_of_six_trumps():
    lead = "QC QC KC KC AC AC"
    assert winner(L7H, lead, "8H 8H 9H 9H TH TH", "2H 2H 2H 4H 4H 4H") == 2
    assert winner(L7H, lead, "2H 2H 2H 4H 4H 4H", "8H 8H 9H 9H TH TH") == 1


def test_equal_off_suit_level_pairs_trumping_tie_to_the_first():
    assert winner(L7H, "KC KC", "7S 7S", "7D 7D", "7C 7C") == 1
    assert winner(L7H, "KC KC", "7S 7S", "7H 7H", "7C 7C") == 2


def test_trick_keys_of_a_single_and_of_a_repeated_lead_equal_the_decomposed_keys():
    """S10 as keys: a single played after a one-component lead gets the key of
    its decomposition (flag, size, top) without decomposing it, and asking
    again for the same lead tuple (kept as the last one) answers alike; for
    every card after a single, a pair and a tractor led in a side suit and in
    trumps, and for a lead asked between two others."""
    from games.engine.shengji import tricks
    from games.engine.shengji.deal import FULL_COUNTS
    from games.engine.shengji.shapes import decompose

    ctx = TrumpContext("2", "H")
    info = ctx._t.info

    def plain_key(lead, cards):
        lc = decompose(lead, ctx)[0]
        s = info[lead[0]][0]
        ps = info[cards[0]][0]
        if ps not in (s, "T"):
            return None
        pc = decompose(cards, ctx)[0]
        if pc.count != lc.count or pc.size < lc.size:
            return None
        return (0 if ps == s else 1, pc.size, pc.top)

    leads = [tuple(parse_cards(x)) for x in (["9S"], ["9S", "9S"], ["9S", "9S", "8S", "8S"],
                                              ["3H"], ["BJ", "BJ"])]
    checked = keyed = 0
    for lead in leads:
        for again in range(2):
            key_of, best = tricks._trick_keys(lead, ctx)
            for c in FULL_COUNTS:
                want = plain_key(lead, (c,))
                assert key_of((c,)) == want, (lead, c)
                checked += 1
                keyed += want is not None
            tricks._trick_keys(leads[0] if lead is not leads[0] else leads[1], ctx)
    assert checked == 5 * 2 * 54 and keyed > 40
