"""Template filters for cards (C1 codes) and seats.

>>> card_label("TH"), card_label("BJ*"), card_label("4H*"), card_label("SJ")
('♥10', '大王', '♥4', '小王')
"""

from django import template
from django.utils.translation import gettext as _

from ..engine.cards import SUIT_SYMBOLS

register = template.Library()


@register.filter
def card_label(code: str) -> str:
    """A short label: suit symbol + rank (10 for T), jokers by name."""
    code = str(code)
    base = code.rstrip("*")
    if base == "BJ":
        return _("大王")
    if base == "SJ":
        return _("小王")
    rank, suit = base[:-1], base[-1]
    return SUIT_SYMBOLS.get(suit, suit) + ("10" if rank == "T" else rank)


#: Suit names players say (zh-Hans msgids, translated when shown).
SUIT_WORDS = {"S": "黑桃", "H": "红桃", "D": "方块", "C": "梅花"}


@register.filter
def suit_label(suit: str) -> str:
    """A suit code as players read it: ``"D"`` -> ``"♦ 方块"``; empty for none."""
    suit = str(suit or "")
    if suit not in SUIT_WORDS:
        return suit
    return f"{SUIT_SYMBOLS[suit]} {_(SUIT_WORDS[suit])}"


@register.filter
def seat_no(index) -> str:
    """A seat index (0-based, C2) as people count seats (from 1)."""
    try:
        return str(int(index) + 1)
    except (TypeError, ValueError):
        return ""


@register.filter
def card_class(code: str) -> str:
    """CSS classes: ``red`` for hearts, diamonds and the big joker; ``marked``
    for BJ* and 4H*; ``joker`` for jokers."""
    code = str(code)
    classes = []
    base = code.rstrip("*")
    if base in ("BJ", "SJ"):
        classes.append("joker")
    if base == "BJ" or base.endswith("H") or base.endswith("D"):
        classes.append("red")
    if code.endswith("*"):
        classes.append("marked")
    return " ".join(classes)


def face(code: str) -> tuple[str, str]:
    """``(rank, suit symbol)`` for the two lines of a card face.

    >>> face("TH"), face("AS"), face("BJ")
    (('10', '♥'), ('A', '♠'), ('大', '王'))
    """
    if code == "BJ":
        return _("大"), _("王")
    if code == "SJ":
        return _("小"), _("王")
    rank, suit = code[:-1], code[-1]
    return ("10" if rank == "T" else rank), SUIT_SYMBOLS.get(suit, suit)


def short(code: str) -> str:
    """A compact text label from :func:`face` for lists (``♥10``, ``大王``).

    >>> short("TH"), short("SJ")
    ('♥10', '小王')
    """
    rank, suit = face(code)
    if code in ("BJ", "SJ"):
        return rank + suit
    return suit + rank


@register.filter
def get_item(mapping, key):
    """``mapping[key]`` in templates (dict with str or int keys, or list)."""
    if mapping is None:
        return None
    if isinstance(mapping, (list, tuple)):
        try:
            return mapping[int(key)]
        except (IndexError, ValueError, TypeError):
            return None
    if key in mapping:
        return mapping[key]
    return mapping.get(str(key))
