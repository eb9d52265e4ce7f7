"""Regions of the live table fragment, and pushes of only the regions that changed.

The ``#table`` fragment is split, in its templates, into a few stable
*regions*: elements with an ``id`` wrapped in a call block::

    {% call region("my-hand") %}<div id="my-hand" class="my-hand">…</div>{% endcall %}

or, when the element is a pure function of a few inputs, as a macro of a
``*_blocks.html`` template (imported without context, as ``memo`` blocks are)::

    {{ region.block("play-" ~ row.index, blocks.play, row=row) }}

(a region that is nothing but one such block: ``{{ region.memo("x", blocks.x,
…) }}``; a region per row of a list, looped in Python:
``{{ region.rows("play-", blocks.play, table.seats, "index name played") }}``)
which is rendered and hashed once per distinct inputs and language and then
kept (:func:`kept_region`): most regions of a push are unchanged for a seat
since its previous push (the seats that did not move, their plays, the
hand of a seat that did not play).

:class:`Regions` (the ``region`` of a table render's context) renders the
block, adds ``data-h="<hash of the element>"`` at the end of its opening tag
(the first ``>``: a region's attributes hold none unescaped) and records
``id -> (hash, tag, element html)``; a region's html is one element whose
opening tag carries that ``id``.  Regions do not nest, and a region is never
inside a ``memo`` block (a kept block is not rendered again, so its region
would not be recorded); a region may wrap a memo block.  Everything outside
the regions (the root with its ``data-version``, the notices, the board's
own element) is the fragment's skeleton and is sent with every push.

A table socket keeps what it last sent (:func:`partial`'s record: hash per
region id).  The next push sends the regions whose hash changed in full and
each unchanged one as a *stub*, ``<tag id="…" data-keep="<hash>"></tag>``:
the page's script (``static/games/table.js``) keeps the element it has when
that element's ``data-h`` equals the stub's hash, and otherwise drops the push
and asks the socket for the whole fragment (``{"full": 1}``), so a push after a
POST answer, a dropped frame or a skipped version never leaves a stale region
on the page.  The whole fragment goes out on the first send, after a
reconnect (a new socket has no record), when the page asks for it, and when
no region is unchanged.  Any unchanged region is worth a stub on the wire: with
the socket's deflate context kept (config/ws_deflate.py) a whole fragment after
a run of partial pushes no longer finds the unchanged regions' text in the 32 kB
window and costs about 1 kB where the partial push costs a few hundred bytes
(docs/performance.md, "Bytes per push").

The split costs one hash per region and render (a blake2b of a few hundred
bytes) and, per socket and push, one pass over the fragment (a ``str.find`` of its
opening tag per unchanged region, each from where the last one ended): no
HTML is parsed.
"""

from __future__ import annotations

import hashlib
import re
from itertools import repeat

from jinja2.runtime import Undefined
from markupsafe import Markup

from games.render import memo as memo_store
from games.services import roomcache

#: The hash's length in bytes (8 hex digits in ``data-h``).  A changed
#: region's new hash is the least compressible text of a push (it goes out
#: twice: in the region's ``data-h``, then in the next push's stub), so it is
#: short: a stale element is kept only if a region's new content hashes like
#: the content the page has for it (2**-32 per changed region), where 12
#: digits cost about 3 bytes more per changed region on the wire (the
#: median push of a seeded ``scripts/bytes_per_push.py`` sample: 16 bytes).
HASH_BYTES = 4
#: hashlib lets other threads run while it hashes 2048 bytes or more at once;
#: a region is hashed in pieces below that, so the render thread keeps the GIL
#: (a hash of a few kB takes microseconds; handing the GIL to the event loop
#: and waiting to get it back took far longer, on every large region).
_PIECE = 2000


#: A line break and the white space after it: the templates' indentation
#: (``\s*\n\s*``, which also took the spaces before a break, gave the same
#: fragments 5 times slower: it tries at every space).
_BREAK_RUN = re.compile(r"\n\s+")


def squeeze(html: str) -> str:
    """``html`` with each line break and the white space after it made one
    line break: the templates' indentation, which a browser renders as the
    one space it collapses to anyway (the table holds no ``<pre>`` nor
    ``white-space: pre`` text), is not sent on every push.  Idempotent, so a
    region squeezed alone is found as it is in the squeezed fragment.

    >>> squeeze('<div>\\n    <p>a b</p>\\n  \\n</div>')
    '<div>\\n<p>a b</p>\\n</div>'
    """
    return _BREAK_RUN.sub("\n", html)


