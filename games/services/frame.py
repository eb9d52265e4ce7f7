"""The one frame every command runs in: :func:`locked_room`.

``with locked_room(room_id, expected_version) as room:`` opens
``transaction.atomic()`` and as its first statement runs a conditional
``UPDATE room SET version = version + 1 WHERE id = … [AND version =
expected] RETURNING …`` (the fresh row comes back with the bump).  That statement both takes the row lock (PostgreSQL) or the write
lock (SQLite) and performs the optimistic version check: a second worker or a
doubled click that carries the same version finds zero rows and
:class:`StaleVersion` is raised (a command turns it into ``Outcome(applied=
False)`` with :func:`stale_outcome`).  Any exception inside the block (an
illegal action) rolls the bump back, so a refused action leaves the room
exactly as it was.

When the block ends normally the room's ``deadline`` and ``status`` are saved
and, after the commit, the ``room_committed`` signal (:mod:`games.signals`)
announces the new version: the live layer tells the room's sockets
(:mod:`games.live.notify`) and the runtime schedules the next turn for
``room.deadline`` (:mod:`games.runtime.scheduling`).  The services import
neither: the layers above connect their receivers in ``GamesConfig.ready``.
"""

from __future__ import annotations

import functools
import logging
from contextlib import contextmanager

from django.db import connections, transaction
from django.utils import timezone

from games import signals
from ..models import Room
from . import rows
from .errors import Outcome

log = logging.getLogger(__name__)


class StaleVersion(Exception):
    """The room is no longer at the version the caller saw (nothing changed)."""

    def __init__(self, room_id: int):
        super().__init__(room_id)
        self.room_id = room_id


def _listing(room: Room) -> tuple:
    """What a lobby's room list shows of ``room`` apart from its seats
    (``templates/games/_room_list.html``): name, multiplier, status."""
    return (room.name, room.multiplier, room.status)


def lock_room(room_id: int, expected_version: int | None) -> Room | None:
    """Inside an atomic block: bump the version (optionally only if it equals
    ``expected_version``) and return the fresh room, or None when stale.
    Raises ``Room.DoesNotExist`` for an unknown room."""
    now = timezone.now()
    if expected_version is not None and not -(2**63) <= expected_version < 2**63:
        # No row can hold it (a forged version): stale, as the ORM's own
        # out-of-range lookups answer; the raw UPDATE would raise OverflowError
        # on SQLite instead.
        room = None
    else:
        room = rows.fetch_one(Room, *_bump_sql(room_id, expected_version))
    if room is None:
        if not Room.objects.filter(pk=room_id).exists():
            raise Room.DoesNotExist(room_id)
        return None
    room._listed_before = _listing(room)
    room._changed_at = now
    return room


def _bump_sql(room_id: int, expected_version: int | None) -> tuple[str, list]:
    """``UPDATE room SET version = version + 1 WHERE id = …
    [AND version = expected] RETURNING *``: lock, check and read the fresh
    row in one statement (PostgreSQL; SQLite ≥ 3.35), one round trip fewer
    than an UPDATE followed by a SELECT.  ``changed`` is written by the
    frame's closing save (a quiet command, :func:`keep_quiet`, leaves it).
    The same statement clears ``claimed_until``: a changed room's turn runner
    lease is void (the next deadline is anyone's to claim,
    :mod:`games.runtime.runner`), at no extra statement."""
    connection = connections[Room.objects.db]
    checked = expected_version is not None
    key = (connection.alias, connection.vendor, checked)
    sql = _BUMP_SQL.get(key)
    if sql is None:  # built once per database and form
        qn = connection.ops.quote_name
        meta = Room._meta
        version = qn(meta.get_field("version").column)
        pk = qn(meta.pk.column)
        columns = ", ".join(qn(f.column) for f in meta.concrete_fields)
        claimed = qn(meta.get_field("claimed_until").column)
        sql = f"UPDATE {qn(meta.db_table)} SET {version} = {version} + 1, {claimed} = NULL WHERE {pk} = %s"
        if checked:
            sql += f" AND {version} = %s"
        sql = _BUMP_SQL[key] = sql + f" RETURNING {columns}"
    return sql, [room_id, expected_version] if checked else [room_id]


