"""B1 deck and seeded deal; deal records (RecordError on a wrong deck)."""

from collections import Counter

import pytest

from games.engine.base import RecordError
from games.engine.baohuang import RULES
from games.engine.baohuang.deal import deck


def test_b1_deck_composition():
    d = Counter(c.code for c in deck())
    assert sum(d.values()) == 205
    assert d["BJ*"] == 1 and d["BJ"] == 3 and d["SJ"] == 4
    assert d["4H*"] == 1 and d["4H"] == 3 and d["4S"] == 4
    assert d["3S"] == 2 and d["3H"] == d["3D"] == d["3C"] == 1
    assert d["2C"] == 4 and d["AS"] == 4


def test_seeded_deal_is_reproducible_and_41_each():
    m = RULES.new_match()
    a, b, c = RULES.deal(m, 42), RULES.deal(m, 42), RULES.deal(m, 43)
    assert a == b and a != c
    assert [len(h) for h in a.hands] == [41] * 5
    assert Counter(x for h in a.hands for x in h) == Counter(deck())


def test_deal_record_round_trip():
    m = RULES.new_match()
    d = RULES.deal(m, 5)
    rec = RULES.deal_to_record(d)
    assert set(rec) == {"deal"} and sorted(rec["deal"]) == ["0", "1", "2", "3", "4"]
    assert RULES.deal_from_record(m, rec).hands == d.hands


def _rec(seed=5):
    return RULES.deal_to_record(RULES.deal(RULES.new_match(), seed))


def test_wrong_decks_are_record_errors():
    m = RULES.new_match()
    bad = _rec()
    bad["deal"]["0"][0] = "XX"
    with pytest.raises(RecordError, match="unknown card"):
        RULES.deal_from_record(m, bad)
    bad = _rec()
    bad["deal"]["0"].pop()
    with pytest.raises(RecordError, match="41"):
        RULES.deal_from_record(m, bad)
    # two BJ*: swap a card for a second marked joker
    bad = _rec()
    hand = bad["deal"]["1"]
    i = next(i for i, c in enumerate(hand) if c not in ("BJ*",))
    hand[i] = "BJ*" if "BJ*" not in hand else "4H*"
    with pytest.raises(RecordError, match="B1"):
        RULES.deal_from_record(m, bad)
    # an extra 3 instead of another card
    bad = _rec()
    hand = bad["deal"]["2"]
    i = next(i for i, c in enumerate(hand) if not c.startswith("3"))
    hand[i] = "3H"
    with pytest.raises(RecordError, match="B1"):
        RULES.deal_from_record(m, bad)
    with pytest.raises(RecordError):
        RULES.deal_from_record(m, {"deal": {"0": []}})
    with pytest.raises(RecordError):
        RULES.deal_from_record(m, {})
