"""Quick play: joining and leaving the queue, pairs of friends, and the
matchmaker pass that opens tables.

Every change runs in one transaction.  The pass locks the game's waiting
entries (``SELECT … FOR UPDATE``), asks the pure :func:`quickplay.matcher.match`
which tables to open, opens each through :mod:`games.services` (room, seats,
bots, ready: the first hand is dealt) and marks the entries ``matched`` with a
conditional update that must change every row it names, so two passes running
at once (two Celery workers, a duplicated task, an in-process timer and the
ticker) can never seat a party twice: the second finds nothing waiting or
rolls back.  After the commit each player's queue page is told over the
channel layer (group ``quickplay.user.<id>``) and goes to the table.

A waiting entry whose page has not been seen for :data:`GRACE_S` seconds
(closed, not just reloading or reconnecting) is dropped by the next pass; a
player matched while his page was closed (within the grace) finds his table
when he comes back: the page and the lobby send him there, and until then
the table's turn timer and 托管 play for him as for anyone away.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.house import house_user
from games import services as game_services
from games.engine import get_rules
from games.services.deadlines import FILL_POLICY
from games.models import GAME_CHOICES, Room, Seat
from ratings import compute
from ratings.models import PlayerRating

from . import matcher, rules
from .models import QueueEntry
from . import notify

log = logging.getLogger(__name__)

#: The bot waits a player may choose (seconds; None: never).
BOT_WAITS = (10, 30, None)
DEFAULT_BOT_WAIT = 30
#: A waiting entry not seen (page connected or pinging) for this long is dropped.
GRACE_S = 45
#: A matched entry sends its player to the table for this long afterwards.
MATCH_SHOWN_S = 15 * 60
#: Bots that fill quick-play tables: the site's default filling level (高手).
BOT_POLICY = FILL_POLICY
WINDOW = matcher.Window()

ACTIVE = (QueueEntry.Status.FORMING, QueueEntry.Status.WAITING)


class QueueError(Exception):
    """A refused request; ``message`` is for the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def layout(game: str) -> matcher.Layout:
    """The table layout of ``game`` for the matcher (seats, partner slots)."""
    rules = get_rules(game)
    return matcher.Layout(rules.seats, tuple(tuple(s) for s in rules.partner_slots))


def rating(user, game: str) -> int:
    """``user``'s displayed rating in ``game`` (a newcomer's before any hand)."""
    value = PlayerRating.objects.filter(user=user, game=game).values_list("rating", flat=True).first()
    return value if value is not None else compute.display(compute.INITIAL[0])


def _check(game: str, bot_wait) -> None:
    if game not in dict(GAME_CHOICES):
        raise QueueError(_("未知的游戏"))
    if bot_wait not in BOT_WAITS:
        raise QueueError(_("无效的机器人等待时间"))


def _refuse(user) -> None:
    """:class:`QueueError` when an app's rule refuses ``user`` the queue."""
    reason = rules.queue_refusal(user)
    if reason:
        raise QueueError(reason)


def _of_user(user) -> Q:
    """Entries of ``user``, his own or as a partner."""
    return Q(user=user) | Q(partner=user)


def _busy(user) -> QueueEntry | None:
    """``user``'s active entry (his own or as a partner), or None."""
    return QueueEntry.objects.filter(status__in=ACTIVE).filter(_of_user(user)).first()


def active_entry(user) -> QueueEntry | None:
    """The entry ``user`` is queued in (alone, inviting, or as a partner)."""
    return _busy(user)


def join(user, game: str, bot_wait: int | None = DEFAULT_BOT_WAIT) -> QueueEntry:
    """Queue ``user`` alone for ``game``.  Already queued for the same game:
    that entry (a double click changes nothing); for another game:
    :class:`QueueError`, as for a player an app's rule refuses
    (:func:`quickplay.rules.queue_refusal`: a suspension).  A pass is
    requested at once and at the bot wait."""
    _check(game, bot_wait)
    _refuse(user)
    for attempt in range(2):
        with transaction.atomic():
            existing = _busy(user)
            if existing is not None:
                if existing.game == game:
                    return existing
                raise QueueError(_("你已经在另一个游戏的队列中"))
            now = timezone.now()
            entry = _create_once(
                game=game, user=user, status=QueueEntry.Status.WAITING,
                rating=rating(user, game), bot_wait_s=bot_wait, joined=now, seen=now,
            )
            if entry is None:
                continue  # a join of the same user committed meanwhile: answer with it
            _after_commit_pass(game, bot_wait)
            return entry
    raise QueueError(_("你已经在队列中"))


