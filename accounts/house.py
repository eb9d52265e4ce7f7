"""The house: the site's own account, which owns what no player should.

The site's arenas and their tables (:mod:`clubs.arena.site`) and the tables
quick play opens (:mod:`quickplay.services`) belong to the house, so that no
player who happened to be matched first gets an owner's powers (closing the
room for everyone, a seat requirement, the invite link) over strangers' table.

The house user has an unusable password (nobody signs in as it) and its
username holds a space, which no sign-up accepts (Django's username
validator), so no player can register as the house.  ``SITE_HOUSE_USER``
renames it (``SITE_ARENA_USER``, its older name, is still read).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model

HOUSE_USER = getattr(settings, "SITE_HOUSE_USER", getattr(settings, "SITE_ARENA_USER", "site arena"))


def house_user():
    """The house's :class:`~django.contrib.auth.models.User`, made on first use
    with an unusable password."""
    user, made = get_user_model().objects.get_or_create(username=HOUSE_USER)
    if made:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user
