"""Querysets compiled to SQL once per thread and run again with new parameters.

Django builds and compiles a queryset's SQL on every evaluation: for the
three small reads behind every live table version (:mod:`games.live.snapshots`) that
was two thirds of the read's CPU, more than PostgreSQL's own work.  A
:class:`Prepared` query is written as an ordinary queryset, built once with a
*sentinel* in place of each parameter; its compiled SQL is kept (per thread
and database alias, so the compiler's connection is always the calling
thread's own) and each later call only swaps the sentinels for the values,
executes, and turns the rows into model instances with Django's own
converters and related-object populators, as ``ModelIterable`` does.

    >>> seats = Prepared("seats", lambda room: Seat.objects.filter(room_id=room)
    ...                  .select_related("user").order_by("index"))  # doctest: +SKIP
    >>> seats.objects(room.pk)  # [Seat, …], each with .user joined  # doctest: +SKIP

The query must be the same shape for every value (no branching on the value
in ``build``); every parameter must be passed through (a sentinel that does
not show up in the compiled parameters raises ``ValueError`` at the first
call, rather than silently running the sentinel's query).
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models.query import ModelIterable, get_related_populators

#: Sentinel parameter values: integers inside every integer column's range
#: (Django turns a lookup with an out-of-range value into an empty result
#: before any SQL is made) and unlike any constant a query carries.
_SENTINEL_BASE = 2_147_036_411


class _Compiled:
    """One thread's compiled form of a :class:`Prepared` query."""

    __slots__ = ("sql", "params", "slots", "compiler", "converters", "klass_info",
                 "select", "init_list", "start", "end", "populators", "annotations", "db")

    def __init__(self, queryset, sentinels: tuple, db: str):
        models = queryset._iterable_class is ModelIterable  # not a values()/values_list() query
        compiler = queryset.query.get_compiler(using=db)
        sql, params = compiler.as_sql()
        params = list(params)
        slots = []
        for i, sentinel in enumerate(sentinels):
            where = [k for k, p in enumerate(params) if p == sentinel]
            if not where:
                raise ValueError(f"parameter {i} of the prepared query is not in its SQL parameters")
            slots.extend((k, i) for k in where)
        self.sql, self.params, self.slots, self.db = sql, params, slots, db
        self.compiler = compiler
        self.select = compiler.select
        fields = [s[0] for s in compiler.select[0:compiler.col_count]]
        self.converters = compiler.get_converters(fields)
        self.klass_info = compiler.klass_info if models else None
        self.annotations = compiler.annotation_col_map
        if self.klass_info is not None:
            select_fields = self.klass_info["select_fields"]
            self.start, self.end = select_fields[0], select_fields[-1] + 1
            self.init_list = [f[0].target.attname for f in self.select[self.start:self.end]]
            self.populators = get_related_populators(self.klass_info, self.select, db)

    def fetch(self, values: tuple) -> list:
        """The rows for ``values`` as the database driver returns them (not converted)."""
        params = list(self.params)
        for k, i in self.slots:
            params[k] = values[i]
        with connections[self.db].cursor() as cursor:
            cursor.execute(self.sql, params)
            return cursor.fetchall()

    def rows(self, values: tuple) -> list:
        fetched = self.fetch(values)
        if self.converters:
            fetched = list(self.compiler.apply_converters(fetched, self.converters))
        return fetched

    def convert(self, row, positions) -> list:
        """The values of the fetched ``row`` at ``positions``, each through the
        converters the compiler applies to its column (what :meth:`rows` gives)."""
        connection = self.compiler.connection
        out = []
        for pos in positions:
            value = row[pos]
            found = self.converters.get(pos)
            if found is not None:
                convs, expression = found
                for converter in convs:
                    value = converter(value, expression, connection)
            out.append(value)
        return out


