"""The Jinja2 environment of the live table fragment.

The ``#table`` fragment is rendered once per seat on every move (the fan-out
hub, :mod:`games.live.fanout`), so its templates are Jinja2 (compiled to Python
functions) rather than Django templates: the same fragment renders several
times faster.  Everything else stays a Django template.  The fragment's
templates live in ``jinja2/`` folders beside the ``templates/`` ones
(``games/jinja2/games/_table.html``, each game's ``_board.html`` in
``games/<game>/jinja2/games/<game>/``) and are found by ``render_to_string``
like any other template (``config.settings.TEMPLATES``).

Their messages are extracted by the project's ``makemessages``
(``games/management/commands/makemessages.py``), which reads them with this
environment (Django's own would read them as Django templates and miss the
``ngettext()`` and ``pgettext()`` calls).  They render exactly what the Django
templates they replaced rendered:

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
* ``{{ region.memo("x", blocks.x, a=…) }}`` is a region that is one memo
  block (``{% call region("x") %}{{ memo(blocks.x, a=…) }}{% endcall %}``, one
  keep lookup), ``{{ region.rows("seat-", blocks.seat_place, table.seats,
  "index pos …") }}`` one ``region.block`` per row, looped in Python
  (:meth:`games.render.regions.Regions.rows`);
* ``{{ memo(blocks.seat, s=row.shown) }}`` is a memo block of
  :mod:`games.render.memo`: the macro ``seat`` of a ``*_blocks.html`` template,
  imported without context (so it sees only its arguments and the globals:
  ``tests/site/test_table_memo.py`` checks that statically), rendered once per
  distinct input and active language.

Numbers are never localized (the fragment was ``{% localize off %}``).
"""

from __future__ import annotations

from collections import ChainMap
from types import MethodType

from django.templatetags.static import static
from django.utils.translation import gettext, ngettext, pgettext
from jinja2 import Environment, StrictUndefined, Template
from jinja2.runtime import Context, Undefined, new_context
from markupsafe import Markup

from games.render import memo as memo_store
from games.render.paths import path
from games.render.regions import Regions, region
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


def translate_in_context(context: str, message: str) -> Markup:
    """``{% translate "literal" context "ctx" %}``: :func:`translate` of a
    literal whose word depends on where it stands (``pgettext``: one
    Chinese word may be a game's name alone and a role as a "seat tag");
    kept per language like :func:`translate`."""
    language = memo_store._language.get()
    if language is None:
        return Markup(pgettext(context, message))
    key = (language, context + "\x04" + message)
    found = _translated.get(key)
    if found is None:
        found = _translated[key] = Markup(pgettext(context, message))
    return found


#: ``(language, singular, plural, n) -> translation`` of the templates' own
#: plural literals (:func:`plural`), in a render whose language is known: the
#: catalogs do not change while the process runs, and the numbers a table
#: counts (cards in a hand) are few.  Emptied when it holds :data:`KEEP_PLURALS`.
_plurals: dict[tuple[str, str, str, int], Markup] = {}
KEEP_PLURALS = 2000


def plural(singular: str, plural_form: str, n) -> Markup:
    """``{% blocktranslate count %}``: the translation of ``singular`` or
    ``plural_form`` that fits the number ``n`` in the reader's language ("1
    card", "2 cards"), not escaped; fill its placeholders with ``fmt``.  Kept
    per language, literal and number when the render's language is known
    (:data:`_plurals`)."""
    n = int(n or 0)
    language = memo_store._language.get()
    if language is None:
        return Markup(ngettext(singular, plural_form, n))
    key = (language, singular, plural_form, n)
    found = _plurals.get(key)
    if found is None:
        if len(_plurals) >= KEEP_PLURALS:
            _plurals.clear()
        found = _plurals[key] = Markup(ngettext(singular, plural_form, n))
    return found


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


