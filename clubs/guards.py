"""What an event hides and whom its tables seat.

:data:`GUARD` is registered with :mod:`games.embargo` and :mod:`games.seating`
by :class:`clubs.apps.ClubsConfig` and answers for the rooms of event tables
only (None for every other room):

* **Duplicate boards are embargoed** (:meth:`EventGuard.hand_embargo`): board
  *k* of a running duplicate round (the *k*-th hand dealt at a table, counted
  from 0, one of ``Round.boards``) is hidden from everyone but admins until
  every table of the round has completed its *k*-th hand or finished, or the
  round has ended.  Source: "Duplicate boards are embargoed";
  docs/tournaments.md "Nothing leaks".
* **Entrants do not watch boards they have yet to play**
  (:meth:`EventGuard.room_watch`): while a duplicate round runs, a player of
  an entry seated at another table of the round, whose table has not
  finished, may not watch a table that has dealt more boards than the
  player's own table has completed.  :meth:`EventGuard.room_watches` decides
  for all the spectators of a table version at once (two queries).
* **Anonymous visitors** (:meth:`EventGuard.anonymous_watch`) may watch an
  event table when the club's ``public_tables`` setting is on (the default).
* **Event tables seat only their entrants** (:meth:`EventGuard.seat_refusal`):
  seat *i* of an event table may be taken only by the user the game's
  ``seat_plan()`` puts there: player *p* of the entry at entry index *e* of
  the table (``EventTable.entries``).  A bot entry's or a bot seat's seat is
  nobody's.  A substitute the organiser names replaces the entry's player
  (:func:`clubs.running.events.substitute`) and so gets the seat.

The embargo's one rule is :func:`embargoed_boards` (the boards of a round
hidden now); the hand record and replay (:meth:`EventGuard.hand_embargo`), the
table's result panel and score sheet (:meth:`EventGuard.room_hidden_hands`,
asked once per table snapshot) and the event's standings and exports
(:mod:`clubs.results.standings`) all ask it.
"""

from __future__ import annotations

from django.db.models import Count, Exists, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from games import embargo
from games.models import Hand, Seat

from . import formats
from .models import EntryPlayer, Event, EventTable, Round
from .teams.lineup import player_offset


def _table_of_room(room_id: int) -> EventTable | None:
    return (
        EventTable.objects.select_related("round__event__club")
        .filter(room_id=room_id).first()
    )


def _board_index(hand) -> int:
    """The hand's position among its room's hands (0-based): its board."""
    before = Q(match__number__lt=hand.match.number) | Q(match__number=hand.match.number, number__lt=hand.number)
    return Hand.objects.filter(match__room_id=hand.match.room_id).filter(before).count()