def digest(html: str) -> str:
    """The region hash of ``html``: 8 hex digits of its UTF-8 blake2b (32 bits),
    computed without releasing the GIL.

    >>> digest('<p id="x">a</p>') == hashlib.blake2b('<p id="x">a</p>'.encode(), digest_size=4).hexdigest()
    True
    """
    data = html.encode()
    if len(data) <= _PIECE:
        return hashlib.blake2b(data, digest_size=HASH_BYTES).hexdigest()
    h = hashlib.blake2b(digest_size=HASH_BYTES)
    view = memoryview(data)
    for start in range(0, len(data), _PIECE):
        h.update(view[start:start + _PIECE])
    return h.hexdigest()


#: ``(region id, element html as rendered) -> (hash, tag, squeezed html with data-h)`` of the
#: regions rendered lately (a pure function of its key): a region that renders
#: as it did before (most of a push's, for most seats) is looked up, not
#: hashed and spliced again.  Emptied when it holds :data:`KEEP_HASHED`.
_hashes: dict[tuple[str, str], tuple[str, str, str]] = {}
KEEP_HASHED = 4000


def _hashed(rid: str, caller) -> tuple[str, str, str]:
    """``(hash, tag, html with data-h)`` of the element ``caller()`` renders.
    Raises ``ValueError`` unless that is one element whose opening tag says
    ``id="<rid>"``.  Kept per ``(rid, html as rendered)`` (:data:`_hashes`):
    a region rendered as before is neither squeezed nor hashed again."""
    html = str(caller()).strip()
    key = (rid, html)
    found = _hashes.get(key)
    if found is None:
        found = _hash_region(rid, squeeze(html))
        if not memo_store.CHECK:
            if len(_hashes) >= KEEP_HASHED:
                _hashes.clear()
            _hashes[key] = found
    return found


def _hash_region(rid: str, html: str) -> tuple[str, str, str]:
    """:func:`_hashed` of the (squeezed) element ``html``, computed."""
    end = html.find(">")
    space = html.find(" ")
    if not html.startswith("<") or space < 0 or end < space or f'id="{rid}"' not in html[:end]:
        raise ValueError(f"region {rid!r} must be one element with id={rid!r}: {html[:80]!r}")
    found = digest(html)
    return found, html[1:space], f'{html[:end]} data-h="{found}"{html[end:]}'


def kept_region(rid: str, block, inputs: dict, strict: bool = False) -> tuple[str, str, str]:
    """``(hash, tag, html with data-h)`` of region ``rid`` rendered by the
    ``*_blocks.html`` macro ``block(**inputs)``, kept per distinct inputs and
    language like a ``memo`` block (:func:`games.render.memo.kept`: the
    macro sees only its inputs, which must be plain data): an unchanged region
    is neither rendered nor hashed again.  An undefined input is ``""``, or
    with ``strict`` raises :class:`jinja2.UndefinedError` (as ``memo`` does)."""
    values = inputs
    if any(map(isinstance, inputs.values(), repeat(Undefined))):  # (in C: most calls have none)
        if strict:
            next(v for v in inputs.values() if isinstance(v, Undefined))._fail_with_undefined_error()
        values = {k: ("" if isinstance(v, Undefined) else v) for k, v in inputs.items()}
    return memo_store.kept(block, memo_store.language(), {"region": rid, "inputs": values},
                           lambda: _hashed(rid, lambda: block(**values)))


def region(rid: str, caller=None) -> Markup:
    """A region rendered outside a table render (no record): the element with
    its ``data-h``.  The environment's global ``region``; a table render passes
    its own :class:`Regions` instead.  ``region.block(rid, macro, **inputs)``
    is :meth:`Regions.block` without the record (``region.memo``,
    ``region.rows`` likewise)."""
    return Markup(_hashed(rid, caller)[2])


region.block = lambda rid, block, **inputs: Markup(kept_region(rid, block, inputs)[2])
region.memo = lambda rid, block, **inputs: Markup(kept_region(rid, block, inputs, strict=True)[2])
region.shared = lambda rid, block: _no_shared(rid, block)
region.rows = lambda prefix, block, rows, fields, sep="", shared=None, **common: Regions().rows(
    prefix, block, rows, fields, sep, **common)


def _no_shared(rid: str, block):
    """A shared region outside a table render (no snapshot to share it over)."""
    raise ValueError(f"region {rid!r}: a shared region is rendered only in a table render")