class Prepared:
    """A queryset built by ``build(*params)`` and compiled once per thread.

    ``name`` is for errors and repr; ``build`` must return a queryset of the
    same shape whatever its arguments (it is called once per thread, with
    sentinel values).  ``objects(*values)``: model instances with
    ``select_related`` objects and annotations set; ``values(*values)``: the
    rows as tuples (for a ``values_list`` queryset); ``fetch(*values)``: the
    rows unconverted, for a caller that converts and builds only what it needs
    (:class:`Fetched`)."""

    def __init__(self, name: str, build: Callable[..., Any], using: str = DEFAULT_DB_ALIAS):
        self.name = name
        self.build = build
        self.using = using
        self._local = threading.local()

    def __repr__(self) -> str:
        return f"<Prepared {self.name}>"

    def _compiled(self, nparams: int) -> _Compiled:
        compiled = getattr(self._local, "compiled", None)
        # A new connection wrapper (tests override settings) compiles again.
        if compiled is None or compiled.compiler.connection is not connections[self.using]:
            sentinels = tuple(_SENTINEL_BASE - 7 * i for i in range(nparams))
            compiled = _Compiled(self.build(*sentinels), sentinels, self.using)
            self._local.compiled = compiled
        return compiled

    def values(self, *values) -> list[tuple]:
        """Rows of the compiled query for ``values`` (tuples, converted)."""
        return [tuple(r) for r in self._compiled(len(values)).rows(values)]

    def objects(self, *values) -> list:
        """Model instances of the compiled query for ``values``."""
        compiled = self._compiled(len(values))
        if compiled.klass_info is None:
            raise TypeError(f"{self.name}: not a model queryset")
        model = compiled.klass_info["model"]
        out = []
        for row in compiled.rows(values):
            obj = model.from_db(compiled.db, compiled.init_list, row[compiled.start:compiled.end])
            for populator in compiled.populators:
                populator.populate(row, obj)
            for attr, col in (compiled.annotations or {}).items():
                setattr(obj, attr, row[col])
            out.append(obj)
        return out

    def fetch(self, *values) -> "Fetched":
        """The rows of the compiled query for ``values`` unconverted, for a
        caller that needs only some columns of some rows (:class:`Fetched`:
        convert a row's columns, build a ``select_related`` object from one row)."""
        compiled = self._compiled(len(values))
        return Fetched(compiled, compiled.fetch(values))

    def first(self, *values):
        """The first model instance of :meth:`objects`, or None."""
        found = self.objects(*values)
        return found[0] if found else None


class Fetched:
    """The unconverted rows of one run of a :class:`Prepared` query
    (:meth:`Prepared.fetch`), with what turns parts of them into what
    :meth:`Prepared.objects` would have built: ``rows`` (driver tuples),
    :meth:`columns` (a model query's own columns by attribute name),
    :meth:`annotation` (an annotation's position), :meth:`convert` (values
    at positions, converted) and :meth:`related` (a ``select_related``
    object built from one row)."""

    __slots__ = ("_compiled", "rows")

    def __init__(self, compiled: _Compiled, rows: list):
        self._compiled = compiled
        self.rows = rows

    def columns(self) -> tuple[list[str], range]:
        """The model's own attribute names and their positions in a row."""
        c = self._compiled
        return c.init_list, range(c.start, c.end)

    def annotation(self, name: str) -> int:
        """The position of annotation ``name`` in a row."""
        return self._compiled.annotations[name]

    def convert(self, row, positions) -> list:
        """The values of ``row`` at ``positions``, converted as :meth:`Prepared.objects` would."""
        return self._compiled.convert(row, positions)

    def related(self, row, index: int = 0):
        """The ``select_related`` object of populator ``index`` (the query's
        first joined model by default) built from ``row``, as
        :meth:`Prepared.objects` builds it (None for a null join)."""
        c = self._compiled
        populator = c.populators[index]
        if populator.reorder_for_init:
            data = populator.reorder_for_init(self.convert(row, range(len(row))))
        else:
            data = self.convert(row, range(populator.cols_start, populator.cols_end))
        if data[populator.pk_idx] is None:
            return None
        return populator.model_cls.from_db(c.db, populator.init_list, data)
