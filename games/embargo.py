"""Embargoes: another app may hide a completed hand's cards for a while.

A duplicate board of a club event (issue #21) is the same deal at several
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
        return HttpResponseForbidden(reason)
"""

from __future__ import annotations

_guards: list = []


def register(guard) -> None:
    """Add ``guard`` (once): an object with ``hand_embargo(hand, user)``."""
    if guard not in _guards:
        _guards.append(guard)


def embargo_reason(hand, user) -> str | None:
    """Why ``hand`` (a ``games.models.Hand``) is hidden from ``user`` (a user
    or ``AnonymousUser``), or None when its cards may be shown.  Staff users
    always get None."""
    if getattr(user, "is_staff", False):
        return None
    for guard in _guards:
        reason = guard.hand_embargo(hand, user)
        if reason:
            return reason
    return None


def is_embargoed(hand, user) -> bool:
    """``embargo_reason(hand, user) is not None``."""
    return embargo_reason(hand, user) is not None
