"""The one in-process cache of a room's state, keyed by ``(room, version)``.

A room's version is bumped by every change to the room, its seats or its hand
(:func:`games.services.frame.locked_room`; a held hidden decision changes
nothing anyone can see and keeps its version, :func:`~games.services.frame.keep_quiet`),
so whatever was read or computed of a room at version N stays exact for as
long as the room is at N.  This module keeps, per room, only its newest
version seen by this process and, under it, one value per *kind*:

* ``"turn"``: what the server's own move left the room at (the room row as
  locked and saved, its hand with ``n_actions``, its seats), for the room's
  next server turn (:mod:`games.services.turncache`), taken at most once;
* ``"snapshot"``: the table snapshot the live layer reads once per version and
  process and renders for every socket (:mod:`games.live.snapshots`).

Putting a newer version drops everything kept of the older one; putting an
older one is ignored (unless ``replace``: a fresh database read).  At most
:data:`KEEP_ROOMS` rooms are kept, the least recently used dropped first.

The caches that are not per room version hang off the same reset: the hand
states (:mod:`games.services.readmodel`, keyed by hand and action count, shared
by every version of a hand) and, registered with :func:`on_reset` by the layers
above, the render's memo blocks (keyed by their content).  :func:`reset` is the
one call that forgets everything (tests; after an admin edits a hand).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable

from . import readmodel

#: Rooms kept by this process (each with its newest version's values).
KEEP_ROOMS = 4096

#: room id -> (version, {kind: value})
_rooms: OrderedDict[int, tuple[int, dict[str, Any]]] = OrderedDict()
_lock = threading.Lock()
_resets: list[Callable[[], None]] = []


def put(room_id: int, version: int, kind: str, value: Any, *, replace: bool = False) -> bool:
    """Keep ``value`` as ``kind`` of room ``room_id`` at ``version``.

    A newer version than the kept one replaces the room's entry (every kind
    of the older version is dropped); an older one is ignored and False is
    returned, unless ``replace`` (a value read from the database now, which
    is the truth whatever was kept)."""
    with _lock:
        entry = _rooms.get(room_id)
        if entry is None or entry[0] < version or (replace and entry[0] != version):
            entry = (version, {})
            _rooms[room_id] = entry
        elif entry[0] > version:
            return False
        entry[1][kind] = value
        _rooms.move_to_end(room_id)
        while len(_rooms) > KEEP_ROOMS:
            _rooms.popitem(last=False)
        return True


def newest(room_id: int, kind: str) -> tuple[int, Any] | None:
    """``(version, value)`` of ``kind`` kept at the room's newest version, or None."""
    with _lock:
        entry = _rooms.get(room_id)
        if entry is None or kind not in entry[1]:
            return None
        return entry[0], entry[1][kind]


def take(room_id: int, version: int, kind: str) -> Any | None:
    """The value of ``kind`` kept at exactly ``version``, removed (each serves
    once); a value kept at an older version is dropped too (no one will ask
    for it any more).  None when nothing matches."""
    with _lock:
        entry = _rooms.get(room_id)
        if entry is None or entry[0] > version or kind not in entry[1]:
            return None
        value = entry[1].pop(kind)
        return value if entry[0] == version else None


def forget(room_id: int | None = None) -> None:
    """Drop what is kept of one room (every kind), or of all rooms."""
    with _lock:
        if room_id is None:
            _rooms.clear()
        else:
            _rooms.pop(room_id, None)


def on_reset(forget_all: Callable[[], None]) -> None:
    """Register a cache of a layer above (e.g. the render's memo blocks) to be
    emptied by :func:`reset` (registered once per process, at import)."""
    if forget_all not in _resets:
        _resets.append(forget_all)


def reset() -> None:
    """Forget every cached room state in this process: the per-version
    entries, the hand states and the caches registered with :func:`on_reset`
    (tests between cases; after an admin edits a hand)."""
    forget()
    readmodel.clear_cache()
    for forget_all in list(_resets):
        forget_all()