#: The version bump's SQL per (database alias, vendor, with the version check).
_BUMP_SQL: dict = {}


@contextmanager
def locked_room(room_id: int, expected_version: int | None = None, *, lobby: bool | None = None):
    """Run a command on room ``room_id`` under its lock (see the module).

    Yields the fresh ``Room`` (version already bumped).  ``expected_version``
    None skips the version check (owner commands that cannot be doubled
    harmfully).  Raises :class:`StaleVersion` when the version moved on and
    ``Room.DoesNotExist`` for an unknown room.  On a normal exit saves
    ``deadline``, ``status``, ``pending`` and ``changed`` in one UPDATE and
    registers :func:`after_commit` (``lobby`` as there), through
    :mod:`games.services.rows` (with a row of :func:`insert_on_close`: one
    statement on PostgreSQL); a body that called
    :func:`keep_quiet` instead restores the version and announces nothing.
    An exception from the body rolls everything back."""
    with transaction.atomic():
        room = lock_room(room_id, expected_version)
        if room is None:
            raise StaleVersion(room_id)
        yield room
        insert = room.__dict__.pop("_insert", None)
        if getattr(room, "_quiet", False):
            room.version -= 1
            if insert is not None:
                rows.insert(*insert)
            rows.update(room, _QUIET_FIELDS)
            return
        room.changed = room._changed_at
        if insert is not None:
            rows.insert_and_update(*insert, room, _CLOSING_FIELDS)
        else:
            rows.update(room, _CLOSING_FIELDS)
        after_commit(room, lobby)


#: What the frame's closing UPDATE writes (:func:`locked_room`), and a quiet one.
_CLOSING_FIELDS = ("deadline", "status", "pending", "changed")
_QUIET_FIELDS = ("version", "pending")


def insert_on_close(room: Room, model, values: dict) -> None:
    """Inside :func:`locked_room`: INSERT a ``model`` row (``values`` by
    attname, as :func:`games.services.rows.insert`) in the same transaction.

    Where it can be one statement with the closing UPDATE
    (:func:`games.services.rows.combines`: PostgreSQL, no receivers) it is
    sent with it when the block ends (a move's action row: one round trip
    fewer); otherwise it is inserted now.  Nothing in the block may read
    the row back before then.  Rolled back with the block, like any write."""
    if rows.combines(model, Room):
        room._insert = (model, values)
    else:
        rows.insert(model, values)


def keep_quiet(room: Room) -> None:
    """Inside :func:`locked_room`: end the command without a visible change.

    The version bump that took the lock is undone in the closing UPDATE, only
    ``Room.pending`` is written, and nothing is announced (no
    ``room_committed``): what a socket, a page or a POST of anyone else sees
    (``data-version``, ``committed_at``, the deadline) stays exactly as it
    was.  Used by a held hidden decision (:mod:`games.services.hidden`): a
    version bump there would show every seat, in ``data-version``, that the
    holder of the hidden role is a human who has chosen."""
    room._quiet = True


def stale_outcome(room_id: int) -> Outcome:
    """``Outcome(False, current version, "stale")``: nothing was done."""
    return Outcome(False, Room.objects.get(pk=room_id).version, "stale")


def after_commit(room: Room, lobby: bool | None = None) -> None:
    """Announce the room's final state after the commit (``room_committed``).

    ``lobby``: whether the lobby's room list changed too (its group is then
    told as well, and every lobby socket re-renders the list).  True for the
    services that change seats; None (the default) compares the room's name,
    multiplier and status with what :func:`lock_room` read, so a plain play,
    托管 or a ready click that deals nothing leaves the lobby alone."""
    if lobby is None:
        lobby = _listing(room) != getattr(room, "_listed_before", None)
    room_id, version, game, deadline = room.pk, room.version, room.game, room.deadline

    def run():
        signals.send_room_committed(game, room_id=room_id, version=version, deadline=deadline,
                                    lobby=lobby)

    transaction.on_commit(run)


def versioned(command):
    """Decorate a command whose body runs in :func:`locked_room`: a
    :class:`StaleVersion` becomes ``Outcome(False, current version,
    "stale")`` (nothing changed)."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except StaleVersion as exc:
            return stale_outcome(exc.room_id)

    return wrapper
