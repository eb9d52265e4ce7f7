"""S13 比牌 auction: bids, passes, refusals, the winner taking the shown cards."""

import pytest

from games.engine.base import IllegalAction
from games.engine.shengji import RULES
from games.engine.shengji.auction import bid_options, pile_total

from .shengji_fixtures import act, build_deal, cards

# Level 2 (hand 1).  Seat 0: ♠A ♥5 2C; seat 1: ♦5 BJ 2H 2H; seat 2: SJ; seat 3: 2S 2S
# and the leftover 比牌.
SPEC = {0: "AS 5H 2C", 1: "5D BJ 2H 2H", 2: "SJ", 3: "2S 2S"}


@pytest.fixture
def state():
    match = RULES.new_match()
    return RULES.start_hand(match, build_deal(SPEC, opener=0))


def test_bid_points_follow_s13():
    assert pile_total(cards("AS 5H 5D BJ SJ 2C"), "2") == 6 + 5 + 4 + 3 + 2 + 1
    assert pile_total(cards("7S 7D"), "7") == 2
    assert pile_total(cards("2S KH"), "7") == 0


def test_bids_must_exceed_and_the_winner_takes_the_shown_cards(state):
    s = RULES.apply(state, act(0, "bid", "2C"))  # 1
    assert s.highest == 1 and s.to_act == 1
    s = RULES.apply(s, act(1, "bid", "5D"))  # 4
    s = RULES.apply(s, act(2, "pass"))
    s = RULES.apply(s, act(3, "pass"))
    # seat 0 adds ♥5: 1 + 5 = 6 > 4
    s = RULES.apply(s, act(0, "bid", "5H"))
    assert s.to_act == 1  # seats 2 and 3 have passed
    s = RULES.apply(s, act(1, "bid", "BJ 2H 2H"))  # 4 + 3 + 2 = 9
    s = RULES.apply(s, act(0, "pass"))
    assert s.phase == "trump" and s.auction_winner == 1 and s.to_act == 1
    hand1 = s.hands[1]
    # the winner's own pile goes back, seat 0's pile (2C, 5H) is taken
    assert len(hand1) == 52 + 2
    assert sum(1 for c in hand1 if c.code == "5H") == 1
    assert len(s.hands[0]) == 50
    assert s.taken == ((0, 2),)
    view = RULES.view(s, 2)
    assert view["piles"]["0"] == ["2C", "5H"] and view["pile_points"]["1"] == 9


def test_a_bid_that_does_not_exceed_is_refused_and_the_state_is_unchanged(state):
    s = RULES.apply(state, act(0, "bid", "AS"))  # 6
    with pytest.raises(IllegalAction, match="exceed") as exc:
        RULES.apply(s, act(1, "bid", "5D 2H"))  # 5
    assert exc.value.rule == "S13"
    assert s.to_act == 1 and s.highest == 6 and len(s.hands[1]) == 52


@pytest.mark.parametrize(
    "seat, arg, message",
    [
        (0, "3C", "not a 比牌"),
        (0, "BJ", "do not hold"),
        (0, "", "at least one"),
        (1, "5D", "turn"),
    ],
)
def test_bad_bids_are_refused_naming_s13(state, seat, arg, message):
    with pytest.raises(IllegalAction, match=message):
        RULES.apply(state, act(seat, "bid", arg))


def test_a_pass_is_final_and_three_passes_end_the_auction(state):
    s = RULES.apply(state, act(0, "pass"))
    s = RULES.apply(s, act(1, "bid", "2H"))
    s = RULES.apply(s, act(2, "pass"))
    s = RULES.apply(s, act(3, "bid", "2S 2S"))
    # seat 0 passed: seat 1 is next
    assert s.to_act == 1
    s = RULES.apply(s, act(1, "pass"))
    assert s.phase == "trump" and s.auction_winner == 3
    assert s.taken == ((1, 1),)


def test_the_fourth_wins_even_with_nothing_shown(state):
    s = state
    for seat in (0, 1, 2):
        s = RULES.apply(s, act(seat, "pass"))
    assert s.auction_winner == 3 and s.phase == "trump"
    assert s.taken == ()
    # nobody lost cards: after trumps the give phase is skipped (S14)
    s = RULES.apply(s, act(3, "trump", "S"))
    assert s.phase == "bury" and s.dealer == 3 and len(s.hands[3]) == 60


