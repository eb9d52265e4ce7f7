"""Private rooms (#26): unlisted, open only to their seated players, joined by link.

A room with ``Room.private`` set

* is never listed to anyone: the lobby's room list and its live push
  (:func:`games.render.tables.lobby_rooms`), the home page's room counts and
  the "playing now" list of a profile leave it out;
* is opened and watched only by the users seated at it: :data:`WATCH_RULE` is a
  watch rule of :mod:`games.embargo` (registered by ``GamesConfig.ready``),
  so the room page and its table fragment answer 403 and the table socket
  closes with 4403 for a signed-in user who is not seated (4401 for a
  visitor, as for every room; admins are never refused), and a socket of a
  player who leaves the seat is closed before the next push;
* seats someone who is not at the table only through its *invite link*
  (:func:`invite_url`, shown to the players on the room page): the link
  carries :func:`invite_token`, an HMAC of the room id under the site's
  secret key, which :func:`games.services.take_seat` checks (the room's owner
  needs none).

"Play this deal again" rooms (:mod:`games.services.deal_replay`) are always
private.  Nothing here names a game.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

_SALT = "games.private_rooms.invite"
#: Hex digits of the HMAC kept in a link (96 bits).
TOKEN_LENGTH = 24


def invite_token(room) -> str:
    """The invite token of ``room`` (a ``Room`` or its id): ``TOKEN_LENGTH``
    hex digits, the same for the room's whole life, unguessable without the
    site's ``SECRET_KEY``."""
    room_id = getattr(room, "pk", room)
    return salted_hmac(_SALT, str(int(room_id))).hexdigest()[:TOKEN_LENGTH]


def valid_invite(room, token) -> bool:
    """True when ``token`` (a string, or None) is ``room``'s invite token
    (compared in constant time)."""
    return isinstance(token, str) and constant_time_compare(token, invite_token(room))


def invite_path(room) -> str:
    """The path of ``room``'s invite page (``/rooms/<id>/invite/<token>/``)."""
    return reverse("room_invite", args=[room.pk, invite_token(room)])


def invite_url(room, request=None) -> str:
    """The invite link of ``room``: absolute when ``request`` is given."""
    path = invite_path(room)
    return request.build_absolute_uri(path) if request is not None else path


def seat_refusal(room, user, invite) -> str | None:
    """Why ``user`` may not take a seat of ``room`` with the invite token
    ``invite`` (None: none given), or None: a private room seats its owner,
    and anyone else only with the right token.  Asked by
    :func:`games.services.take_seat` inside the room's lock."""
    if not room.private or user.pk == room.owner_id or valid_invite(room, invite):
        return None
    return _("这是私人房间，只能通过邀请链接入座")


class PrivateRoomRule:
    """The :mod:`games.embargo` watch rule of private rooms (module docstring).

    It hides no hand (:meth:`hand_embargo` is always None) and answers only
    for private rooms: :meth:`room_watch` refuses every user who is not
    seated (the callers ask only about those), :meth:`anonymous_watch` says
    visitors may not watch (so the table socket asks again before each push:
    a player who left the seat stops receiving the table)."""

    def hand_embargo(self, hand, user) -> str | None:
        """None: a private room's finished hands follow the usual rules."""
        return None

    def hands_embargoed(self, hands, user) -> set[int]:
        """Nothing (no query)."""
        return set()

    def room_watch(self, room, user) -> str | None:
        """A sentence for ``room`` private (``user`` is not seated there)."""
        if not room.private:
            return None
        return _("这是私人房间，只有坐在桌上的玩家可以打开；朋友请用邀请链接入座")

    def anonymous_watch(self, room) -> bool | None:
        """False for a private room (visitors may not watch), else None."""
        return False if room.private else None


WATCH_RULE = PrivateRoomRule()
