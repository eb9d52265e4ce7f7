"""Embargoes: another app may hide a completed hand's cards for a while.

A duplicate board of a club event is the same deal at several
tables; until every table that plays it has finished it (or its round has
ended), its record, replay, review and anything else that shows its cards must
be refused to everyone but admins.  The games app does not know about events:
apps register a *guard* at start-up (``AppConfig.ready``), an object with

``hand_embargo(hand, user) -> str | None``
    None: nothing of this app's hides ``hand`` from ``user``; otherwise a
    sentence (translated, for the page) saying why the hand is hidden and until
    when.

:func:`embargo_reason` asks every guard; the first sentence wins.  Admins
(``user.is_staff``) are never refused.  Nothing here names a game or an app.

Example::

    reason = embargo.embargo_reason(hand, request.user)
    if reason:
        raise PermissionDenied(reason)  # templates/403.html prints the sentence escaped
"""

from __future__ import annotations

from hooks import Hooks
from django.utils.translation import gettext as _
from .models import Hand
from django.db.models import BooleanField, ExpressionWrapper, OuterRef, Q

#: The apps' guards (the site's one way to ask the apps above: hooks/__init__.py).
_guards = Hooks("embargo")


def register(guard) -> None:
    """Add ``guard`` (once): an object with ``hand_embargo(hand, user)``."""
    _guards.add(guard)


def embargo_reason(hand, user) -> str | None:
    """Why ``hand`` (a ``games.models.Hand``) is hidden from ``user`` (a user
    or ``AnonymousUser``), or None when its cards may be shown.  Staff users
    always get None."""
    if getattr(user, "is_staff", False):
        return None
    return _guards.reason("hand_embargo", hand, user)


def is_embargoed(hand, user) -> bool:
    """``embargo_reason(hand, user) is not None``."""
    return embargo_reason(hand, user) is not None


# --------------------------------------------------------------------------- watching a table
#
# The same guards may also answer about *watching* a room (an
# entrant may not spectate another table of the running round while it plays
# boards the entrant has not finished; whether anonymous visitors may watch is
# a club's setting).  Both methods are optional on a guard:
#
# ``room_watch(room, user) -> str | None``
#     a sentence when ``user`` (signed in, not seated at ``room``) may not
#     watch ``room`` now, else None.
# ``anonymous_watch(room) -> bool | None``
#     True: visitors who are not signed in may watch ``room``; False: they may
#     not (then ``room_watch(room, AnonymousUser)`` gives the sentence); None:
#     not this guard's room (the site's usual rule applies: sign in first).
# ``room_watches(room, users, hand) -> dict``
#     the batch form (:func:`watch_reasons`): every user's sentence or None in
#     a few queries, whatever the number of users, decided from the room
#     version whose latest hand is ``hand``.


def watch_reason(room, user) -> str | None:
    """Why ``user`` may not watch ``room`` (a ``games.models.Room``) now, or
    None.  Staff users always get None; a user seated at the room is not
    asked about (callers check the seat first)."""
    if getattr(user, "is_staff", False):
        return None
    return _guards.reason("room_watch", room, user)


#: :func:`watch_reasons`' default ``hand``: decide from the database as it is now.
NOW = object()


def watcher_key(user) -> int | None:
    """The key of ``user`` in :func:`watch_reasons`' answer: the user's id,
    None for a visitor who is not signed in (``AnonymousUser`` or None)."""
    if user is None or not user.is_authenticated:
        return None
    return user.pk


def watch_reasons(room, users, hand=NOW) -> dict[int | None, str | None]:
    """Why each of ``users`` may not watch ``room`` (a ``games.models.Room``),
    decided for all of them at once: ``{watcher_key(user): sentence or None}``
    with a key for every user (visitors who are not signed in share the key
    None).  The batch form of :func:`watch_reason` for the live table's
    spectators (:func:`games.live.snapshots.watch_verdicts`: once per room
    version, whatever the number of spectators).

    ``hand``: the room's latest hand in the version the caller is about to
    show (a ``games.models.Hand``; None when that version has no hand yet), so
    that a rule about the boards a table has dealt decides from exactly that
    version; :data:`NOW` (the default): from the database as it is now.

    Staff users get None; users seated at the room are not asked about
    (callers check the seat first).  A visitor is refused unless some guard
    knows the room and lets visitors watch it (:func:`anonymous_watch`; then
    the sentence "sign in first" when no guard says more).

    A guard answers with the optional method
    ``room_watches(room, users, hand) -> dict`` (signed-in users without a
    key: None; the key None present exactly when the guard knows the room as
    far as visitors go, with its sentence or None), otherwise user by user
    with ``room_watch`` and ``anonymous_watch`` (then ``hand`` is not used:
    those decide from the database now)."""

    out: dict[int | None, str | None] = {}
    asked = []
    for user in users:
        key = watcher_key(user)
        if key in out:
            continue
        out[key] = None
        if not getattr(user, "is_staff", False):
            asked.append(user)
    if not asked:
        return out
    visitors_known = False
    for guard in _guards:
        batch = getattr(guard, "room_watches", None)
        answer = batch(room, asked, hand) if batch is not None else _one_by_one(guard, room, asked)
        if None in answer:
            visitors_known = True
        for key, reason in answer.items():
            if reason and key in out and not out[key]:
                out[key] = reason
    if None in out and not visitors_known and not out[None]:
        out[None] = _("请先登录")
    return out


