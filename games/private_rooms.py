"""Private rooms: unlisted, open only to their seated players, joined by link.

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
* shows a finished hand's cards (record, replay, review, export, and a
  profile's links to the hand) only to the users who played that hand, through
  the same rule's ``hand_embargo``;
* seats someone who is not at the table only through its *invite link*
  (:func:`invite_url`, shown to the players on the room page): the link
  carries :func:`invite_token`, an HMAC of the room id under the site's
  secret key, which :func:`games.services.take_seat` checks (the room's owner
  needs none); the owner may replace the link
  (:func:`games.services.renew_invite`), and the old one seats no one.

"Play this deal again" rooms (:mod:`games.services.deal_replay`) are always
private.  Nothing here names a game.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import embargo
from games.models import Room

_SALT = "games.private_rooms.invite"
#: Hex digits of the HMAC kept in a link (96 bits).
TOKEN_LENGTH = 24


def invite_token(room) -> str:
    """The invite token of ``room`` (a ``Room``): ``TOKEN_LENGTH`` hex digits,
    the same until the owner asks for a new link (``Room.invite_key``,
    :func:`games.services.renew_invite`), unguessable without the site's
    ``SECRET_KEY``.  (Key 0 signs the room id alone, as the first links did.)"""
    message = str(int(room.pk)) if not room.invite_key else f"{int(room.pk)}:{int(room.invite_key)}"
    return salted_hmac(_SALT, message).hexdigest()[:TOKEN_LENGTH]


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


#: Why a private room's hand is refused to a user who did not play it.
PLAYERS_ONLY = gettext_lazy("这副牌是在私人房间里打的，只有打这副牌的玩家可以查看")


class PrivateRoomRule:
    """The :mod:`games.embargo` watch rule of private rooms (module docstring).

    It answers only for private rooms: :meth:`room_watch` refuses every user
    who is not seated (the callers ask only about those),
    :meth:`anonymous_watch` says visitors may not watch (so the table socket
    asks again before each push: a player who left the seat stops receiving
    the table), and a finished hand's cards (record, replay, review, export,
    a profile's links to it) are shown only to the users who played that hand
    (:meth:`hand_embargo`; admins are never refused, :mod:`games.embargo`)."""

    @staticmethod
    def _played(hand, user) -> bool:
        """Whether ``user`` (signed in or not) held a seat in ``hand``
        (``Hand.players``: ``[{"user": id or None, ...}]``, one per seat)."""
        key = embargo.watcher_key(user)
        return key is not None and any(p.get("user") == key for p in hand.players or ())

    def hand_embargo(self, hand, user) -> str | None:
        """A sentence when ``hand`` was played in a private room and ``user``
        was not one of its players, else None (one query at most: the
        hand's room, unless the caller selected it)."""
        if self._played(hand, user) or not hand.match.room.private:
            return None
        return str(PLAYERS_ONLY)

    def hands_embargoed(self, hands, user) -> set[int]:
        """The ids of ``hands`` :meth:`hand_embargo` hides from ``user``: one
        query for which of their rooms are private, none when ``user``
        played them all."""
        unplayed = [h for h in hands if not self._played(h, user)]
        if not unplayed:
            return set()

        private = set(Room.objects.filter(pk__in={h.match.room_id for h in unplayed}, private=True)
                      .values_list("pk", flat=True))
        return {h.pk for h in unplayed if h.match.room_id in private}

    def room_watch(self, room, user) -> str | None:
        """A sentence for ``room`` private (``user`` is not seated there)."""
        if not room.private:
            return None
        return _("这是私人房间，只有坐在桌上的玩家可以打开；朋友请用邀请链接入座")

    def players_only(self, room):
        """For a private room, why its hands are for their players only
        (:meth:`hand_embargo`; a player who sat down later gets no link to
        the hands before, :func:`games.embargo.players_only`); else None."""
        return PLAYERS_ONLY if room.private else None

    def anonymous_watch(self, room) -> bool | None:
        """False for a private room (visitors may not watch), else None."""
        return False if room.private else None


WATCH_RULE = PrivateRoomRule()
