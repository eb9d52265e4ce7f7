"""Who may do what in a club: django-rules predicates and permissions.

Permissions are per object (``user.has_perm("clubs.manage_club", club)``),
checked through ``rules.permissions.ObjectPermissionBackend``:

=======================  ============================================
``clubs.view_club``      anyone (the club page is public)
``clubs.join_club``      a signed-in user who is not a member yet
``clubs.manage_club``    an organiser of that club (edit, join code,
                         members, organisers, events)
``clubs.manage_event``   an organiser of the event's club
``clubs.enter_event``    a member of the event's club
=======================  ============================================

An organiser of club A is nobody in club B: every predicate looks at the
membership of the club in question only.
"""

from __future__ import annotations

import rules


def _club(obj):
    """The club of ``obj`` (a Club, or anything with a ``club`` attribute)."""
    return getattr(obj, "club", obj)


@rules.predicate
def is_organiser(user, obj) -> bool:
    """``user`` is an organiser of ``obj``'s club."""
    if obj is None or not user.is_authenticated:
        return False
    return _club(obj).memberships.filter(user=user, role="organiser").exists()


@rules.predicate
def is_member(user, obj) -> bool:
    """``user`` belongs to ``obj``'s club (organisers included)."""
    if obj is None or not user.is_authenticated:
        return False
    return _club(obj).memberships.filter(user=user).exists()


@rules.predicate
def is_signed_in(user) -> bool:
    return bool(user and user.is_authenticated)


rules.add_perm("clubs.view_club", rules.always_allow)
rules.add_perm("clubs.join_club", is_signed_in & ~is_member)
rules.add_perm("clubs.manage_club", is_organiser)
rules.add_perm("clubs.manage_event", is_organiser)
rules.add_perm("clubs.enter_event", is_member)
