"""What the server's own move left a room at, for the room's next server turn.

A bot or 托管 move (:func:`games.services.turns.play_turn`) reads the room,
its hand (with the action count) and its seats, takes the lock, inserts the
action and saves the deadline.  The next turn of the same room is, most of the
time, the next bot's, run by the same process's turn runner
(:mod:`games.runtime.runner`) a bot delay later: it would read back exactly what
this process has just written.  So after such a move commits, the room as
locked and saved, the hand (``n_actions`` one more) and the seats are kept
here under the room's new version, and the next turn at that version takes
them instead of three queries.

Why this is exact: every change to a room, its hand or its seats bumps the
version (a held hidden decision in ``Room.pending`` keeps the visible
version, so a move that leads into a decision that may be held is not kept
at all: that turn reads the room from the database), and the version check under the row lock
(:func:`games.services.frame.lock_room`) still decides: if anything changed
since, the kept version is stale, the bump matches no row, and nothing is
done.  Entries are kept only after the commit (``on_commit``), taken at most
once (a second task for the same version reads the database), in the one
room-state cache (:mod:`games.services.roomcache`, bounded, oldest dropped).
"""

from __future__ import annotations

from django.db import transaction

from . import roomcache

#: The kind of entry this module keeps in :mod:`games.services.roomcache`.
KIND = "turn"
#: Turns served from here and turns that read the database (tests, bench).
stats = {"hits": 0, "misses": 0}


def keep_on_commit(room, hand, seats: list, n_actions: int) -> None:
    """After the current transaction commits, keep ``(room, hand, seats)``
    for ``room``'s version in the room-state cache
    (:mod:`games.services.roomcache`; ``room`` is the locked row, saved by the
    frame before the commit; ``hand.n_actions`` is set to ``n_actions`` then).
    Nothing is kept if the transaction rolls back."""

    def keep():
        hand.n_actions = n_actions
        roomcache.put(room.pk, room.version, KIND, (room, hand, seats))

    transaction.on_commit(keep)


def kept_version(room_id: int) -> int | None:
    """The version at which a turn of ``room_id`` is kept, or None (tests)."""
    newest = roomcache.newest(room_id, KIND)
    return None if newest is None else newest[0]


def take(room_id: int, version: int) -> tuple | None:
    """``(room, hand, seats)`` kept for ``room_id`` at exactly ``version``
    (removed: each entry serves one turn), else None."""
    entry = roomcache.take(room_id, version, KIND)
    if entry is None:
        stats["misses"] += 1
        return None
    stats["hits"] += 1
    return entry


def forget(room_id: int | None = None) -> None:
    """Drop what is kept of one room (every kind of its entry), or all (tests)."""
    roomcache.forget(room_id)