def forget() -> None:
    """Drop the kept region hashes (tests: through the one reset,
    :func:`games.services.roomcache.reset`)."""
    _hashes.clear()


roomcache.on_reset(forget)


def row_inputs(prefix: str, row, names: list[str], common: dict) -> tuple[str, dict]:
    """``(region id, inputs)`` of one row of a ``region.rows``: the row's
    (a dict's keys or an object's attributes) ``names`` plus the ``common``
    inputs; the id is ``prefix`` and the first name's value.  The one
    definition a viewer's rows (:meth:`Regions.rows`) and the shared rows
    (:func:`games.render.tables.shared_rows`) are compared by."""
    values = {name: row[name] for name in names} if type(row) is dict else {
        name: getattr(row, name) for name in names}
    rid = f"{prefix}{values[names[0]]}"
    if common:
        values.update(common)
    return rid, values


_MISSING = object()


class Regions:
    """The regions of one render, in template order: ``parts`` maps each
    region id to ``(hash, tag, element html as rendered, data-h included)``.
    ``shared`` (a table render's: :func:`games.render.tables.shared_region`
    of its snapshot) gives a shared region's ``(hash, tag, html)`` or None,
    worked out once for every viewer of the version (:meth:`shared`);
    ``shared_rows`` (:func:`games.render.tables.shared_rows` of its
    snapshot) the rows of a ``region.rows(…, shared=…)`` as every viewer whose
    own rows equal them gets them, with the rows they were rendered from
    (``(source, ((inputs, (hash, tag, html)), …))``, :meth:`rows`), or None."""

    __slots__ = ("parts", "_shared", "_shared_rows")

    def __init__(self, shared=None, shared_rows=None):
        self.parts: dict[str, tuple[str, str, str]] = {}
        self._shared = shared if shared is not None else _no_shared
        self._shared_rows = shared_rows

    def _record(self, rid: str, found: tuple[str, str, str]) -> str:
        """Record region ``rid`` as ``found`` (``(hash, tag, html)``) and
        return its html; a region rendered twice is a ``ValueError``."""
        if rid in self.parts:
            raise ValueError(f"region {rid!r} rendered twice")
        self.parts[rid] = found
        return found[2]

    def __call__(self, rid: str, caller=None) -> Markup:
        return Markup(self._record(rid, _hashed(rid, caller)))

    def block(self, rid: str, block, **inputs) -> Markup:
        """The region ``rid`` as the macro ``block`` of a ``*_blocks.html``
        template renders it from ``inputs`` alone (``{{ region.block("play-1",
        blocks.play, …) }}``), kept per distinct inputs (:func:`kept_region`),
        recorded like a called region."""
        return Markup(self._record(rid, kept_region(rid, block, inputs)))

    def memo(self, rid: str, block, **inputs) -> Markup:
        """:meth:`block` with an undefined input an error (as ``memo``): the
        region that is nothing but a memo block, ``{{ region.memo("x",
        blocks.x, …) }}`` for ``{% call region("x") %}{{ memo(blocks.x, …) }}{%
        endcall %}`` (the same html, from one keep lookup instead of a
        caller's render, a memo lookup and a hash lookup)."""
        return Markup(self._record(rid, kept_region(rid, block, inputs, strict=True)))

    def shared(self, rid: str, block) -> Markup:
        """The region ``rid`` that every viewer of the version sees alike (a
        game's ``shared_regions``), ``{{ region.shared("top-set",
        bh.bh_top) }}``: the macro ``block`` of a ``*_blocks.html`` template
        rendered once per version and language for all viewers, from inputs
        the game derives from what everyone sees (the engine's view for no
        seat, never this viewer's), and spliced in here, recorded like any
        region; nothing (and no record) when the game says it is not shown.
        Raises ``ValueError`` outside a table render or for a region the game
        does not declare shared."""
        found = self._shared(rid, block)
        if found is None:
            return Markup("")
        return Markup(self._record(rid, found))

    def rows(self, prefix: str, block, rows, fields: str, sep: str = "", shared: str | None = None,
             **common) -> Markup:
        """One region per item of ``rows``, each rendered by the macro
        ``block`` from the item's attributes (a dict's keys) named in
        ``fields`` (space-separated; the first one's value, after ``prefix``,
        is the region's id) and the ``common`` inputs, joined by ``sep``::

            {{ region.rows("play-", blocks.play, table.seats, "index name played") }}

        is ``{% for row in table.seats %}{{ region.block("play-" ~ row.index,
        blocks.play, index=row.index, name=row.name, played=row.played) }}{%
        endfor %}``: the same html and regions, each
        row kept as :meth:`block` keeps it, without the template's loop, its
        attribute reads and its calls through Jinja2's context around each
        row.  The inputs must be plain data, as a block's.

        ``shared`` names the rows every viewer of the version may see alike
        (``"seats"``: the table's seats as the view for no seat shows them,
        :func:`games.render.tables.shared_rows`), rendered once per version
        and language: a row whose inputs equal its shared row's (``==``: both
        built by the same code, types alike) is that row's region as
        rendered for all, a row that differs (a role only this viewer knows,
        a seat it may take) is rendered from this viewer's own inputs.  So the
        html a viewer gets is always its own inputs' render: the shared rows
        come from what everyone sees, never from another viewer.  When
        ``rows`` is the very tuple the shared rows were rendered from (the
        table's view took the public seats, :func:`games.render.tables.public_seats_for`)
        and ``common`` is theirs, every row is its shared row without
        building and comparing its inputs.  Outside a table render (no
        snapshot) every row is rendered as without it."""
        names = fields.split()
        public = self._shared_rows(shared, prefix, block, names, common) if (
            shared is not None and self._shared_rows is not None) else None
        if public is not None:
            source, public = public
            if rows is source and (not public or all(
                    public[0][0].get(key, _MISSING) == value for key, value in common.items())):
                first = names[0]
                record = self._record
                return Markup(sep.join([record(f"{prefix}{inputs[first]}", found) for inputs, found in public]))
        htmls = []
        for i, row in enumerate(rows):
            rid, values = row_inputs(prefix, row, names, common)
            if public is not None and i < len(public) and public[i][0] == values:
                found = public[i][1]
            else:
                found = kept_region(rid, block, values)
            htmls.append(self._record(rid, found))
        return Markup(sep.join(htmls))


