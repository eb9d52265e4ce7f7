"""What the server's own move left a room at, for the room's next server turn (issue #12).

A bot or 托管 move (:func:`games.services.turns.play_turn`) reads the room,
its hand (with the action count) and its seats, takes the lock, inserts the
action and saves the deadline.  The next turn of the same room is, most of the
time, the next bot's, run by the same worker (worker-local turns,
:mod:`games.runtime.local_turns`) a bot delay later: it would read back exactly what
this process has just written.  So after such a move commits, the room as
locked and saved, the hand (``n_actions`` one more) and the seats are kept
here under the room's new version, and the next turn at that version takes
them instead of three queries.

Why this is exact: every change to a room, its hand or its seats bumps the
version (the one exception, a held hidden decision in ``Room.pending``, is
handled by the caller, which reads the room again whenever the decision due
is a hidden one), and the version check under the row lock
(:func:`games.services.frame.lock_room`) still decides: if anything changed
since, the kept version is stale, the bump matches no row, and nothing is
done.  Entries are kept only after the commit (``on_commit``), taken at most
once (a second task for the same version reads the database), and bounded
(:data:`KEEP_ROOMS`, oldest dropped).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.db import transaction

#: Rooms whose last server move this process keeps.
KEEP_ROOMS = 4096

_kept: OrderedDict[int, tuple] = OrderedDict()
_lock = threading.Lock()
#: Turns served from here and turns that read the database (tests, bench).
stats = {"hits": 0, "misses": 0}


def keep_on_commit(room, hand, seats: list, n_actions: int) -> None:
    """After the current transaction commits, keep ``(room, hand, seats)``
    for ``room``'s version (``room`` is the locked row, saved by the frame
    before the commit; ``hand.n_actions`` is set to ``n_actions`` then).
    Nothing is kept if the transaction rolls back."""

    def keep():
        hand.n_actions = n_actions
        with _lock:
            _kept[room.pk] = (room.version, room, hand, seats)
            _kept.move_to_end(room.pk)
            while len(_kept) > KEEP_ROOMS:
                _kept.popitem(last=False)

    transaction.on_commit(keep)


def take(room_id: int, version: int) -> tuple | None:
    """``(room, hand, seats)`` kept for ``room_id`` at exactly ``version``
    (removed: each entry serves one turn), else None."""
    with _lock:
        entry = _kept.get(room_id)
        if entry is not None and entry[0] <= version:
            del _kept[room_id]  # served now, or older than any turn still to come
    if entry is None or entry[0] != version:
        stats["misses"] += 1
        return None
    stats["hits"] += 1
    return entry[1:]


def forget(room_id: int | None = None) -> None:
    """Drop what is kept (of one room, or all: tests)."""
    with _lock:
        if room_id is None:
            _kept.clear()
        else:
            _kept.pop(room_id, None)
