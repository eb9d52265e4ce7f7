"""B2 order, B3 sets, B4 beating (attached jokers both ways, 4H*), B6 the 3."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.baohuang.order import BJ, H4, RANK_OF, SJ, THREE, TWO, sort_cards
from games.engine.baohuang.sets import (
    beating_shapes, beats, can_beat, lead_shapes, shape_error, three_error)
from games.engine.cards import Card, parse_cards


def shape(*codes):
    return tuple(sorted((RANK_OF[Card.parse(c)] for c in codes), reverse=True))


def test_b2_order_high_to_low():
    codes = ["3S", "4S", "9H", "TD", "AS", "2C", "SJ", "BJ", "BJ*", "4H*"]
    ranks = [RANK_OF[Card.parse(c)] for c in codes]
    assert ranks == sorted(ranks)
    assert RANK_OF[Card.parse("BJ*")] == RANK_OF[Card.parse("BJ")] == BJ  # B2
    assert RANK_OF[Card.parse("4H")] == RANK_OF[Card.parse("4S")] != H4
    assert [c.code for c in sort_cards(parse_cards(["3S", "4H*", "2D", "2S", "BJ*", "BJ"]))] == [
        "4H*", "BJ", "BJ*", "2S", "2D", "3S"]


@pytest.mark.parametrize("codes", [
    ["9S"], ["9S", "9H", "9C"], ["SJ", "9S", "9S"], ["BJ", "SJ", "2S"], ["SJ", "SJ"],
    ["BJ", "SJ", "BJ*"], ["4H*"], ["4H*", "4S", "4H"], ["4H*", "BJ", "SJ"], ["4H*", "KS"],
])
def test_b3_sets(codes):
    assert shape_error(shape(*codes)) is None


@pytest.mark.parametrize("codes", [["9S", "TS"], ["SJ", "9S", "TS"], ["3S", "9S"], ["3S", "3H"], []])
def test_b3_not_sets(codes):
    assert shape_error(shape(*codes)) is not None


def test_b4_plain_sets():
    assert beats(shape("TS", "TH"), shape("9S", "9D"))
    assert not beats(shape("9S", "9H"), shape("9C", "9D"))  # equal is not higher
    assert not beats(shape("TS", "TH", "TD"), shape("9S", "9D"))  # count must match
    assert beats(shape("2S"), shape("AS"))
    assert beats(shape("SJ"), shape("2S")) and beats(shape("BJ"), shape("SJ"))
    assert beats(shape("4H*"), shape("BJ*"))
    assert not beats(shape("BJ*"), shape("BJ"))  # BJ* ranks as a BJ


def test_b4_small_jokers_attached_need_big_jokers():
    # the text's example: 2 SJ + 3 nines is beaten by 2 BJ + 3 J, or 3 BJ + 2 J
    top = shape("SJ", "SJ", "9S", "9S", "9H")
    assert beats(shape("BJ", "BJ", "JS", "JS", "JH"), top)
    assert beats(shape("BJ", "BJ", "BJ", "JS", "JH"), top)
    assert not beats(shape("SJ", "SJ", "JS", "JS", "JH"), top)  # SJ is not above SJ
    assert not beats(shape("BJ", "SJ", "JS", "JS", "JH"), top)
    assert not beats(shape("AS", "AS", "AS", "AS", "AH"), top)  # plain cards under SJ
    assert beats(shape("BJ", "BJ", "BJ", "BJ", "SJ"), top)  # jokers only


def test_b4_plain_set_beaten_by_set_with_jokers():
    # the other way: jokers may ride on a higher rank against a plain set
    assert beats(shape("SJ", "TS", "TH"), shape("9S", "9H", "9D"))
    assert not beats(shape("SJ", "9S", "9H"), shape("9S", "9H", "9D"))  # body must be higher
    assert beats(shape("SJ", "SJ", "SJ"), shape("2S", "2S", "2H"))


def test_b4_bj_attached_needs_4h_and_4h_attached_is_unbeatable():
    top = shape("BJ", "9S", "9H")
    assert not beats(shape("BJ", "TS", "TH"), top)
    assert beats(shape("4H*", "TS", "TH"), top)
    unbeatable = shape("4H*", "5S")
    for cand in itertools.product(range(16), repeat=2):
        assert not beats(tuple(sorted(cand, reverse=True)), unbeatable)


def test_b6_three_only_alone_as_last_card_when_leading():
    assert three_error((THREE,), leading=True, hand_size=1) is None
    assert three_error((THREE,), leading=True, hand_size=2)
    assert three_error((THREE,), leading=False, hand_size=1)
    assert shape_error((9, THREE))
    assert lead_shapes([1] + [0] * 15) == [(THREE,)]
    assert (THREE,) not in lead_shapes([1, 2] + [0] * 14)


def _brute(rc, top):
    """All distinct sets from rc (sub-multisets of length len(top)) that beat top."""
    cards = [r for r in range(16) for _ in range(rc[r])]
    out = set()
    for combo in itertools.combinations(cards, len(top)):
        sh = tuple(sorted(combo, reverse=True))
        if THREE in sh:
            continue
        if shape_error(sh) is None and beats(sh, top):
            out.add(sh)
    return out


rank_counts = st.lists(st.integers(0, 3), min_size=16, max_size=16).map(
    lambda xs: tuple(min(x, 1) if i in (H4, THREE) else x for i, x in enumerate(xs)))


@settings(max_examples=60, deadline=None)
@given(rank_counts, st.data())
def test_beating_shapes_match_brute_force(rc, data):
    top_body = data.draw(st.integers(1, TWO))
    n = data.draw(st.integers(1, 3))
    att = data.draw(st.lists(st.sampled_from([SJ, BJ, H4]), max_size=1))
    top = tuple(sorted([top_body] * n + att, reverse=True))
    got = beating_shapes(rc, top)
    assert len(got) == len(set(got))  # distinct
    assert set(got) == _brute(rc, top)
    assert can_beat(rc, top) == bool(got)


@settings(max_examples=40, deadline=None)
@given(rank_counts)
def test_lead_shapes_are_all_sets_and_distinct(rc):
    shapes = lead_shapes(rc)
    assert len(shapes) == len(set(shapes))
    for sh in shapes:
        if sh != (THREE,):
            assert shape_error(sh) is None and THREE not in sh
            assert all(sh.count(r) <= rc[r] for r in set(sh))


@st.composite
def any_top(draw):
    """Any set that can be on top: the 3 alone, jokers only, 4H* alone or with
    jokers, or a body of one rank with any mix of SJ/BJ/4H* attached (B3)."""
    kind = draw(st.sampled_from(["three", "jokers", "body"]))
    if kind == "three":
        return (THREE,)
    z = draw(st.integers(0, 1))
    y = draw(st.integers(0, 3))
    x = draw(st.integers(0, 3))
    n = draw(st.integers(1 if kind == "body" else 0, 3))
    if z + y + x + n == 0:
        x = 1
    body = draw(st.integers(1, TWO))
    return tuple([H4] * z + [BJ] * y + [SJ] * x + [body] * n)




@st.composite
def small_hand(draw):
    """Rank counts with at most six ranks held (so that brute force stays cheap)."""
    ranks = draw(st.lists(st.integers(0, 15), max_size=6, unique=True))
    rc = [0] * 16
    for r in ranks:
        rc[r] = 1 if r in (H4, THREE) else draw(st.integers(1, 3))
    return tuple(rc)


@settings(max_examples=80, deadline=None)
@given(small_hand())
def test_lead_shapes_are_every_set_of_the_hand(rc):
    """B3/B6: lead_shapes lists every set the hand holds (brute force over its
    sub-multisets), and the 3 only when it is the last card."""
    expect = _sets_of(rc)
    if sum(rc) == 1 and rc[THREE] == 1:
        expect = {(THREE,)}
    assert set(lead_shapes(rc)) == expect


def _sets_of(rc):
    """Every distinct sub-multiset of rank counts ``rc`` that is a B3 set."""
    out = set()
    for counts in itertools.product(*(range(c + 1) for c in rc)):
        sh = tuple(sorted((r for r in range(16) for _ in range(counts[r])), reverse=True))
        if sh and THREE not in sh and shape_error(sh) is None:
            out.add(sh)
    return out


@settings(max_examples=150, deadline=None)
@given(small_hand(), any_top())
def test_beating_shapes_match_brute_force_for_every_kind_of_top(rc, top):
    """B4 on any top (the 3, jokers only, several attachments, 4H* attached)."""
    got = beating_shapes(rc, top)
    assert len(got) == len(set(got))
    assert set(got) == {sh for sh in _sets_of(rc) if beats(sh, top)}
    assert can_beat(rc, top) == bool(got)
