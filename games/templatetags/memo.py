"""``{% memo %}``: a block rendered once per distinct input, for the live table (issue #12).

A table fragment is rendered for every socket on every move, and most of it
is the same as for the previous move or for the other seats: the seats'
counts and scores, the round so far, the buttons under the player's hand.
A memo block names its inputs, and only its inputs::

    {% load memo %}
    {% memo "seat-info" count=row.count total=row.total turn=row.is_turn %}
      <span class="count">{{ count }}</span> …
    {% endmemo %}

The block is rendered with a context holding **only** those names (nothing
else of the page: a value the block forgets to name renders empty instead of
being taken from the outside, so a mistake shows up as a missing value, never
as another viewer's data), and the output is kept under (block, active
language, the inputs' values).  The output is therefore a pure function of its
key: two sockets, or two moves, whose inputs are equal get the same HTML, and a
viewer-dependent input (a seat's own role, say) simply makes a different key.

Inputs must be plain data (str, int, float, bool, None, lists, tuples and dicts
of those, dataclasses of those; lazy translations are taken in the active
language); anything else
raises ``TypeError``, so a model object (whose later state its ``repr`` would
not show) cannot become part of a key.  The keep is an LRU of
:data:`KEEP_BLOCKS` outputs per process.  No block may hold a CSRF token or
anything else taken from the request.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict

from django import template
from django.template.base import token_kwargs
from django.utils.functional import Promise
from django.utils.translation import get_language

register = template.Library()

#: Outputs kept per process (a few hundred bytes to a few KB each).
KEEP_BLOCKS = 20000

#: Render every block afresh and keep nothing, failing when the block reads a
#: name that is not one of its inputs: the reference the tests compare memo
#: renders with (a forgotten input would otherwise just render empty).
CHECK = False
#: Names Django's own tags look up in any context (``{% for %}`` asks for an
#: enclosing loop).
_CONTEXT_NAMES = {"forloop"}


class _Missed(dict):
    """The bottom of a checked block's context: records every name looked
    up that nothing above it holds (and holds nothing itself)."""

    def __init__(self, context):
        super().__init__()
        self.context = context
        self.names: set[str] = set()

    def __contains__(self, key):
        # ``key in context`` asks every level, this one first: a miss only if none holds it
        if not any(key in d for d in self.context.dicts if d is not self):
            self.names.add(key)
        return False

_kept: OrderedDict = OrderedDict()
_lock = threading.Lock()
#: Renders and hits (tests, bench).
stats = {"renders": 0, "hits": 0}

_SCALARS = (str, int, float, bool, type(None))
#: Exact types frozen without a type tag: a str key or None cannot equal a key
#: of any other type (``1 == True == 1.0`` can, so numbers keep their type).
_BARE = {str, type(None)}
_TAGGED = {int, float, bool}
#: A dataclass's field names, by class.
_FIELDS: dict = {}


def freeze(value):
    """A hashable key for plain data, the type kept (``True`` is not ``1``,
    a safe string is not a plain one).  Raises ``TypeError`` for other values.

    Equal keys mean equal data of equal types (the output kept under a key is
    the block's output for that data); two equal dicts built in different
    orders may get different keys, which only costs a render (the dicts a
    block is given are built by the same code every time).  Keys are made on
    every render of every block, hence the exact-type fast paths.

    >>> freeze({"a": None, "b": [1, True]}) == freeze({"a": None, "b": [1, True]})
    True
    >>> freeze([1]) == freeze([True])
    False
    """
    kind = type(value)
    if kind in _BARE:
        return value
    if kind in _TAGGED:
        return (kind, value)
    if isinstance(value, dict):
        return ("map", tuple([(k, freeze(v)) for k, v in value.items()]))
    if isinstance(value, (list, tuple)):
        return (kind, tuple(map(freeze, value)))  # ({{ x }} shows [1] and (1,) apart)
    if isinstance(value, _SCALARS):  # subclasses: SafeString, str enums …
        return (kind, value)
    if isinstance(value, Promise):  # a lazy translation renders as its text now
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS.get(kind)
        if names is None:
            names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(value))
        return (kind, tuple([freeze(getattr(value, name)) for name in names]))
    raise TypeError(f"{{% memo %}} inputs must be plain data, not {type(value).__name__}")


class MemoNode(template.Node):
    def __init__(self, name: str, inputs: dict, nodelist):
        self.name = name
        self.inputs = inputs
        self.nodelist = nodelist

    def render(self, context):
        values = {key: expr.resolve(context) for key, expr in self.inputs.items()}
        if CHECK:
            inner = context.new(values)
            missed = _Missed(inner)
            inner.dicts.insert(0, missed)
            html = self.nodelist.render(inner)
            unknown = missed.names - _CONTEXT_NAMES
            if unknown:
                raise template.TemplateSyntaxError(
                    f"{{% memo {self.name!r} %}} reads {sorted(unknown)}, which are not among its inputs"
                )
            return html
        key = (id(self), get_language(), freeze(values))
        with _lock:
            entry = _kept.get(key)
            if entry is not None and entry[0] is self:
                _kept.move_to_end(key)
                stats["hits"] += 1
                return entry[1]
        html = self.nodelist.render(context.new(values))
        with _lock:
            # the node itself is kept with its output, so its id is never reused for another
            _kept[key] = (self, html)
            stats["renders"] += 1
            while len(_kept) > KEEP_BLOCKS:
                _kept.popitem(last=False)
        return html


@register.tag("memo")
def memo(parser, token):
    """``{% memo "name" a=expr b=expr … %}…{% endmemo %}`` (see the module)."""
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][:1] not in "\"'" or bits[1][-1:] != bits[1][:1]:
        raise template.TemplateSyntaxError('{% memo %} needs a quoted name: {% memo "name" a=… %}')
    rest = bits[2:]
    inputs = token_kwargs(rest, parser, support_legacy=False)
    if rest:
        raise template.TemplateSyntaxError(f"{{% memo %}} takes only name=value inputs, not {rest}")
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(bits[1][1:-1], inputs, nodelist)


def forget() -> None:
    """Drop every kept output (tests)."""
    with _lock:
        _kept.clear()
