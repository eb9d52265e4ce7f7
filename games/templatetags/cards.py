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