def _hand_count(**where):
    """SQL: the number of hands matching ``where`` (may hold ``OuterRef``), 0 for none."""
    counted = (
        Hand.objects.filter(**where).order_by().values("match__room_id")
        .annotate(n=Count("id")).values("n")[:1]
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def _dealt(room_id: int, hand):
    """SQL: the boards room ``room_id`` has dealt, up to ``hand`` (its latest
    hand in the version to be shown; hands are created in order, so those
    with an id up to its id), none when ``hand`` is None, every one when it
    is ``embargo.NOW``."""
    if hand is None:
        return Value(0, output_field=IntegerField())
    if hand is embargo.NOW:
        return _hand_count(match__room_id=room_id)
    return _hand_count(match__room_id=room_id, pk__lte=hand.pk)


def embargoed_boards(round_: Round) -> range:
    """The board indices (0-based) of ``round_`` hidden now from everyone but
    admins: empty unless ``round_`` is a running round of a duplicate event;
    then board *k* is hidden while some table of the round has neither
    finished nor completed its *k*-th hand.  Since every table plays its
    boards in order, the hidden boards are ``range(open, len(round_.boards))``
    with ``open`` the fewest hands completed by an unfinished table (one
    query, plus one for the tables unless prefetched).  Source:
    docs/tournaments.md "Nothing leaks"."""
    count = len(round_.boards or [])
    if round_.status != Round.Status.RUNNING or round_.event.format not in Event.BOARD_FORMATS:
        return range(count, count)
    rooms = [t.room_id for t in round_.tables.all() if t.finished is None]
    if not rooms:
        return range(count, count)
    done = dict(
        Hand.objects.filter(match__room_id__in=[r for r in rooms if r is not None], complete=True)
        .values_list("match__room_id").annotate(n=Count("id"))
    )
    opened = min(done.get(room, 0) if room is not None else 0 for room in rooms)
    return range(min(opened, count), count)


class EventGuard:
    """The embargo, watching and seat rules of event tables (module docstring)."""

    # ------------------------------------------------------------------ embargo

    def hand_embargo(self, hand, user) -> str | None:
        """A sentence while ``hand`` is a duplicate board some table of its
        running round has yet to complete, else None."""
        table = _table_of_room(hand.match.room_id)
        if table is None:
            return None
        r = table.round
        event = r.event
        if event.format not in Event.BOARD_FORMATS or r.status == Round.Status.FINISHED:
            return None
        board = _board_index(hand)
        if board not in embargoed_boards(r):
            return None
        return _(
            "这是复式赛“%(event)s”第 %(round)s 轮的第 %(board)s 副牌，还有牌桌没有打完；"
            "所有牌桌打完这副牌或本轮结束后才能查看"
        ) % {"event": event.name, "round": r.number, "board": board + 1}

    def hands_embargoed(self, hands, user) -> set[int]:
        """The ids of ``hands`` :meth:`hand_embargo` hides (one query finds
        the few that belong to a running duplicate round)."""
        rooms = set(
            EventTable.objects.filter(
                room_id__in={h.match.room_id for h in hands}, round__status=Round.Status.RUNNING,
                round__event__format__in=Event.BOARD_FORMATS,
            ).values_list("room_id", flat=True)
        )
        return {h.pk for h in hands if h.match.room_id in rooms and self.hand_embargo(h, user)}

    def room_flag(self, room_id):
        """An SQL boolean (``Exists``) for the room whose id is ``room_id``
        (an ``OuterRef``): True when it is a table of a running duplicate
        round, the only rooms :meth:`room_hidden_hands` may hide hands of.
        The table snapshot reads it with the room's seats, so the other rooms
        cost no query (:func:`games.embargo.room_flag`)."""
        return Exists(EventTable.objects.filter(
            room_id=room_id, round__status=Round.Status.RUNNING, round__event__format__in=Event.BOARD_FORMATS,
        ))

    def room_hidden_hands(self, room, hand_ids) -> set[int]:
        """The ids among ``hand_ids`` (hands of ``room``) that are duplicate
        boards :meth:`hand_embargo` hides now.  That answer is the same for
        every viewer but admins (the players of the board included), so the
        table snapshot asks once per room version: four queries (the table,
        the room's hands in order, the two of :func:`embargoed_boards`)."""
        ids = {int(i) for i in hand_ids if i}
        table = _table_of_room(room.pk)
        if not ids or table is None:
            return set()
        hidden = embargoed_boards(table.round)
        if not hidden:
            return set()
        order = Hand.objects.filter(match__room_id=room.pk).order_by("match__number", "number")
        return {pk for board, pk in enumerate(order.values_list("pk", flat=True)) if pk in ids and board in hidden}

    # ------------------------------------------------------------------ watching

    def room_watch(self, room, user) -> str | None:
        """A sentence when ``user`` may not watch ``room`` now (an anonymous
        visitor when the club does not allow it; an entrant of the running
        duplicate round at another table, while ``room`` has dealt boards the
        entrant's table has not completed), else None: :meth:`room_watches`
        for one user, from the database as it is now."""
        return self.room_watches(room, [user]).get(embargo.watcher_key(user))

    def room_watches(self, room, users, hand=embargo.NOW) -> dict[int | None, str | None]:
        """:meth:`room_watch` for many users at once (:func:`games.embargo.watch_reasons`):
        ``{user id (None: visitors): sentence or None}``, empty when ``room``
        is not an event table.  ``hand``: the latest hand of the version of
        ``room`` to be shown (None: none yet; ``embargo.NOW``: the database
        now): the boards ``room`` has dealt are counted up to it, so the
        verdict is that of the version sent.  The entrants' own tables'
        completed boards are read now (a board completed since is one the
        entrant has played).  One query (the round's tables with their
        completed and dealt counts, the event and the club), and a second
        only for signed-in users at a running duplicate round (their entries
        and seats), whatever the number of users."""
        tables = list(
            EventTable.objects.filter(round__tables__room_id=room.pk)
            .select_related("round__event__club")
            .annotate(completed=_hand_count(match__room_id=OuterRef("room_id"), complete=True))
            .annotate(dealt=_dealt(room.pk, hand))
            .order_by("number")
        )
        table = next((t for t in tables if t.room_id == room.pk), None)
        if table is None:
            return {}
        r = table.round
        event = r.event
        answer: dict[int | None, str | None] = {}
        signed_in = set()
        for user in users:
            key = embargo.watcher_key(user)
            if key is None:
                answer[None] = None if event.club.public_tables else _(
                    "俱乐部“%(club)s”的比赛桌只对登录的用户开放观看") % {"club": event.club.name}
            else:
                answer[key] = None
                signed_in.add(key)
        if not signed_in or event.format not in Event.BOARD_FORMATS or r.status != Round.Status.RUNNING:
            return answer
        mine: dict[int, set] = {}
        seated = set()
        rows = (
            EntryPlayer.objects.filter(user_id__in=signed_in, entry__event=event)
            .annotate(seated=Exists(Seat.objects.filter(room_id=room.pk, user_id=OuterRef("user_id"))))
            .values_list("user_id", "entry_id", "seated")
        )
        for user_id, entry_id, at_room in rows:
            mine.setdefault(user_id, set()).add(entry_id)
            if at_room:
                seated.add(user_id)
        for user_id, entries in mine.items():
            if user_id in seated:
                continue
            own = next((t for t in tables if entries & set(i for i in t.entries if i)), None)
            if own is None or own.pk == table.pk or own.finished is not None:
                continue
            if table.dealt > own.completed:
                answer[user_id] = _("你还没有打完这张牌桌正在打（或已打）的牌；打完你自己的这几副牌之后才能观看")
        return answer

    def anonymous_watch(self, room) -> bool | None:
        """The club's ``public_tables`` for an event table's room, else None."""
        table = _table_of_room(room.pk)
        if table is None:
            return None
        return bool(table.round.event.club.public_tables)

    # ------------------------------------------------------------------ seats

    def seat_refusal(self, room, user, index: int) -> str | None:
        """A sentence unless ``user`` is the player the pairing put at seat
        ``index`` of this event table (module docstring), else None."""
        table = _table_of_room(room.pk)
        if table is None:
            return None
        plan = formats.hooks(table.round.event.game).seat_plan()
        refusal = _("这是比赛桌：这个座位只属于配对安排在这里的参赛者，或组织者指定的替补")
        if not 0 <= index < len(plan):
            return refusal
        entry_index, player_index = plan[index]
        player_index += player_offset(table)  # team duplicate: the team's pair for this table
        entry_id = table.entries[entry_index] if entry_index < len(table.entries) else None
        if not entry_id:
            return refusal
        player = EntryPlayer.objects.filter(entry_id=entry_id, index=player_index).first()
        if player is None or player.user_id is None or player.user_id != user.pk:
            return refusal
        return None


GUARD = EventGuard()
