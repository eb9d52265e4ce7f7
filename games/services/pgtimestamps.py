"""PostgreSQL ``timestamptz`` values parsed by psycopg's C loader.

Django's PostgreSQL backend reads every ``timestamptz`` value through its own
loader (``django.db.backends.postgresql.psycopg_any.BaseTzLoader``), a
subclass of psycopg's *pure-Python* ``TimestamptzLoader`` (a regular
expression per value) that then sets the connection's ``timezone``: psycopg's
compiled implementation (``psycopg[binary]``/``psycopg[c]``) never sees those
values, since it replaces only the loaders psycopg registers itself.  A
snapshot read parses about twenty of them per table version, a worker's reads
more: about 3.3 µs each against about 1 µs for the C loader.

:func:`use_c_loader` (a ``connection_created`` receiver, connected by
``games.apps``) registers on each new PostgreSQL connection a loader that
parses with the C loader psycopg itself would use and then sets the same
``tzinfo`` Django's loader sets (``replace``, as Django does): the values are
the same ``datetime`` objects, equal and with the same ``tzinfo``
(``tests/site/test_pg_timestamps.py``).  It keeps Django's ``timezone``
attribute, which Django's ``create_cursor`` compares with the connection's
own before it registers a loader of its own on a cursor.  Without psycopg's C
implementation, or on another backend, it does nothing.

Registering goes through psycopg's public adapter API
(``connection.adapters.register_loader``, per connection: the adapters map
Django shares between its connections is not touched).
"""

from __future__ import annotations

import psycopg
from psycopg import adapt, postgres
from psycopg.pq import Format
from psycopg.types.datetime import TimestamptzLoader as _PythonLoader

#: The ``timestamptz`` type's OID.
TIMESTAMPTZ_OID = postgres.types["timestamptz"].oid

#: The text ``timestamptz`` loader psycopg's own adapters use: the C one when
#: psycopg's compiled implementation is installed, else its Python one.
_BASE = psycopg.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)

#: True when there is a faster loader to delegate to.
AVAILABLE = _BASE is not None and _BASE is not _PythonLoader

_CLASSES: dict = {}


class CTzLoader(adapt.Loader):
    """A text ``timestamptz`` loader parsing with psycopg's C loader, then
    setting :attr:`timezone` as ``tzinfo`` (None: a naive value), as Django's
    ``BaseTzLoader`` does."""

    #: The ``tzinfo`` of every value loaded (a subclass per zone, :func:`loader_for`).
    timezone = None

    def __init__(self, oid, context=None):
        super().__init__(oid, context)
        self._parse = _BASE(oid, context).load

    def load(self, data):
        """The value of ``data`` (PostgreSQL's text form), with :attr:`timezone`."""
        return self._parse(data).replace(tzinfo=self.timezone)


def loader_for(tz):
    """The :class:`CTzLoader` subclass whose :attr:`~CTzLoader.timezone` is
    ``tz`` (one class per zone, kept)."""
    cls = _CLASSES.get(tz)
    if cls is None:
        cls = _CLASSES[tz] = type("CTzLoader", (CTzLoader,), {"timezone": tz})
    return cls


def use_c_loader(sender, connection, **kwargs):
    """``connection_created`` receiver: on a PostgreSQL (psycopg 3) connection,
    read ``timestamptz`` values with :class:`CTzLoader` for the connection's
    timezone, unless it does already (a pooled connection checked out again)
    or psycopg's C implementation is missing."""
    if not AVAILABLE or connection.vendor != "postgresql":
        return
    raw = connection.connection
    adapters = getattr(raw, "adapters", None)
    if adapters is None:  # not a psycopg 3 connection
        return
    current = adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)
    tz = connection.timezone
    if current is not None and issubclass(current, CTzLoader) and current.timezone == tz:
        return
    adapters.register_loader(TIMESTAMPTZ_OID, loader_for(tz))
