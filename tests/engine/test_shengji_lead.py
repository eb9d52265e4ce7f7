"""Shengji leads (ruling S8; throw kinds from S11/S12)."""

import pytest

from games.engine.base import IllegalAction
from games.engine.cards import parse_cards
from games.engine.shengji.tricks import check_lead, top_ranks
from games.engine.shengji.trumps import TrumpContext


def p(text):
    return parse_cards(text.split())


L2H = TrumpContext("2", "H")
HAND = p("AC AC KC KC KC QC 9C 9C 8C 8C 4C "
         "KS KS KS QS QS 6S "
         "AD AD AD AD KD 4D 7D "
         "AS BJ 2S 2C 4H 4H 6H 6H")


@pytest.mark.parametrize("text,kind,suit", [
    ("4C", "unit", "C"),
    ("9C 9C", "unit", "C"),
    ("KC KC", "unit", "C"),            # a pair taken from a triple
    ("AD AD AD AD", "unit", "D"),      # bomb
    ("9C 9C 8C 8C", "tractor", "C"),
    ("4H 4H 6H 6H", "tractor", "T"),   # ♥5 is a 比牌: ♥44 ♥66 adjacent
    ("AS", "unit", "T"),
    ("BJ", "unit", "T"),
])
def test_units_and_tractors_are_leads(text, kind, suit):
    lead = check_lead(HAND, p(text), L2H)
    assert (lead.kind, lead.suit, lead.throw_rules) == (kind, suit, ())


@pytest.mark.parametrize("text,rules", [
    ("AC AC KC KC KC", ("S11",)),      # the text's ♣AAKKK
    ("KS KS KS QS QS", ("S11",)),      # ♠KKKQQ: spades' top ranks are K and Q
    ("AD AD AD AD KD", ("S11",)),      # ♦AAAAK
    ("AC KC", ("S11",)),
])
def test_shuaipai_leads(text, rules):
    lead = check_lead(HAND, p(text), L2H)
    assert lead.kind == "throw" and lead.throw_rules == rules
    assert lead.is_throw and len(lead.components) >= 2


def test_shuaipai_is_one_tractor_when_sizes_match():
    lead = check_lead(HAND, p("AC AC KC KC"), L2H)
    assert lead.kind == "tractor"


def test_shuaiquan_every_card_of_a_suit():
    lead = check_lead(HAND, p("KS KS KS QS QS 6S"), L2H)
    assert lead.kind == "throw" and lead.throw_rules == ("S12",)
    lead = check_lead(HAND, p("AD AD AD AD KD 4D 7D"), L2H)
    assert lead.throw_rules == ("S12",)


def test_throw_that_is_both_kinds():
    hand = p("AC KC KC 5H 9S")
    lead = check_lead(hand, p("AC KC KC"), L2H)
    assert lead.throw_rules == ("S11", "S12")


def test_trump_shuaiquan_allowed_but_no_trump_shuaipai():
    hand = p("AS BJ 2S 2C 4H 4H 6H 6H 9C")
    lead = check_lead(hand, p("AS BJ 2S 2C 4H 4H 6H 6H"), L2H)
    assert lead.suit == "T" and lead.throw_rules == ("S12",)
    with pytest.raises(IllegalAction) as exc:
        check_lead(hand, p("AS BJ"), L2H)
    assert exc.value.rule == "S8" and "S11" in exc.value.message


def test_top_ranks_skip_trump_cards():
    assert top_ranks("C", L2H) == ("A", "K")
    assert top_ranks("S", L2H) == ("K", "Q")
    ctx = TrumpContext("K", "H")
    assert top_ranks("D", ctx) == ("A", "Q")
    assert top_ranks("S", ctx) == ("Q", "J")


@pytest.mark.parametrize("text,why", [
    ("AC AC QC", "S11"),          # Q is not one of clubs' two top ranks; not all clubs
    ("9C 9C 4C", "S12"),
    ("AC AD", "one suit"),
    ("4C 4H", "one suit"),
    ("9C 9C 8C 8C 4C", "S12"),
    ("AS 2S 2C", "S11"),          # trumps: not a unit or tractor, not all trumps
])
def test_invalid_leads_are_refused(text, why):
    with pytest.raises(IllegalAction) as exc:
        check_lead(HAND, p(text), L2H)
    assert exc.value.rule == "S8"
    assert "S8" in exc.value.message
    if why != "one suit":
        assert why in exc.value.message
    else:
        assert "one suit" in exc.value.message


def test_lead_of_cards_not_held_or_nothing_is_refused():
    with pytest.raises(IllegalAction):
        check_lead(HAND, p("5C"), L2H)
    with pytest.raises(IllegalAction):
        check_lead(HAND, p("QC QC"), L2H)
    with pytest.raises(IllegalAction):
        check_lead(HAND, (), L2H)