class TableContext(Context):
    """Jinja2's context, calling the environment's own functions directly.

    Every call in a template (``_(text)``, ``memo(…)``, ``region.block(…)``,
    ``url(…)``: some sixty a table render) goes through ``Context.call``,
    which asks the callable, and its ``__call__``, whether it wants the
    context, the eval context or the environment passed first, and drops the
    loop's and block's variables from the keywords.  The callables of
    :data:`DIRECT` (this module's globals, a render's
    :class:`~games.render.regions.Regions` and its methods) want none of
    them: they are called with their arguments as given, as ``Context.call``
    would.  Anything else goes Jinja2's way."""

    __slots__ = ()

    def call(__self, __obj, *args, **kwargs):  # noqa: N805 (Jinja2's own signature)
        kind = type(__obj)
        try:
            direct = kind is Regions or (__obj.__func__ if kind is MethodType else __obj) in DIRECT
        except TypeError:  # unhashable: Jinja2's way
            direct = False
        if direct:
            if kwargs:
                kwargs.pop("_loop_vars", None)
                kwargs.pop("_block_vars", None)
            try:
                return __obj(*args, **kwargs)
            except StopIteration:  # as Context.call
                return __self.environment.undefined("value was undefined because a callable raised a"
                                                     " StopIteration exception")
        return Context.call(__self, __obj, *args, **kwargs)


class TableTemplate(Template):
    """Jinja2's template, importing a ``*_blocks.html`` template cheaply.

    ``{% import "…_blocks.html" as blocks %}`` (three a table render) asks
    the imported template for its module: Jinja2 gives the cached module
    unless the importing render's globals hold a name the imported template's
    globals lack (then a module of its own), and tells that with a set
    difference against its globals' ``ChainMap`` keys view, a Python-level
    loop of ``ChainMap.__contains__`` per name (about 700 opcodes an
    import).  The same test, done here with ``set.difference`` over the
    chain's dicts (in C), gives the same module."""

    def _get_default_module(self, ctx=None):
        chain = self.globals
        if ctx is None or type(chain) is not ChainMap or self.environment.is_async:
            return super()._get_default_module(ctx)
        if ctx.globals_keys.difference(*chain.maps):  # a name of the render's own: Jinja2's way
            return super()._get_default_module(ctx)
        if self._module is None:
            self._module = self.make_module()
        return self._module

    def new_context(self, vars=None, shared=False, locals=None):
        """Jinja2's context for a render of this template, given its globals
        as one dict, the ``ChainMap`` flattened in C (the first map wins, as
        in the chain): Jinja2 copies them into the context's parent and takes
        their keys, and a ``ChainMap`` does both in Python (about 500 opcodes
        a table render)."""
        chain = self.globals
        if type(chain) is ChainMap:
            flat: dict = {}
            for mapping in reversed(chain.maps):
                flat.update(mapping)
            chain = flat
        return new_context(self.environment, self.name, self.blocks, vars, shared, chain, locals)


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
    usual way (an item, else undefined).  Its context calls the
    environment's own functions directly (:class:`TableContext`), its
    templates import blocks without a Python-level set difference
    (:class:`TableTemplate`), and a template once loaded is found in a
    dict when templates are not reloaded (:meth:`_load_template`)."""

    context_class = TableContext
    template_class = TableTemplate

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        #: ``name -> (loader, template)``: what :meth:`_load_template` found,
        #: when templates are not reloaded.
        self.loaded: dict = {}

    def _load_template(self, name, globals):
        """Jinja2's, with a plain dict before its LRU cache when templates are
        not reloaded (``auto_reload`` off, as in production): the fragment
        includes and imports about seven templates a render, each a locked LRU
        lookup (about 100 opcodes) otherwise."""
        if self.auto_reload or globals:
            return super()._load_template(name, globals)
        found = self.loaded.get(name)
        if found is not None and found[0] is self.loader:
            return found[1]
        template = super()._load_template(name, globals)
        self.loaded[name] = (self.loader, template)
        return template

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
    env.globals.update({"_": translate, "pgettext": translate_in_context, "ngettext": plural, "url": path, "memo": memo, "static": static, "region": region})
    env.filters.update({
        "fmt": fmt, "get_item": get_item, "cards_html": cards_html, "stack_buttons": stack_buttons, "card_class": card_class,
        "card_label": card_label, "default_if_none": default_if_none,
    })
    env.tests["none"] = is_none
    return env


#: What :class:`TableContext` calls directly: functions that take no context
#: (no ``pass_context``, ``pass_eval_context`` nor ``pass_environment``).
DIRECT = frozenset({
    translate, plural, path, memo, static, region, region.block, region.memo, region.rows,
    Regions.__call__, Regions.block, Regions.memo, Regions.rows,
})