def _create_once(**fields) -> QueueEntry | None:
    """Create a queue entry, or None when the user already has an active one
    (the constraint ``queue_one_active_entry`` refused it: two requests of
    the same user raced past :func:`_busy`).  The savepoint keeps the
    caller's transaction usable."""
    try:
        with transaction.atomic():
            return QueueEntry.objects.create(**fields)
    except IntegrityError:
        return None


def invite(user, game: str, bot_wait: int | None = DEFAULT_BOT_WAIT) -> QueueEntry:
    """Start a pair for ``game`` (a game with partner seats): an entry in
    ``forming`` whose code the friend opens to join as partner."""
    _check(game, bot_wait)
    _refuse(user)
    if not get_rules(game).partner_slots:
        raise QueueError(_("这个游戏没有固定搭档"))
    for attempt in range(2):
        with transaction.atomic():
            existing = _busy(user)
            if existing is not None:
                if existing.game == game and existing.status == QueueEntry.Status.FORMING:
                    return existing
                raise QueueError(_("你已经在队列中"))
            now = timezone.now()
            entry = _create_once(
                game=game, user=user, status=QueueEntry.Status.FORMING, bot_wait_s=bot_wait,
                joined=now, seen=now,
            )
            if entry is not None:
                return entry
    raise QueueError(_("你已经在队列中"))


def accept(user, code: str) -> QueueEntry:
    """``user`` accepts the pair invitation ``code``: the pair starts waiting
    (rating: the mean of the two)."""
    with transaction.atomic():
        entry = QueueEntry.objects.select_for_update().filter(code=code).first()
        if entry is None or entry.status != QueueEntry.Status.FORMING:
            raise QueueError(_("邀请已失效"))
        if entry.user_id == user.pk:
            raise QueueError(_("不能和自己组队"))
        _refuse(user)
        if _busy(user) is not None:
            raise QueueError(_("你已经在队列中"))
        now = timezone.now()
        entry.partner = user
        entry.status = QueueEntry.Status.WAITING
        entry.rating = (rating(entry.user, entry.game) + rating(user, entry.game)) / 2
        entry.joined = entry.seen = now
        entry.save(update_fields=["partner", "status", "rating", "joined", "seen"])
        _after_commit_pass(entry.game, entry.bot_wait_s)
        _after_commit_notify([entry.user_id])
    return entry


def leave(user) -> int:
    """``user`` leaves the queue (his pair too); returns how many entries ended."""
    with transaction.atomic():
        entries = list(QueueEntry.objects.select_for_update().filter(status__in=ACTIVE)
                       .filter(_of_user(user)))
        for entry in entries:
            entry.status = QueueEntry.Status.LEFT
            entry.save(update_fields=["status"])
            _after_commit_notify(entry.members())
    return len(entries)


def ping(user) -> None:
    """A sign of life from ``user``'s queue page (connect, ping)."""
    QueueEntry.objects.filter(status__in=ACTIVE).filter(_of_user(user)).update(
        seen=timezone.now()
    )


def recent_match(user) -> QueueEntry | None:
    """``user``'s entry matched in the last :data:`MATCH_SHOWN_S` seconds
    whose room still plays (to send him there), or None."""
    since = timezone.now() - timedelta(seconds=MATCH_SHOWN_S)
    entry = (
        QueueEntry.objects.filter(status=QueueEntry.Status.MATCHED, matched__gte=since)
        .filter(_of_user(user)).select_related("room").order_by("-matched").first()
    )
    if entry is None or entry.room is None or entry.room.status == Room.Status.CLOSED:
        return None
    if not Seat.objects.filter(room=entry.room, user=user).exists():
        return None  # he left that table already
    return entry


# --------------------------------------------------------------------------- the pass


