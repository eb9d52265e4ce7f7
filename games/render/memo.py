"""Blocks of the live table fragment rendered once per distinct input.

A table fragment is rendered for every socket on every move, and most of it
is the same as for the previous move or for the other seats: the seats'
names, counts and scores, the round so far, the score sheet.  Such a part is a
macro of a ``*_blocks.html`` Jinja2 template, called through ``memo``
(:mod:`games.render.jinja`)::

    {% import "games/_table_blocks.html" as blocks %}
    {{ memo(blocks.seat, s=row.shown) }}

The macro is imported without context: it sees **only** its arguments (and the
environment's globals: ``_``, ``url`` …), so nothing else of the page, another
viewer's data above all, can reach its output (``tests/site/test_table_memo.py``
checks every block template for names that are neither).  Its output is kept
under (block, active language, the inputs' values): it is a pure function of
that key, so two sockets, or two moves, whose inputs are equal get the same
HTML, and a viewer-dependent input (a seat's own role, say) simply makes a
different key.

Inputs must be plain data (str, int, float, bool, None, lists, tuples and dicts
of those, dataclasses of those; lazy translations are taken in the active
language); anything else raises ``TypeError``, so a model object (whose later
state its ``repr`` would not show) cannot become part of a key.  The keep is an
LRU of :data:`KEEP_BLOCKS` outputs per process.  No block may hold a CSRF token
or anything else taken from the request.
"""

from __future__ import annotations

import dataclasses
import pickle
import threading
from collections import OrderedDict
from contextlib import contextmanager
from contextvars import ContextVar

from django.utils import translation
from django.utils.functional import Promise

from games.services import roomcache

#: Outputs kept per process (a few hundred bytes to a few KB each).
KEEP_BLOCKS = 20000

#: Render every block afresh and keep nothing: the reference the tests
#: compare kept renders with.
CHECK = False

_kept: OrderedDict = OrderedDict()
_lock = threading.Lock()
#: Renders and hits (tests, bench).
stats = {"renders": 0, "hits": 0}

_SCALARS = (str, int, float, bool, type(None))
#: A dataclass's field names, by class.
_FIELDS: dict = {}


def freeze(value):
    """A hashable key for plain data, the type kept (``True`` is not ``1``,
    a safe string is not a plain one).  Raises ``TypeError`` for other values.

    Equal keys mean equal data of equal types.  :func:`kept` keys its outputs
    by :func:`key_of` (faster) and calls this only to check the inputs of a
    block it renders; the tests hold both to the same distinctions.

    >>> freeze({"a": None, "b": [1, True]}) == freeze({"a": None, "b": [1, True]})
    True
    >>> freeze([1]) == freeze([True])
    False
    """
    kind = type(value)
    if kind is str or value is None:  # cannot equal a key of another type
        return value
    if isinstance(value, dict):
        return ("map", tuple([(k, freeze(v)) for k, v in value.items()]))
    if isinstance(value, (list, tuple)):  # ({{ x }} shows [1] and (1,) apart)
        return (kind, tuple(map(freeze, value)))
    if isinstance(value, _SCALARS):  # numbers keep their type (1 == True == 1.0); SafeString …
        return (kind, value)
    if isinstance(value, Promise):  # a lazy translation renders as its text now
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS.get(kind)
        if names is None:
            names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(value))
        return (kind, tuple([freeze(getattr(value, name)) for name in names]))
    raise TypeError(f"memo inputs must be plain data, not {type(value).__name__}")


#: Types whose values are plain data as they are (exact types: a subclass,
#: a safe string say, goes through :func:`freeze`).
_LEAVES = frozenset({str, int, float, bool, type(None)})


def check(value) -> None:
    """Raise ``TypeError`` when ``value`` is not plain data, as :func:`freeze`
    does, without building its key: a dict's values, a list's or a tuple's
    items of exact leaf types (str, int, float, bool, None) are passed over
    in C, anything else is :func:`freeze`'s to judge.  :func:`kept` checks the
    inputs of every block it renders with this (dozens of values a block).

    >>> check({"a": [1, "x", None, (True, 2.0)]})
    >>> check({"a": [object()]})
    Traceback (most recent call last):
    TypeError: memo inputs must be plain data, not object
    """
    kind = type(value)
    if kind in _LEAVES:
        return
    if kind is dict:
        items = value.values()
    elif kind is list or kind is tuple:
        items = value
    else:
        freeze(value)
        return
    if not _LEAVES.issuperset(map(type, items)):
        for item in items:
            if type(item) not in _LEAVES:
                check(item)


def key_of(values) -> bytes:
    """The key of plain data ``values`` as kept: their pickle, which records
    every type (``True``, ``1`` and ``1.0``, a safe and a plain string, a list
    and a tuple all pickle apart) and dicts in their build order, in C (a fifth
    of the time :func:`freeze` takes).  Equal bytes mean equal data of equal
    types; two equal values may pickle apart (a dict built in another order, an
    object shared twice), which only costs a render.  A lazy translation
    pickles as its message (the active language is part of the key).  Raises
    ``TypeError`` for what is not plain data (:func:`freeze`)."""
    try:
        return pickle.dumps(values, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        freeze(values)  # names the value that is not plain data
        raise


def kept(block, language: str | None, values: dict, render):
    """The output of ``block`` for ``values`` in ``language``: ``render()``
    the first time, then the kept output (LRU of :data:`KEEP_BLOCKS`).
    Raises ``TypeError`` when ``values`` are not plain data: checked
    (:func:`check`, :func:`freeze`'s judgement) whenever the block renders, so every key kept was checked
    (a hit has the same pickle, types included, as a checked miss).  With
    :data:`CHECK` set, always ``render()`` (nothing kept)."""
    if CHECK:
        freeze(values)
        return render()
    key = (id(block), language, key_of(values))
    with _lock:
        entry = _kept.get(key)
        if entry is not None and entry[0] is block:
            _kept.move_to_end(key)
            stats["hits"] += 1
            return entry[1]
    check(values)
    html = render()
    with _lock:
        # the block itself is kept with its output, so its id is never reused for another
        _kept[key] = (block, html)
        stats["renders"] += 1
        while len(_kept) > KEEP_BLOCKS:
            _kept.popitem(last=False)
    return html


#: The language of the render in progress, set by :func:`rendering_in` (None:
#: ask Django, :func:`language`).
_language: ContextVar[str | None] = ContextVar("render_language", default=None)


def language() -> str | None:
    """The active language of the render in progress: the one
    :func:`rendering_in` set (a context variable, no lookup), else Django's
    ``get_language()`` (its thread-local state costs microseconds per call,
    and a table render asks dozens of times: every memo key, every ``_()``)."""
    found = _language.get()
    return found if found is not None else translation.get_language()


@contextmanager
def rendering_in(language_code: str):
    """Activate ``language_code`` (``translation.override``) for a render and
    say so to :func:`language` for its duration (the pushed fragments'
    renders, :func:`games.live.socket_scope.render_in`)."""
    with translation.override(language_code):
        token = _language.set(translation.get_language())
        try:
            yield
        finally:
            _language.reset(token)


def forget() -> None:
    """Drop every kept output (tests: through the one reset,
    :func:`games.services.roomcache.reset`)."""
    with _lock:
        _kept.clear()


roomcache.on_reset(forget)