class TableHtml(str):
    """A rendered ``#table`` fragment (the string) with its regions
    (``parts``, as :attr:`Regions.parts`)."""

    __slots__ = ("parts",)

    def __new__(cls, html: str, parts: dict):
        obj = super().__new__(cls, html)
        obj.parts = parts
        return obj


def stub(rid: str, tag: str, digest: str) -> str:
    """The stand-in of an unchanged region: keep the element ``rid`` whose
    ``data-h`` is ``digest``."""
    return f'<{tag} id="{rid}" data-keep="{digest}"></{tag}>'


def record(fragment: TableHtml) -> dict[str, str]:
    """What a socket has once ``fragment`` is applied: hash per region id."""
    return {rid: part[0] for rid, part in fragment.parts.items()}


def _locate(html: str, element: str, pos: int) -> int:
    """Where ``element`` (a region as rendered) starts in ``html`` at or after
    ``pos``, -1 if nowhere.  It is looked for by its opening tag, which names
    the region and its hash, and then compared whole: a search for the whole
    element (a needle of kilobytes) costs several times as much."""
    head = element[:element.find(">") + 1]
    start = html.find(head, pos)
    if start >= 0 and html.startswith(element, start):
        return start
    return html.find(element, pos)


def partial(fragment: TableHtml, sent: dict[str, str] | None) -> tuple[str, dict[str, str], int]:
    """``(message, record, kept)`` for a socket that has ``sent`` (the record of
    what it was sent last, None for nothing) and is to show ``fragment``:
    the fragment with every region whose hash is unchanged replaced by its
    :func:`stub` (``kept`` of them), or the whole fragment (``kept`` 0) when
    ``sent`` is None or no region is unchanged.
    ``record`` is what the socket has once the message is applied."""
    parts = fragment.parts
    new = {rid: part[0] for rid, part in parts.items()}
    if not sent or not parts:
        return str(fragment), new, 0
    keep = [rid for rid, digest in new.items() if sent.get(rid) == digest]
    if not keep:
        return str(fragment), new, 0
    html = str(fragment)
    kept = set(keep)
    out, pos = [], 0
    for rid, (digest, tag, element) in parts.items():  # in document order: one pass
        if rid not in kept:
            continue
        start = _locate(html, element, pos)
        if start < 0:  # (never: a region is in the output once, in order)
            return html, new, 0
        out.append(html[pos:start])
        out.append(stub(rid, tag, digest))
        pos = start + len(element)
    out.append(html[pos:])
    return "".join(out), new, len(keep)
