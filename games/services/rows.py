"""A move's writes as plain SQL: the room's lock, the action's INSERT, the room's closing UPDATE.

Every move (:func:`games.services.do_move`) is three writes: the version
bump that locks the room and returns it (:func:`fetch_one`), the
``HandAction`` row and the frame's closing UPDATE of the room (deadline,
status, pending, changed; :func:`games.services.frame.locked_room`).  Through
the ORM (``raw()``, ``objects.create``, ``save(update_fields=…)``) each
builds its query machinery, model instance and signals again: most of the Python
of a bot's turn in the worker (about 2,580 Python calls per kept bot turn,
about 1,220 with this module; CPU per bot turn 2.1–2.8 → 1.3–1.5 ms, per
player move 2.9–4.0 → 2.2–2.5 ms in ``scripts/move_cpu.py``; docs/performance.md,
"Session 23, part: a move's writes").  Here the SQL is built once per model,
field list and database vendor, and only the values are prepared per call,
with Django's own machinery, so every backend gets what the ORM would send:

* parameters: ``field.pre_save`` (``auto_now``/``auto_now_add``, as the ORM)
  then ``field.get_db_prep_save(value, connection)`` (a JSON adapter on
  PostgreSQL, an ISO string for a datetime on SQLite …);
* returned values: the backend's converters and the field's
  ``from_db_value`` (``connection.ops.get_db_converters``,
  ``Col.get_db_converters``), as the compiler applies them.

On PostgreSQL :func:`insert_and_update` sends both writes as one statement,
a data-modifying CTE (``WITH ins AS (INSERT … RETURNING id) UPDATE …
RETURNING (SELECT id FROM ins)``): one round trip fewer per move (a player's
POST 7 → 6 statements, a bot's turn 5 → 4, a kept bot turn 3 → 2).  SQLite
(the embedded topology) sends the two statements one after the other.

**Fallback**: whenever a ``pre_save``, ``post_save`` or ``post_init``
receiver listens on a model written here, that write goes through the ORM
instead (signals are never skipped; :func:`fetch_one` builds its instance
with ``Model.from_db``, which sends ``post_init`` itself).  Nothing here checks versions: the
caller runs inside :func:`~games.services.frame.locked_room`, whose
conditional ``UPDATE … WHERE version = N`` stays the concurrency check.
"""

from __future__ import annotations

from types import SimpleNamespace

from django.db import DatabaseError, connections, router
from django.db.models import signals

#: Compiled SQL per (alias, vendor, kind, model, fields).
_SQL: dict = {}


def plain(*models) -> bool:
    """True when no ``pre_save``/``post_save``/``post_init`` receiver listens
    on any of ``models`` (then raw SQL skips nothing)."""
    return not any(
        sig.has_listeners(model)
        for model in models
        for sig in (signals.pre_save, signals.post_save, signals.post_init)
    )


def combines(model, other) -> bool:
    """Whether :func:`insert_and_update` of ``model`` and ``other`` will be
    one statement (PostgreSQL, no receivers); otherwise the caller may as
    well insert at once (same statements, same order as before)."""
    alias = router.db_for_write(model)
    return connections[alias].vendor == "postgresql" and plain(model, other)


def _qn(connection):
    return connection.ops.quote_name


def _insert_parts(model, connection) -> tuple[list, str]:
    """(fields inserted, ``INSERT INTO t (…) VALUES (…) RETURNING pk``)."""
    key = (connection.alias, connection.vendor, "insert", model)
    found = _SQL.get(key)
    if found is None:
        qn = _qn(connection)
        meta = model._meta
        fields = [f for f in meta.local_concrete_fields if f is not meta.auto_field]
        sql = "INSERT INTO {} ({}) VALUES ({}) RETURNING {}".format(
            qn(meta.db_table), ", ".join(qn(f.column) for f in fields),
            ", ".join(["%s"] * len(fields)), qn(meta.pk.column))
        found = _SQL[key] = (fields, sql)
    return found


def _update_parts(model, names: tuple, connection) -> tuple[list, str]:
    """(fields set, ``UPDATE t SET a = %s, … WHERE pk = %s``)."""
    key = (connection.alias, connection.vendor, "update", model, names)
    found = _SQL.get(key)
    if found is None:
        qn = _qn(connection)
        meta = model._meta
        fields = [meta.get_field(n) for n in names]
        sql = "UPDATE {} SET {} WHERE {} = %s".format(
            qn(meta.db_table), ", ".join(f"{qn(f.column)} = %s" for f in fields), qn(meta.pk.column))
        found = _SQL[key] = (fields, sql)
    return found


