"""The read model: a hand's engine state rebuilt from the database, cached.

A hand state is rebuilt from ``Hand.start`` + ``Hand.deal`` + the
``HandAction`` log through the engine (:func:`games.engine.get_rules`) and
cached in-process by ``(hand id, start, action count)``; a process that
follows a hand extends its newest cached state by the new actions only.
Nothing here writes to the database.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce

from ..engine import get_rules
from ..engine.base import Action
from ..models import Hand, HandAction, Room
from .prepared import Prepared

_CACHE_SIZE = 512
_cache: OrderedDict[tuple, Any] = OrderedDict()
_cache_lock = threading.Lock()
#: ``hand_key(hand)`` -> the largest action count whose state was cached.
_newest: OrderedDict[tuple, int] = OrderedDict()
#: States rebuilt / extended / served from the cache (tests, profiling).
cache_stats = {"rebuilt": 0, "extended": 0, "applied": 0, "hits": 0}


def _cache_get(key):
    with _cache_lock:
        value = _cache.get(key)
        if value is not None:
            _cache.move_to_end(key)
        return value


def cache_put(key, value) -> None:
    """Remember ``value`` (an engine state) under ``(*hand_key(hand), n)``
    (``n`` = -1 for the dealt state before any action)."""
    with _cache_lock:
        _cache[key] = value
        _cache.move_to_end(key)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
        prefix, count = key[:-1], key[-1]
        if count > _newest.get(prefix, -2):
            _newest[prefix] = count
            _newest.move_to_end(prefix)
            while len(_newest) > _CACHE_SIZE:
                _newest.popitem(last=False)


def _newest_cached(prefix: tuple, n: int) -> tuple[int, Any] | None:
    """``(m, state)``: the newest cached state of the hand ``prefix`` with
    ``m <= n`` actions (only the newest is tracked), or None."""
    with _cache_lock:
        m = _newest.get(prefix)
        if m is None or m > n:
            return None
        state = _cache.get((*prefix, m))
    return None if state is None else (m, state)


def hand_key(hand: Hand) -> tuple:
    """Cache key prefix of ``hand``: its id and its carry-in.  ``Hand.start``
    may be rewritten by a leaving settlement before the hand settled its
    carry-in, so a state cached by another process under the old carry-in is
    never used."""
    return (hand.id, json.dumps(hand.start, sort_keys=True))


def clear_cache() -> None:
    """Forget every cached state (tests; after an admin edits a hand)."""
    with _cache_lock:
        _cache.clear()
        _newest.clear()
        _completed.clear()


#: ``(match id, n)`` -> the match's completed hands 1..n (see :func:`completed_hands`).
_completed: OrderedDict[tuple, list] = OrderedDict()


def completed_hands(hand: Hand) -> list[Hand]:
    """The completed hands of ``hand``'s match in number order: hands
    1 .. ``hand.number`` (``hand`` included once it is complete; the hands of a
    match complete in order and a completed hand's row does not change).
    Cached in-process by ``(match id, last number)``: one query per match
    and completed hand per process, none for the other versions of a hand.
    The rows are shared: read them, do not change them."""
    n = hand.number if hand.complete else hand.number - 1
    key = (hand.match_id, n)
    with _cache_lock:
        rows = _completed.get(key)
        if rows is not None:
            _completed.move_to_end(key)
            return rows
    rows = [] if n <= 0 else list(
        Hand.objects.filter(match_id=hand.match_id, complete=True, number__lte=n).order_by("number"))
    with _cache_lock:
        _completed[key] = rows
        while len(_completed) > _CACHE_SIZE:
            _completed.popitem(last=False)
    return rows


def hand_match(hand: Hand):
    """The engine's match object before ``hand`` (its carry-in)."""
    rules = get_rules(hand.match.room.game)
    return rules.new_match(**hand.start)


def action_count(hand: Hand) -> int:
    """How many actions ``hand`` has stored."""
    return hand.actions.count()


def hand_state(
    hand: Hand,
    payloads: list[dict] | None = None,
    upto: int | None = None,
    count: int | None = None,
):
    """The engine state of ``hand`` after its first ``upto`` actions (all by
    default), rebuilt from the stored deal and log.

    ``payloads`` (the ordered ``HandAction.payload`` list) or ``count`` (the
    number of stored actions) may be passed to save a query.  Cached by
    ``(hand.id, hand.start, count)``: a hit costs no query beyond the count;
    on a miss the newest cached state of the hand with ``m < n`` actions is
    extended by applying only actions ``m .. n-1`` (one query for those
    rows), so a process that follows a hand pays O(new actions) per call, not
    O(n); only a process that has nothing cached (or asks for an earlier
    ``upto``) replays from the deal (the key also holds ``Hand.start``, see
    :func:`hand_key`).  Raises ``IllegalAction`` if the stored log is not legal
    (corrupted data).
    """
    if payloads is not None:
        total = len(payloads)
    elif count is not None:
        total = count
    else:
        total = action_count(hand)
    n = total if upto is None else max(0, min(upto, total))
    key = hand_key(hand)
    cached = _cache_get((*key, n))
    if cached is not None:
        cache_stats["hits"] += 1
        return cached
    rules = get_rules(hand.match.room.game)
    newest = _newest_cached(key, n) if n > 0 else None
    if newest is not None:
        m, state = newest
        if payloads is None:
            tail = [row[0] for row in _ACTIONS_TAIL.values(hand.pk, m, n)]
        else:
            tail = payloads[m:n]
        return _extended(hand, key, n, state, tail)
    else:
        cache_stats["rebuilt"] += 1
        if payloads is None:
            payloads = list(
                hand.actions.filter(seq__lt=n).order_by("seq").values_list("payload", flat=True)
            )
        start = _cache_get((*key, -1))
        if start is None:
            match = rules.new_match(**hand.start)
            start = rules.start_hand(match, rules.deal_from_record(match, hand.deal))
            cache_put((*key, -1), start)
        state = start
        for payload in payloads[:n]:
            state = rules.apply(state, Action.from_record(payload, rules.seats))
        cache_stats["applied"] += n
    cache_put((*key, n), state)
    return state


def extend_state(hand: Hand, state, count: int, payloads: list):
    """The engine state of ``hand`` after ``count + len(payloads)`` actions:
    ``state`` (its state after its first ``count`` actions, e.g. a kept table
    snapshot's) with ``payloads`` (the stored ``HandAction.payload`` of actions
    ``count ..``, in order) applied, without a query.  A state already cached
    under the new count is served instead; the result is cached like
    :func:`hand_state`'s (so a full read of the next version extends it).
    Raises ``IllegalAction`` if the stored actions are not legal."""
    n = count + len(payloads)
    key = hand_key(hand)
    cached = _cache_get((*key, n))
    if cached is not None:
        cache_stats["hits"] += 1
        return cached
    return _extended(hand, key, n, state, payloads)


def _extended(hand: Hand, key: tuple, n: int, state, tail):
    """``state`` with the stored payloads ``tail`` applied, cached under
    ``(*key, n)`` (``n``: the action count it reaches): the one extension
    of :func:`hand_state` and :func:`extend_state`."""
    rules = get_rules(hand.match.room.game)
    for payload in tail:
        state = rules.apply(state, Action.from_record(payload, rules.seats))
    cache_stats["extended"] += 1
    cache_stats["applied"] += len(tail)
    cache_put((*key, n), state)
    return state


def room_id(room: Room | int) -> int:
    """The primary key of ``room`` (a ``Room`` or already an id)."""
    return room if isinstance(room, int) else room.pk


def current_hand(room: Room | int) -> Hand | None:
    """The room's latest hand (in play, or the last completed one), or None."""
    return (
        Hand.objects.filter(match__room_id=room_id(room))
        .select_related("match", "match__room")
        .order_by("-id")  # hands are created in order
        .first()
    )


def _current_hand_counted_qs(room_pk):
    counted = (
        HandAction.objects.filter(hand=OuterRef("pk")).order_by()
        .values("hand").annotate(c=Count("pk")).values("c")
    )
    return (
        Hand.objects.filter(match__room_id=room_pk)
        .select_related("match", "match__room")
        .annotate(n_actions=Coalesce(Subquery(counted), 0))
        .order_by("-id")[:1]
    )


_CURRENT_HAND_COUNTED = Prepared("current hand counted", _current_hand_counted_qs)
_ACTIONS_TAIL = Prepared(
    "hand actions m..n",
    lambda hand_pk, m, n: HandAction.objects.filter(hand_id=hand_pk, seq__gte=m, seq__lt=n)
    .order_by("seq").values_list("payload"),
)


def current_hand_counted(room: Room | int) -> Hand | None:
    """:func:`current_hand` with its stored action count as ``n_actions``,
    in one query (the live table read, :func:`games.render.tables.table_snapshot`;
    its SQL compiled once per thread, :mod:`games.services.prepared`)."""
    return _CURRENT_HAND_COUNTED.first(room_id(room))


def by_seat(value: Any, seats: int) -> list[Any]:
    """A per-seat summary member (``{"0": x, …}`` or a list) as a list of
    ``seats`` values (0 for a missing seat)."""
    if isinstance(value, dict):
        return [value.get(str(i), value.get(i, 0)) for i in range(seats)]
    if isinstance(value, (list, tuple)):
        return list(value) + [0] * (seats - len(value))
    return [0] * seats
