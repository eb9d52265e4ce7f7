"""The table's words and stacks that need no browser: why the levels moved
(S17 bands, S2 sequence) and identical cards stacked in the hand."""

from __future__ import annotations

import re

from django.utils import translation

from games.shengji.table import hand_html, level_reason
from games.templatetags.cards import stack_buttons


def _teams(before, after, gained):
    return [{"team": 0, "before": before, "after": after, "gained": gained},
            {"team": 1, "before": "2", "after": "2", "gained": 0}]


def test_level_reason_names_the_band_and_the_ruling():
    with translation.override("en"):
        assert "defenders go up 4 levels (S17)" in level_reason(0, _teams("6", "J", 4))[0]
        under = level_reason(85, _teams("6", "7", 1))
        assert under == ["The attackers scored 85, under 160: the defenders hold and go up 1 level (S17)."]
        assert "no level gained (S17)" in level_reason(200, _teams("6", "6", 0))[0]
        assert "go up 2 levels (S17)" in level_reason(330, _teams("6", "8", 2))[0]
        assert "go up 3 levels (S17)" in level_reason(400, _teams("6", "9", 3))[0]


def test_level_reason_explains_a_skipped_level_from_2_or_4():
    """S2: 3, 5 and A are never levels, so "2 → 4" is one level."""
    with translation.override("en"):
        words = level_reason(100, _teams("2", "4", 1))
        assert len(words) == 2 and "(S2)" in words[1] and "2 → 4" in words[1]
        assert len(level_reason(100, _teams("7", "8", 1))) == 1
    with translation.override("zh-hant"):
        assert "級" in level_reason(100, _teams("4", "6", 1))[1]


def test_identical_cards_are_one_button_with_their_count():
    html = str(stack_buttons(["AS", "AS", "AS", "TH", "BJ*"]))
    assert re.findall(r'data-card="([^"]+)"(?: data-count="(\d)")?', html) == [("AS", "3"), ("TH", ""), ("BJ*", "")]
    assert "×3" in html


def _card(code, kitty=False):
    return {"code": code, "rank": code[0], "suit": code[1], "css": "", "bid": 0, "kitty": kitty,
            "suit_of": code[1], "points": 0, "block": ""}


def test_shengji_hand_keeps_a_kitty_copy_apart_and_give_unstacked():
    """S15: while burying, the kitty's cards keep their own (gold) element;
    S14's 还牌 keeps one button per card."""
    cards = [_card("9S"), _card("9S"), _card("9S", kitty=True), _card("4C")]
    html = str(hand_html(cards))
    assert re.findall(r'data-card="([^"]+)"(?: data-count="(\d)")?', html) == [("9S", "2"), ("9S", ""), ("4C", "")]
    assert html.count('data-kitty="1"') == 1
    assert len(re.findall(r"<button", str(hand_html(cards, stack=False)))) == 4