def _insert_params(model, fields: list, values: dict, connection) -> list:
    """The INSERT's parameters: ``values`` by attname, the field's default
    for the rest, each through ``pre_save(add=True)`` and ``get_db_prep_save``."""
    row = SimpleNamespace(**{f.attname: values[f.attname] if f.attname in values else f.get_default()
                             for f in fields})
    return [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]


def _update_params(obj, fields: list, connection) -> list:
    params = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields]
    params.append(obj._meta.pk.get_db_prep_value(obj.pk, connection))
    return params


def _convert(field, value, connection):
    """``value`` as read from the database for ``field``, through the
    backend's and the field's converters (what the compiler applies)."""
    col = field.get_col(field.model._meta.db_table)
    for converter in connection.ops.get_db_converters(col) + col.get_db_converters(connection):
        value = converter(value, col, connection)
    return value


def _converters(model, connection) -> list:
    """Per concrete field of ``model``, in order: ``(index, col, [converter, …])``
    for the fields whose database values need converting."""
    key = (connection.alias, connection.vendor, "read", model)
    found = _SQL.get(key)
    if found is None:
        found = []
        for i, field in enumerate(model._meta.concrete_fields):
            col = field.get_col(model._meta.db_table)
            funcs = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            if funcs:
                found.append((i, col, funcs))
        _SQL[key] = found
    return found


def fetch_one(model, sql: str, params: list):
    """Run ``sql`` (a statement ``RETURNING`` every concrete column of
    ``model``, in ``_meta.concrete_fields`` order) and return its first row
    as a ``model`` instance (``Model.from_db``, values through the backend's
    and the fields' converters, as a queryset reads them), or None when it
    returned no row.  ``post_init`` receivers run (``from_db`` builds the
    instance the ORM's way)."""
    connection = connections[router.db_for_write(model)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    row = list(row)
    for i, col, funcs in _converters(model, connection):
        for converter in funcs:
            row[i] = converter(row[i], col, connection)
    return model.from_db(connection.alias, None, row)


def insert(model, values: dict):
    """INSERT one ``model`` row; ``values`` by attname (``{"hand_id": 3, …}``),
    defaults and ``auto_now_add`` filled as the ORM does.  Returns the new
    primary key (converted).  With receivers: ``model.objects.create``."""
    if not plain(model):
        return model.objects.create(**values).pk
    connection = connections[router.db_for_write(model)]
    fields, sql = _insert_parts(model, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, _insert_params(model, fields, values, connection))
        pk = cursor.fetchone()[0]
    return _convert(model._meta.pk, pk, connection)


def update(obj, update_fields) -> None:
    """``obj.save(update_fields=…)`` for a saved row: one UPDATE by primary
    key (``auto_now`` fields set as the ORM does).  Raises ``DatabaseError``
    when no row matched (as the ORM does).  With receivers: ``obj.save``."""
    model = type(obj)
    if not plain(model):
        obj.save(update_fields=update_fields)
        return
    connection = connections[router.db_for_write(model)]
    fields, sql = _update_parts(model, tuple(update_fields), connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, _update_params(obj, fields, connection))
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")


def insert_and_update(model, values: dict, obj, update_fields):
    """:func:`insert` a ``model`` row, then :func:`update` ``obj``: one
    statement on PostgreSQL (:func:`combines`), two otherwise.  Returns the
    new row's primary key.  Raises ``DatabaseError`` when ``obj``'s row is
    gone (then nothing is inserted either: the transaction rolls back)."""
    if not combines(model, type(obj)):
        pk = insert(model, values)
        update(obj, update_fields)
        return pk
    connection = connections[router.db_for_write(model)]
    key = (connection.alias, connection.vendor, "insert+update", model, type(obj), tuple(update_fields))
    found = _SQL.get(key)
    if found is None:
        ins_fields, ins_sql = _insert_parts(model, connection)
        upd_fields, upd_sql = _update_parts(type(obj), tuple(update_fields), connection)
        pk = _qn(connection)(model._meta.pk.column)
        sql = f"WITH ins AS ({ins_sql}) {upd_sql} RETURNING (SELECT {pk} FROM ins)"
        found = _SQL[key] = (ins_fields, upd_fields, sql)
    ins_fields, upd_fields, sql = found
    params = _insert_params(model, ins_fields, values, connection) + _update_params(obj, upd_fields, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        raise DatabaseError("Save with update_fields did not affect any rows.")
    return _convert(model._meta.pk, row[0], connection)
