"""S1 deal of 216 cards and the S13 shown card / opener of hand 1."""

from collections import Counter

import pytest

from games.engine.base import RecordError
from games.engine.shengji import RULES
from games.engine.shengji.deal import FULL_COUNTS

from .shengji_fixtures import build_deal


def test_deal_gives_52_each_and_8_to_the_kitty_from_four_decks():
    match = RULES.new_match()
    deal = RULES.deal(match, 12345)
    assert [len(h) for h in deal.hands] == [52, 52, 52, 52]
    assert len(deal.kitty) == 8
    total = Counter(deal.kitty)
    for h in deal.hands:
        total.update(h)
    assert total == FULL_COUNTS and sum(total.values()) == 216


def test_same_seed_same_deal_other_seed_other_deal():
    match = RULES.new_match()
    assert RULES.deal(match, 7) == RULES.deal(match, 7)
    assert RULES.deal(match, 7).hands != RULES.deal(match, 8).hands


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_hand_one_shows_a_dealt_card_and_its_receiver_opens(seed):
    """S13: the seat that receives the shown card opens the auction."""
    match = RULES.new_match()
    deal = RULES.deal(match, seed)
    assert deal.shown is not None
    assert deal.shown in deal.hands[deal.opener]
    state = RULES.start_hand(match, deal)
    assert RULES.to_act(state) == deal.opener
    assert RULES.phase(state) == "auction"
    assert RULES.view(state, 0)["shown_card"] == deal.shown.code


def test_opener_varies_with_the_seed():
    match = RULES.new_match()
    assert len({RULES.deal(match, s).opener for s in range(40)}) == 4


def test_later_hands_the_dealer_opens_and_nothing_is_shown():
    match = RULES.new_match(None, {"levels": {"0": "4", "1": "2"}, "dealer": 3})
    deal = RULES.deal(match, 99)
    assert deal.opener == 3 and deal.shown is None
    assert RULES.start_hand(match, deal).to_act == 3


def test_deal_round_trips_through_the_record():
    match = RULES.new_match()
    deal = RULES.deal(match, 5)
    rec = RULES.deal_to_record(deal)
    assert set(rec) >= {"deal", "kitty", "opener"}
    assert RULES.deal_from_record(match, rec) == deal


def _record(deal):
    return RULES.deal_to_record(deal)


def test_a_record_deal_that_is_not_four_decks_is_refused():
    match = RULES.new_match()
    rec = _record(build_deal(opener=1))
    rec["deal"]["0"][0], rec["deal"]["0"][1] = "AS", "AS"
    rec["deal"]["0"][2] = "AS"
    rec["deal"]["0"][3] = "AS"
    rec["deal"]["0"][4] = "AS"
    with pytest.raises(RecordError, match="four decks"):
        RULES.deal_from_record(match, rec)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda r: r["deal"]["1"].pop(), "52"),
        (lambda r: r["kitty"].pop(), "8 cards"),
        (lambda r: r["kitty"].__setitem__(0, "XX"), "unknown card"),
        (lambda r: r.pop("opener"), "opener is required"),
        (lambda r: r["deal"].pop("3"), "seats"),
    ],
)
def test_malformed_record_deals_raise_record_error(mutate, message):
    match = RULES.new_match()
    rec = _record(build_deal(opener=1))
    mutate(rec)
    with pytest.raises(RecordError, match=message):
        RULES.deal_from_record(match, rec)


def test_later_hand_opener_must_be_the_dealer():
    match = RULES.new_match(None, {"levels": {"0": "2", "1": "2"}, "dealer": 2})
    rec = _record(build_deal(opener=2))
    assert RULES.deal_from_record(match, rec).opener == 2
    rec.pop("opener")
    assert RULES.deal_from_record(match, rec).opener == 2
    rec["opener"] = 1
    with pytest.raises(RecordError, match="dealer opens"):
        RULES.deal_from_record(match, rec)