def games_waiting() -> list[str]:
    """The games with a waiting entry."""
    return sorted(set(
        QueueEntry.objects.filter(status=QueueEntry.Status.WAITING).values_list("game", flat=True)
    ))


def run_pass(game: str, now=None) -> list[Room]:
    """One matchmaker pass for ``game``: drop entries not seen for
    :data:`GRACE_S`, open the tables :func:`quickplay.matcher.match` forms,
    mark their entries matched.  Safe to run concurrently and repeatedly
    (see the module docstring).  Returns the rooms opened."""
    now = now or timezone.now()
    with transaction.atomic():
        entries = list(
            QueueEntry.objects.select_for_update(of=("self",))
            .select_related("user", "partner")
            .filter(game=game, status=QueueEntry.Status.WAITING).order_by("id")
        )
        stale = [e for e in entries if e.seen < now - timedelta(seconds=GRACE_S)]
        if stale:
            QueueEntry.objects.filter(pk__in=[e.pk for e in stale],
                                      status=QueueEntry.Status.WAITING).update(
                status=QueueEntry.Status.LEFT)
            for e in stale:
                _after_commit_notify(e.members())
        fresh = {e.pk: e for e in entries if e not in stale}
        # the apps' rules (quickplay.rules): who waits on (a suspension), who
        # never sits with whom (blocks), who waits for his own tier (reputation)
        said = rules.grouping({u for e in fresh.values() for u in e.members()})
        fresh = {pk: e for pk, e in fresh.items() if not said.excluded.intersection(e.members())}
        party_of = {u: e.pk for e in fresh.values() for u in e.members()}
        apart = {
            frozenset(party_of[u] for u in pair) for pair in said.apart
            if all(u in party_of for u in pair) and len({party_of[u] for u in pair}) == 2
        }
        parties = [
            matcher.Party(e.pk, e.size, e.rating, e.joined.timestamp(), e.bot_wait_s,
                          max(said.tier.get(u, 0) for u in e.members()))
            for e in fresh.values()
        ]
        tables = matcher.match(parties, layout(game), now.timestamp(), WINDOW, apart)
        rooms = [_open(game, table, fresh, now) for table in tables]
    return rooms


def _open(game: str, table: matcher.Table, entries: dict, now) -> Room:
    """Open one table (inside the pass's transaction)."""
    users: list = []
    for party_id in table.seats:
        if party_id is None:
            users.append(None)
            continue
        entry = entries[party_id]
        users.append(entry.partner if entry.user in users else entry.user)
    humans = [u for u in users if u is not None]
    # The house owns a quick-play table: no matched stranger may close it for
    # the others or set its seat requirement.
    owner = house_user()
    room = game_services.create_room(owner, game, _("快速开始"), take_seat=False,
                                     bot_delay_ms=settings.QUICKPLAY_BOT_DELAY_MS)
    for index, user in enumerate(users):
        if user is not None:
            game_services.take_seat(room, user, index)
    if table.bots:
        game_services.fill_bots(room, owner, BOT_POLICY)
    for user in humans:
        game_services.set_ready(room, user, True)
    ids = list(table.parties)
    changed = QueueEntry.objects.filter(pk__in=ids, status=QueueEntry.Status.WAITING).update(
        status=QueueEntry.Status.MATCHED, room=room, matched=now)
    if changed != len(ids):
        raise RuntimeError("queue entries changed during the pass")  # rolls the pass back
    _after_commit_notify([u.pk for u in humans])
    room.refresh_from_db()
    return room


# --------------------------------------------------------------------------- after commit


#: ``request(game, delay_s)``: how a pass is asked for after a join; set by
#: ``QuickplayConfig.ready`` to :func:`quickplay.scheduling.request_pass` (the
#: one place that knows the topology), so this module imports no scheduler.
pass_requester = None


def _after_commit_pass(game: str, bot_wait: int | None) -> None:
    def run():
        if pass_requester is None:
            return
        pass_requester(game, 0.0)
        if bot_wait is not None:
            pass_requester(game, bot_wait + 0.05)

    transaction.on_commit(run)


def _after_commit_notify(user_ids) -> None:
    ids = list(user_ids)

    def run():
        notify.queue_changed(ids)

    transaction.on_commit(run)
