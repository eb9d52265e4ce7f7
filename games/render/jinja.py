"""The Jinja2 environment of the live table fragment.

The ``#table`` fragment is rendered once per seat on every move (the fan-out
hub, :mod:`games.live.fanout`), so its templates are Jinja2 (compiled to Python
functions) rather than Django templates: the same fragment renders several
times faster.  Everything else stays a Django template.  The fragment's
templates live in ``jinja2/`` folders beside the ``templates/`` ones
(``games/jinja2/games/_table.html``, each game's ``_board.html`` in
``games/<game>/jinja2/games/<game>/``) and are found by ``render_to_string``
like any other template (``config.settings.TEMPLATES``).

They are written so that Django's ``makemessages`` still extracts every
message, and so that they render exactly what the Django templates they
replaced rendered:

* ``{{ _(MSG) }}``, MSG a string literal, is ``{% translate MSG %}`` (a
  literal's translation, not escaped);
* ``{{ _(MSG)|fmt(name=x) }}``, MSG holding ``%(name)s``, is ``{% blocktranslate
  with name=x %}`` … ``{{ name }}`` … ``{% endblocktranslate %}`` (the same msgid;
  the values escaped, the translation not);
* ``{{ url("room_act", room.pk) }}`` is ``{% url "room_act" room.pk %}``
  (:func:`games.render.paths.path`: reversed once per prefix, name and arguments);
* ``x|get_item(k)``, ``x|cards_html("mini")``, ``x|card_class``, ``x|card_label``
  are the ``cards`` template filters;
* ``x|default_if_none("")`` is Django's filter, ``x is none`` the test for None;
* a name or attribute that does not exist fails the render
  (:class:`jinja2.StrictUndefined`, unlike a Django template, which prints
  nothing): the fragment reads ``table`` (:class:`games.render.view.TableView`)
  and ``game`` (the game's regions) by attribute, so a renamed field is an
  error, never an empty place (``tests/site/test_table_seam.py`` renders every
  table state it reaches).  A template that takes an optional variable says so
  (``error|default(false)``); an attribute of None is undefined too, so
  ``x and x.y`` where ``x`` may be None;
* ``{% call region("my-hand") %}<div id="my-hand" …>…</div>{% endcall %}`` is a
  region of the table fragment (:mod:`games.render.regions`: the element gets
  ``data-h``, and a push may send it as a stub when it did not change);
* ``{{ memo(blocks.seat, s=row.shown) }}`` is a memo block of
  :mod:`games.render.memo`: the macro ``seat`` of a ``*_blocks.html`` template,
  imported without context (so it sees only its arguments and the globals:
  ``tests/site/test_table_memo.py`` checks that statically), rendered once per
  distinct input and active language.

Numbers are never localized (the fragment was ``{% localize off %}``).
"""

from __future__ import annotations

from django.templatetags.static import static
from django.utils.translation import gettext, ngettext
from jinja2 import Environment, StrictUndefined
from jinja2.runtime import Undefined
from markupsafe import Markup

from games.render import memo as memo_store
from games.render.paths import path
from games.render.regions import region
from games.templatetags.cards import card_class, card_label, cards_html, get_item, stack_buttons


def _defined(value):
    """``value``; raises :class:`jinja2.UndefinedError` for an undefined one
    (a filter's or a call's argument is not printed, so strict undefined
    alone would let it pass)."""
    if isinstance(value, Undefined):
        value._fail_with_undefined_error()
    return value


def fmt(message: str, **values) -> Markup:
    """``{% blocktranslate with k=v … %}``: the translated ``message`` (not
    escaped, as Django's tag does not escape it) with each ``%(k)s`` replaced by
    its value, escaped.  An undefined value raises."""
    return Markup(message) % {k: _defined(v) for k, v in values.items()}


#: ``(language, literal) -> translation`` of the templates' own literals, in a
#: render whose language :func:`games.render.memo.rendering_in` set (the
#: catalogs do not change while the process runs; the literals are finite).
_translated: dict[tuple[str, str], Markup] = {}


def translate(message: str) -> Markup:
    """``{% translate "literal" %}``: the translation of a template's own
    literal, not escaped (Django keeps a literal's translation safe); kept per
    language when the render's language is known."""
    language = memo_store._language.get()
    if language is None:
        return Markup(gettext(message))
    found = _translated.get((language, message))
    if found is None:
        found = _translated[(language, message)] = Markup(gettext(message))
    return found


def plural(singular: str, plural_form: str, n) -> Markup:
    """``{% blocktranslate count %}``: the translation of ``singular`` or
    ``plural_form`` that fits the number ``n`` in the reader's language ("1
    card", "2 cards"), not escaped; fill its placeholders with ``fmt``."""
    return Markup(ngettext(singular, plural_form, int(n or 0)))


def default_if_none(value, default=""):
    """Django's ``default_if_none``; an undefined value raises."""
    return default if _defined(value) is None else value


def is_none(value) -> bool:
    """The ``none`` test: ``value is None``; an undefined value raises."""
    return _defined(value) is None


def memo(block, **inputs) -> Markup:
    """``block(**inputs)`` (a macro of a ``*_blocks.html`` template), kept per
    distinct inputs and active language (:func:`games.render.memo.kept`).  An
    undefined input raises."""
    values = {k: _defined(v) for k, v in inputs.items()}
    return memo_store.kept(block, memo_store.language(), values, lambda: Markup(block(**values)))


class TableEnvironment(Environment):
    """Jinja2's environment, with ``x.name`` on a plain dict read as
    ``x["name"]`` first.  The table's context is mostly dicts (seat rows, the
    engine's views): Jinja2 tries ``getattr(dict, "name")`` first, which raises
    and catches an ``AttributeError`` for every such read (about a hundred a
    render) before it looks the key up.  Reading the key first gives the same
    value whenever the key is not also a dict method's name, and the
    fragment's templates call no dict method; a name that is not a key goes
    the usual way (a dict's method, else undefined).  Any other object's
    attribute is read here too (Jinja2's first try, without a second call
    per read: about two hundred reads a render); a missing one goes the
    usual way (an item, else undefined)."""

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        else:
            try:
                return getattr(obj, attribute)
            except AttributeError:
                pass
        return super().getattr(obj, attribute)


def environment(**options) -> Environment:
    """The environment of ``TEMPLATES``' Jinja2 backend (``OPTIONS.environment``):
    strict undefined always (Django's backend passes its own default,
    ``Undefined`` or ``DebugUndefined``, which print a missing name)."""
    options["undefined"] = StrictUndefined
    options.setdefault("keep_trailing_newline", True)
    env = TableEnvironment(**options)
    env.globals.update({"_": translate, "ngettext": plural, "url": path, "memo": memo, "static": static, "region": region})
    env.filters.update({
        "fmt": fmt, "get_item": get_item, "cards_html": cards_html, "stack_buttons": stack_buttons, "card_class": card_class,
        "card_label": card_label, "default_if_none": default_if_none,
    })
    env.tests["none"] = is_none
    return env

