"""Card notation (ruling C1) and seeded shuffles (ruling C3)."""

import pytest

from games.engine.base import Action, RecordError
from games.engine.cards import Card, CardError, parse_cards, remove_cards, shuffled, standard_deck


def test_ten_is_accepted_and_written_as_t():
    assert Card.parse("10H").code == "TH"
    assert Card.parse("10H") is Card.parse("TH")


def test_marked_cards_are_distinct_from_plain_ones():
    assert Card.parse("BJ*") != Card.parse("BJ")
    assert Card.parse("4H*").rank == "4" and Card.parse("4H*").marked


@pytest.mark.parametrize("code", ["1S", "AX", "XJ", "4S*", "", "AS AS"])
def test_unknown_codes_are_refused(code):
    with pytest.raises(CardError):
        Card.parse(code)


def test_a_bare_string_is_not_a_card_list():
    with pytest.raises(CardError):
        parse_cards("AS")


def test_same_seed_same_shuffle_and_different_seed_differs():
    deck = standard_deck()
    assert shuffled(deck, 7) == shuffled(deck, 7)
    assert shuffled(deck, 7) != shuffled(deck, 8)
    assert sorted(map(str, shuffled(deck, 7))) == sorted(map(str, deck))


def test_remove_cards_is_a_multiset_difference():
    hand = parse_cards(["AS", "AS", "KH"])
    assert remove_cards(hand, parse_cards(["AS"])) == parse_cards(["AS", "KH"])
    with pytest.raises(ValueError, match="KH"):
        remove_cards(hand, parse_cards(["KH", "KH"]))


def test_action_round_trips_through_record_form():
    rec = {"seat": 3, "give": {"2": ["4C"], "0": ["10D"]}}
    action = Action.from_record(rec)
    assert action.to_record() == {"seat": 3, "give": {"0": ["TD"], "2": ["4C"]}}


@pytest.mark.parametrize(
    "bad",
    [{"seat": 9, "pass": True}, {"seat": 0}, {"seat": 0, "pass": True, "yield": True},
     {"seat": 0, "play": ["ZZ"]}, {"seat": 0, "dance": True}, [1, 2]],
)
def test_malformed_actions_are_record_errors(bad):
    with pytest.raises(RecordError):
        Action.from_record(bad, seats=5)


def test_cards_are_interned_through_construction_copy_and_pickle():
    import copy
    import pickle

    card = Card.parse("QD")
    assert Card("Q", "D") is card
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert len({Card.parse("QD"), Card.parse("QD"), Card.parse("QC")}) == 2


def test_constructing_a_card_that_does_not_exist_is_refused():
    with pytest.raises(CardError):
        Card("Z", "S")


def test_tally_holds_what_a_counter_holds_in_the_same_order():
    """``tally`` (the engines' plain-dict card count) has the keys, counts and
    first-seen key order of ``Counter``, for tuples, lists and generators of
    random multisets of a two-deck pile, the empty one included; a missing card
    is absent (not counted as 0)."""
    import random
    from collections import Counter

    from games.engine.cards import tally

    rng = random.Random(4)
    deck = standard_deck() * 2
    for size in (0, 1, 2, 3, 5, 12, 25, 54):
        for _ in range(20):
            cards = rng.sample(deck, size)
            for given in (tuple(cards), list(cards), (c for c in cards)):
                got = tally(given)
                want = Counter(cards)
                assert type(got) is dict
                assert list(got.items()) == list(want.items())
    assert Card.parse("AS") not in tally(parse_cards(["KS", "KS"]))
