"""Template filters for cards (C1 codes) and seats.

>>> card_label("TH"), card_label("BJ*"), card_label("4H*"), card_label("SJ")
('♥10', '大王', '♥4', '小王')
"""

from functools import lru_cache

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
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
    if code.rstrip("*") in ("BJ", "SJ"):
        return card_label(code)  # the joker's whole name ("Big Joker"), not its two face halves
    rank, suit = face(code)
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


#: What one card looks like in each list of cards (``{code}``, ``{css}``, ``{label}``,
#: ``{rank}``, ``{suit}`` filled in, each escaped).  Every card drawn carries
#: ``data-card`` (its C1 code: the table's DOM contract, read by tests and
#: scripts).  ``button``: a card of the viewer's own hand (tap to select);
#: ``mini``: a small face in a public list; ``played``: a seat's cards of the
#: current round on the felt in front of the seat, rank over suit so that a
#: fan shows every index (short tags: a big throw's trick is pushed on every
#: move); ``top``: the cards to beat.  ``data-card`` alone names the face
#: (faces.css, cards.css): a second copy of the code in every card was a few
#: bytes of each push.
CARD_MARKUP = {
    "mini": '<span class="mini {css}" data-card="{code}">{label}</span>',
    "played": '<i class="mini {css}" data-card="{code}"><b>{rank}</b><b>{suit}</b></i>',
    "top": '<span class="mini {css}" data-card="{code}" data-top-card="{code}">{label}</span>',
}


def stack_buttons(codes) -> str:
    """The viewer's hand as buttons, identical cards stacked: one
    ``<button class="card …" data-card="CODE" [data-count="N"]>`` per code
    (in the order each code first comes in ``codes``), rank over suit, a
    ``×N`` badge (``<span class="n">``) when it holds N > 1 copies (four
    decks hold up to four).  A tap takes one more copy (static/games/table.js).

    >>> from django.utils import translation
    >>> with translation.override("zh-hans"):
    ...     str(stack_buttons(["TH", "TH", "AS"]))
    '<button type="button" class="card red" data-card="TH" data-count="2"><span class="r">10</span><span class="s">♥</span><span class="n">×2</span></button><button type="button" class="card" data-card="AS"><span class="r">A</span><span class="s">♠</span></button>'
    """
    counts: dict[str, int] = {}
    for c in codes or ():
        c = str(c)
        counts[c] = counts.get(c, 0) + 1
    language = get_language()
    return mark_safe("".join(_stack_markup(c, n, language) for c, n in counts.items()))


@lru_cache(maxsize=4096)
def _stack_markup(code: str, n: int, language: str | None) -> str:
    rank, suit = face(code.rstrip("*"))
    css = " ".join(x for x in ("card", card_class(code)) if x)
    count = f' data-count="{n}"' if n > 1 else ""
    badge = f'<span class="n">×{n}</span>' if n > 1 else ""
    return (f'<button type="button" class="{css}" data-card="{escape(code)}"{count}>'
            f'<span class="r">{escape(rank)}</span><span class="s">{escape(suit)}</span>{badge}</button>')


@lru_cache(maxsize=4096)
def _card_markup(code: str, kind: str, language: str | None) -> str:
    """One card's markup of ``kind`` (:data:`CARD_MARKUP`) in ``language``
    (the label of a joker is translated); cached, since a table fragment
    shows the same few dozen cards on every push."""
    rank, suit = face(code.rstrip("*"))
    return CARD_MARKUP[kind].format(
        code=escape(code), css=escape(card_class(code)), label=escape(card_label(code)),
        rank=escape(rank), suit=escape(suit),
    )


register.filter("stack_buttons", stack_buttons)


@register.filter
def cards_html(codes, kind: str = "mini"):
    """A list of card codes as markup, one element per card (:data:`CARD_MARKUP`),
    in one call instead of a template loop with two filters per card: the
    table fragment is rendered once per seat and move, so this is on the live
    path.  Unknown ``kind`` raises ``KeyError``.

    >>> from django.utils import translation
    >>> with translation.override("zh-hans"):
    ...     str(cards_html(["TH", "BJ*"], "mini"))
    '<span class="mini red" data-card="TH">♥10</span><span class="mini joker red marked" data-card="BJ*">大王</span>'
    """
    language = get_language()
    return mark_safe("".join(_card_markup(str(c), kind, language) for c in codes or ()))