def _one_by_one(guard, room, users) -> dict:
    """A guard's ``room_watches`` answer for a guard without it: each
    signed-in user through ``room_watch``; visitors through
    ``anonymous_watch`` (absent when it does not know the room) and then
    ``room_watch`` (a visitor it refuses without a sentence: "sign in first")."""

    ask = getattr(guard, "room_watch", None)
    answer: dict = {}
    for user in users:
        key = watcher_key(user)
        if key is None:
            visitors = getattr(guard, "anonymous_watch", None)
            verdict = visitors(room) if visitors is not None else None
            if verdict is None:
                continue
            reason = ask(room, user) if ask is not None else None
            answer[None] = reason or (None if verdict else _("请先登录"))
        else:
            answer[key] = ask(room, user) if ask is not None else None
    return answer


def anonymous_watch(room) -> bool | None:
    """The first guard's verdict on visitors who are not signed in watching
    ``room``: True (they may), False (they may not; :func:`watch_reason` says
    why), None (no guard knows the room: they must sign in)."""
    return _guards.first("anonymous_watch", room)


def players_only(room):
    """A sentence (translated lazily) when a guard shows ``room``'s finished
    hands only to the users who played them (a guard's optional
    ``players_only(room) -> sentence or None``), else None: the table then
    leaves out, for each viewer, the links to the hands that viewer did not
    play, saying why (``games.render.tables.hidden_links``), with no query
    per viewer."""
    return _guards.reason("players_only", room)


def hidden_hands(hand_ids, user) -> set[int]:
    """The ids among ``hand_ids`` whose completed hand is embargoed for
    ``user`` (pages that only link to hands, e.g. a profile's recent hands,
    leave those links out).  A guard may answer for many hands at once with
    ``hands_embargoed(hands, user) -> set of hand ids`` (optional; otherwise
    each hand is asked about with ``hand_embargo``).  Staff: empty."""
    ids = {int(i) for i in hand_ids if i}
    if not ids or not _guards or getattr(user, "is_staff", False):
        return set()

    hands = list(Hand.objects.filter(pk__in=ids, complete=True).select_related("match"))
    out: set[int] = set()
    for guard in _guards:
        batch = getattr(guard, "hands_embargoed", None)
        if batch is not None:
            out |= set(batch(hands, user))
        else:
            out |= {h.pk for h in hands if guard.hand_embargo(h, user)}
    return out


# --------------------------------------------------------------------------- the live table
#
# The table fragment links to its completed hands (the result panel's replay
# and record, the score sheet's replay per hand).  It is rendered per viewer
# from one snapshot per room version that makes no query per viewer
# (games/live/snapshots.py), so the embargo is asked once per snapshot, for
# every viewer but admins alike.  Two optional methods of a guard:
#
# ``room_flag(room_id) -> SQL boolean expression``
#     True for the rooms whose hands the guard may hide (``room_id`` is an
#     ``OuterRef`` to the room's id); read with the room's seats, so rooms it
#     is False for cost nothing more.
# ``room_hidden_hands(room, hand_ids) -> set of hand ids``
#     the ids among ``hand_ids`` (hands of ``room``) hidden from every user
#     but admins now; asked only for a room whose flag is True.  A guard whose
#     ``hand_embargo`` depends on the user must not have these methods.


def room_flag(room_id):
    """The guards' ``room_flag`` expressions for the room ``room_id`` (an
    ``OuterRef``) joined with OR, or None when no guard has one (then no
    room's table hides a link)."""
    flags = _guards.answers("room_flag", room_id)
    if len(flags) < 2:
        return flags[0] if flags else None

    either = Q(flags[0])
    for flag in flags[1:]:
        either |= Q(flag)
    return ExpressionWrapper(either, output_field=BooleanField())


def annotate_seats(seats):
    """A queryset of ``Seat`` rows with ``embargo_room`` (bool) annotated from
    :func:`room_flag` on their room (unchanged when no guard has a flag)."""

    flag = room_flag(OuterRef("room_id"))
    return seats if flag is None else seats.annotate(embargo_room=flag)


def room_hidden_hands(room, hand_ids) -> frozenset[int]:
    """The ids among ``hand_ids`` (hands of ``room``) hidden now from every
    user but admins (the union of the guards' ``room_hidden_hands``).  Ask
    only for a room whose :func:`room_flag` is True; admins see every link
    (the caller checks ``is_staff``)."""
    ids = [int(i) for i in hand_ids if i]
    out: set[int] = set()
    if not ids:
        return frozenset()
    for hidden in _guards.answers("room_hidden_hands", room, ids):
        out |= set(hidden)
    return frozenset(out)