def test_legal_bids_all_exceed_and_only_pass_when_none_does(state):
    s = RULES.apply(state, act(0, "bid", "AS 5H 2C"))  # 12
    assert RULES.legal_verbs(s, 1) == frozenset({"pass"})
    acts = RULES.legal_actions(s, 1)
    assert [a.verb for a in acts] == ["pass"]
    s0 = state
    acts = RULES.legal_actions(s0, 0)
    bids = [a for a in acts if a.verb == "bid"]
    # ♠A, ♥5, 2C combinations: 2^3 - 1 distinct bids
    assert len(bids) == 7
    for a in bids:
        RULES.apply(s0, a)


def test_bid_options_use_level_cards_in_suit_order():
    hand = cards("2C 2S 2D 3C")
    opts = bid_options(hand, (), 1, "2")
    assert [o for o in opts] == [cards("2S 2D"), cards("2S 2D 2C")]


def test_auction_points_use_the_hand_level():
    match = RULES.new_match(None, {"levels": {"0": "7", "1": "2"}, "dealer": 0})
    deal = build_deal({0: "7C 7C 2C"}, opener=0, level="7")
    s = RULES.start_hand(match, deal)
    assert s.level == "7"
    with pytest.raises(IllegalAction, match="not a 比牌"):
        RULES.apply(s, act(0, "bid", "2C"))
    s = RULES.apply(s, act(0, "bid", "7C 7C"))
    assert s.highest == 2


def test_view_offers_only_pass_when_no_bid_can_exceed(state):
    s = RULES.apply(state, act(0, "bid", "AS 5H 2C"))  # 12
    assert RULES.view(s, 1)["legal"] == ["pass"]
    assert RULES.view(state, 0)["legal"] == ["bid", "pass"]


@pytest.mark.parametrize("arg", [["XX"], "AS", [1]])
def test_malformed_card_payloads_are_illegal_actions(state, arg):
    from games.engine.base import Action

    with pytest.raises(IllegalAction, match="not a list of cards"):
        RULES.apply(state, Action(0, "bid", arg))


def test_codes_are_accepted_as_well_as_cards(state):
    from games.engine.base import Action

    s = RULES.apply(state, Action(0, "bid", ["AS"]))
    assert s.highest == 6


def _plain_cheapest_bid(hand, pile, highest, level):
    """The cheapest bid as it was computed card by card (every combination of
    copies of each 比牌 value in product order, the first with the least total,
    then the most cards; level cards in C6 order), the reference below."""
    from itertools import product

    from games.engine.shengji.trumps import bid_points

    need = highest - pile_total(pile, level)
    groups = {}
    for c in hand:
        p = bid_points(c, level)
        if p:
            groups.setdefault(p, []).append(c)
    if not groups:
        return None
    ones = sorted(groups.pop(1, []),
                  key=lambda c: (-bid_points(c, level), "SHDC".index(c.suit) if c.suit else 4))
    values = sorted(groups, reverse=True)
    best = None
    for counts in product(*(range(len(groups[v]) + 1) for v in values)):
        high = sum(v * n for v, n in zip(values, counts))
        k = max(0, need + 1 - high)
        if k > len(ones) or high + k == 0:
            continue
        key = (high + k, -(sum(counts) + k))
        if best is None or key < best[0]:
            best = (key, counts, k)
    if best is None:
        return None
    _key, counts, k = best
    return tuple(c for v, n in zip(values, counts) for c in groups[v][:n]) + tuple(ones[:k])


def test_cheapest_bid_from_kind_counts_equals_the_card_by_card_choice():
    """S13: ``cheapest_bid`` reads the hand as counts of its 比牌 kinds; its bid
    (cards and their order) equals the card-by-card reference for 3,000 random
    52-card hands of the four decks at every level, against random piles and
    highest totals, a hand with a marked card (outside the 54 kinds) included."""
    import random

    from games.engine.cards import BJ_MARKED
    from games.engine.shengji.auction import cheapest_bid
    from games.engine.shengji.deal import FULL_DECK
    from games.engine.shengji.trumps import LEVELS

    rng = random.Random(5)
    bids = nones = 0
    for i in range(3000):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        hand = deck[:52]
        if i % 100 == 0:
            hand[0] = BJ_MARKED
        level = rng.choice(LEVELS)
        pile = tuple(c for c in deck[52:60] if pile_total((c,), level))
        highest = rng.randrange(0, 40)
        want = _plain_cheapest_bid(hand, pile, highest, level)
        got = cheapest_bid(hand, pile, highest, level)
        assert got == want, (level, highest, [c.code for c in hand])
        if got is None:
            nones += 1
        else:
            bids += 1
            assert pile_total(pile, level) + pile_total(got, level) > highest
    assert bids > 1000 and nones > 100
