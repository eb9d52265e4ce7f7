"""Every change to an arena, one transaction each.

* :func:`create_arena` (an organiser: length, hands per table, berserk, bot
  fill, team battle), :func:`open_arena` (the clock starts);
* :func:`join`, :func:`leave`, :func:`set_berserk` (a player, at any time);
  :func:`add_bots` (bot entrants, which score like players: demos and tests);
* :func:`seat_pool`: the waiting players grouped (:mod:`.pairing`) and seated
  at new tables (rooms through :mod:`games.services`), humans ready at once;
* :func:`score_table`: every completed hand of a table scored once per player
  (:mod:`.scoring`, ruling A1 through the game's ``arena_result`` hook), under
  the table's row lock, with a unique (hand, player) key as the backstop;
  then the table is finished when its hands are played (or the clock ran
  out) and its players go back to the pool;
* :func:`on_hand_completed` (a receiver of ``games.signals.hand_completed``,
  which may be delivered again after a worker is killed) and
  :func:`sweep_arenas` (after every round sweep: Celery beat every 2 s, or
  the embedded sweep thread) call them; either alone scores every hand.

:class:`ArenaPlanner` tells the games services when an arena table deals
(its hands per table, never after the clock).  Rules: docs/tournaments.md.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta

from django.db import transaction
from django.db.models import Count, Max, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from games import seating as seat_rules, services as game_services
from games.engine import get_rules
from games.models import Hand, HandAction, Room
from games.services import roomcache
from ratings.compute import display
from ratings.models import PlayerRating

from .. import formats
from ..models import Arena, ArenaPlayer, ArenaScore, ArenaTable, Club, Event
from ..running import events as club_events, notify
from ..services import ClubError, Conflict, Forbidden, require
from . import pairing, scoring

log = logging.getLogger(__name__)

#: Seconds a table with a repeated table-mate is held per hand of its set.
HOLD_PER_HAND_S = 10.0
#: Longest arena, minutes.
MAX_MINUTES = 24 * 60


# --------------------------------------------------------------------------- the arena


def create_arena(user, club: Club, *, name: str, game: str, minutes: float, hands_per_table: int = 1,
                 berserk: bool = True, bot_fill_seconds: int | None = None, team_battle: bool = False,
                 team_size: int = 5, teams=(), turn_seconds: int = 30, bot_delay_ms: int = 800,
                 multiplier: int = 1, start: bool = True) -> Event:
    """An organiser of ``club`` opens an arena ``minutes`` long (fractions
    allowed, at least 6 s), ``hands_per_table`` hands per table (1-10).
    ``team_battle``: the clubs ``teams`` (``club`` always among them) compete,
    each club's best ``team_size`` players counting.  ``start``: the clock
    starts now (else :func:`open_arena`).  Raises :class:`Forbidden` or
    :class:`ClubError` (a setting out of range)."""
    if not 0.1 <= float(minutes) <= MAX_MINUTES:
        raise ClubError(_("竞技场时长须在 0.1 到 1440 分钟之间"))
    if not 1 <= int(hands_per_table) <= 10:
        raise ClubError(_("每桌局数须在 1 到 10 之间"))
    if bot_fill_seconds is not None and not 0 <= int(bot_fill_seconds) <= 3600:
        raise ClubError(_("机器人补位等待须在 0 到 3600 秒之间"))
    if team_battle and not 1 <= int(team_size) <= 100:
        raise ClubError(_("每队计分人数须在 1 到 100 之间"))
    with transaction.atomic():
        event = club_events.create_event(
            user, club, name=name, game=game, format=Event.Format.ARENA, rounds=1,
            hands_per_round=int(hands_per_table), minutes_per_round=max(1, round(float(minutes))),
            turn_seconds=turn_seconds, bot_delay_ms=bot_delay_ms, multiplier=multiplier,
        )
        arena = Arena.objects.create(
            event=event, seconds=max(6, int(round(float(minutes) * 60))), hands_per_table=int(hands_per_table),
            berserk=bool(berserk), bot_fill_seconds=None if bot_fill_seconds is None else int(bot_fill_seconds),
            team_battle=bool(team_battle), team_size=int(team_size),
        )
        if team_battle:
            arena.teams.set({club, *teams})
        if start:
            _open(arena)
    notify.event_changed(event.pk)
    return event


def _open(arena: Arena) -> None:
    now = timezone.now()
    arena.starts_at = now
    arena.ends_at = now + timedelta(seconds=arena.seconds)
    arena.save(update_fields=["starts_at", "ends_at"])
    Event.objects.filter(pk=arena.pk).update(status=Event.Status.RUNNING)


def open_arena(user, event: Event) -> Arena:
    """An organiser starts the arena's clock now.  :class:`Conflict` if it
    was opened already."""
    require(user, "clubs.manage_event", event)
    with transaction.atomic():
        arena = Arena.objects.select_for_update().get(pk=event.pk)
        if arena.starts_at is not None:
            raise Conflict(_("竞技场已经开始"))
        _open(arena)
    notify.event_changed(event.pk)
    return arena


def is_open(arena: Arena, now=None) -> bool:
    """The clock runs: opened and not over."""
    now = now or timezone.now()
    return arena.starts_at is not None and arena.starts_at <= now and (arena.ends_at is None or now < arena.ends_at)


def seconds_left(arena: Arena, now=None) -> int:
    """Whole seconds until the end (0 once over; the length before it opens)."""
    if arena.ends_at is None:
        return arena.seconds
    return max(0, int(((arena.ends_at - (now or timezone.now())).total_seconds())))


# --------------------------------------------------------------------------- players


def _rating(user, game: str) -> float:
    value = PlayerRating.objects.filter(user=user, game=game).values_list("rating", flat=True).first()
    return float(value if value is not None else display(25.0))


def _team_of(arena: Arena, user) -> Club | None:
    if not arena.team_battle:
        return None
    return arena.teams.filter(memberships__user=user).order_by("pk").first()


def join(user, event: Event) -> ArenaPlayer:
    """``user`` joins (or comes back to) the arena's pool.  Members of the
    club may join, anyone signed in to an ``open_to_all`` arena (the site's);
    in a team battle, members of any of its clubs (their club is their
    team).  Raises :class:`Forbidden` / :class:`Conflict` (the arena is over,
    or the player is already in)."""
    arena = Arena.objects.get(pk=event.pk)
    team = _team_of(arena, user)
    if team is None and not arena.open_to_all:
        require(user, "clubs.enter_event", event, _("只有本俱乐部的会员可以报名"))
        if arena.team_battle:
            raise Forbidden(_("只有参赛俱乐部的会员可以加入"))
    if refusal := seat_rules.play_refusal(user):
        raise Forbidden(refusal)
    if event.status in (Event.Status.FINISHED, Event.Status.CANCELLED) or (
            arena.ends_at and timezone.now() >= arena.ends_at):
        raise Conflict(_("竞技场已经结束"))
    with transaction.atomic():
        Arena.objects.select_for_update().filter(pk=arena.pk).first()
        player = ArenaPlayer.objects.filter(arena=arena, user=user).first()
        if player is None:
            player = ArenaPlayer.objects.create(
                arena=arena, user=user, name=user.get_username()[:80], team=team,
                rating=_rating(user, event.game), state=ArenaPlayer.State.WAITING, waiting_since=timezone.now())
        elif player.state == ArenaPlayer.State.AWAY:
            player.state = ArenaPlayer.State.PLAYING if player.table_id else ArenaPlayer.State.WAITING
            player.waiting_since = timezone.now()
            player.save(update_fields=["state", "waiting_since"])
        else:
            raise Conflict(_("你已经在竞技场里了"))
    notify.event_changed(event.pk)
    return player


def add_bots(user, event: Event, count: int, teams=None, seed: int | None = None) -> list[ArenaPlayer]:
    """An organiser adds ``count`` bot entrants (they score like players),
    rated 1300-1700 at random (``seed``); ``teams``: clubs dealt round in turn
    (a team battle of bots)."""
    require(user, "clubs.manage_event", event)
    arena = Arena.objects.get(pk=event.pk)
    rng = random.Random(seed)
    teams = list(teams or [])
    start = ArenaPlayer.objects.filter(arena=arena, user__isnull=True).count()
    now = timezone.now()
    rows = [
        ArenaPlayer(arena=arena, name=_("机器人%(n)s") % {"n": start + i + 1},
                    team=teams[i % len(teams)] if teams else None, rating=float(rng.randint(1300, 1700)),
                    state=ArenaPlayer.State.WAITING, waiting_since=now)
        for i in range(count)
    ]
    ArenaPlayer.objects.bulk_create(rows)
    notify.event_changed(event.pk)
    return list(ArenaPlayer.objects.filter(arena=arena, user__isnull=True).order_by("pk")[start:])


def leave(user, event: Event) -> ArenaPlayer:
    """``user`` leaves the pool: not seated again until they join again (a
    table in play is played to its end and scored).  :class:`Conflict` if
    not in the arena."""
    with transaction.atomic():
        player = ArenaPlayer.objects.select_for_update().filter(arena_id=event.pk, user=user).first()
        if player is None or player.state == ArenaPlayer.State.AWAY:
            raise Conflict(_("你不在竞技场里"))
        player.state = ArenaPlayer.State.AWAY
        player.save(update_fields=["state"])
    notify.event_changed(event.pk)
    return player


def set_berserk(user, event: Event, on: bool = True) -> ArenaPlayer:
    """``user`` goes berserk (or not) at their next table: half the turn time,
    +1 on a win.  :class:`Conflict` when the arena does not allow it or the
    player is not in it."""
    arena = Arena.objects.get(pk=event.pk)
    if not arena.berserk:
        raise Conflict(_("这个竞技场不允许狂暴"))
    with transaction.atomic():
        player = ArenaPlayer.objects.select_for_update().filter(arena=arena, user=user).first()
        if player is None:
            raise Conflict(_("你不在竞技场里"))
        player.berserk = bool(on)
        player.save(update_fields=["berserk"])
    notify.event_changed(event.pk)
    return player


# --------------------------------------------------------------------------- seating


def hold_seconds(arena: Arena) -> float:
    """How long a table with a repeated table-mate waits for other players:
    :data:`HOLD_PER_HAND_S` per hand of its set (the wait grows with the
    table's length)."""
    return HOLD_PER_HAND_S * arena.hands_per_table


def _make_table(arena: Arena, seats: list[int | None], players: dict[int, ArenaPlayer], owner) -> ArenaTable:
    event = arena.event
    arena.tables_made += 1
    arena.save(update_fields=["tables_made"])
    room = game_services.create_room(
        owner, event.game, f"{event.name} #{arena.tables_made}"[:60], multiplier=event.multiplier,
        turn_seconds=event.turn_seconds, bot_delay_ms=event.bot_delay_ms, take_seat=False,
    )
    berserk = [pid for pid in seats if pid and arena.berserk and players[pid].berserk]
    table = ArenaTable.objects.create(arena=arena, number=arena.tables_made, room=room, players=seats,
                                      berserk=berserk)
    humans = []
    for seat, pid in enumerate(seats):
        player = players.get(pid) if pid else None
        if player is None or player.user_id is None:
            continue
        try:
            game_services.take_seat(room, player.user, seat)
            humans.append(player.user)
        except (game_services.Forbidden, game_services.Conflict):  # suspended since joining: a bot plays
            seats[seat] = None
    if None in seats:
        table.players = seats
        table.save(update_fields=["players"])
    try:
        game_services.fill_bots(room, owner, "heuristic")
    except game_services.Conflict:  # every seat is a human's
        pass
    for user in humans:
        game_services.set_ready(room, user, True)
    hooks = formats.hooks(event.game)
    plan = hooks.seat_plan()
    for seat, pid in enumerate(seats):
        if pid is None:
            continue
        p = players[pid]
        p.state = ArenaPlayer.State.PLAYING if p.state != ArenaPlayer.State.AWAY else p.state
        p.table = table
        p.berserk = False
        p.last_mates = [q for q in seats if q and q != pid]
        partner = [q for s, q in enumerate(seats) if q and q != pid and plan[s][0] == plan[seat][0]]
        p.last_partner = partner[0] if partner else None
        p.save(update_fields=["state", "table", "berserk", "last_mates", "last_partner"])
    return table


def seat_pool(event_id: int) -> list[ArenaTable]:
    """Seat the waiting players at new tables (see :mod:`.pairing`); after
    the organiser's ``bot_fill_seconds``, a pool too small for a table is
    seated with bots in the empty seats.  Nothing while the clock does not
    run.  Returns the new tables."""
    now = timezone.now()
    made = []
    with transaction.atomic():
        arena = Arena.objects.select_for_update(of=("self",)).select_related("event__club", "event__created_by").filter(
            pk=event_id).first()
        if arena is None or not is_open(arena, now) or arena.event.status != Event.Status.RUNNING:
            return []
        event = arena.event
        waiting = {p.pk: p for p in ArenaPlayer.objects.filter(
            arena=arena, state=ArenaPlayer.State.WAITING, table__isnull=True).select_related("user")}
        if not waiting:
            return []
        rules = get_rules(event.game)
        hooks = formats.hooks(event.game)
        plan = hooks.seat_plan()
        partners = hooks.SHAPE == "match"
        pool = [pairing.Waiting(p.pk, p.rating, (now - (p.waiting_since or now)).total_seconds(),
                                frozenset(p.last_mates or []), p.last_partner) for p in waiting.values()]
        grouping = pairing.group(pool, rules.seats, partners=partners, hold_s=hold_seconds(arena))
        owner = event.created_by or event.club.organisers().first()
        for groups in grouping.tables:
            seats = [groups[e][i] for e, i in plan]
            made.append(_make_table(arena, seats, waiting, owner))
        left = [waiting[i] for i in grouping.waiting]
        if (arena.bot_fill_seconds is not None and left and len(left) < rules.seats
                and max((now - (p.waiting_since or now)).total_seconds() for p in left) >= arena.bot_fill_seconds):
            seats = [p.pk for p in sorted(left, key=lambda p: -p.rating)] + [None] * (rules.seats - len(left))
            made.append(_make_table(arena, seats, waiting, owner))
    if made:
        notify.event_changed(event_id)
    return made


# --------------------------------------------------------------------------- scoring


def _counted_hands(room_id) -> list[Hand]:
    return list(Hand.objects.filter(match__room_id=room_id).order_by("match__number", "number"))


def _is_void(hand: Hand) -> bool:
    return bool((hand.summary or {}).get("voided"))


def score_table(table_id: int) -> int:
    """Score every completed, unscored hand of the table once per player (in
    hand order, streaks carried), then finish the table if its set is played,
    the clock ran out or its room closed: its players go back to the pool.
    Idempotent; returns the hands scored by this call."""
    now = timezone.now()
    finished = False
    with transaction.atomic():
        table = ArenaTable.objects.select_for_update(of=("self",)).select_related("arena__event").filter(pk=table_id).first()
        if table is None:
            return 0
        arena = table.arena
        hooks = formats.hooks(arena.event.game)
        hands = _counted_hands(table.room_id) if table.room_id else []
        played = [h for h in hands if not _is_void(h)][: arena.hands_per_table]
        done = set(ArenaScore.objects.filter(table=table).values_list("hand_id", flat=True).distinct())
        todo = [h for h in played if h.complete and h.pk not in done]
        ids = [pid for pid in table.players if pid]
        players = {p.pk: p for p in ArenaPlayer.objects.select_for_update().filter(pk__in=ids)}
        if todo:
            ends = dict(HandAction.objects.filter(hand__in=todo).order_by().values("hand").annotate(last=Max("created"))
                        .values_list("hand", "last"))
            rows = []
            for hand in todo:
                results = hooks.arena_result(hand.summary or {})
                counted = scoring.counts(ends.get(hand.pk), arena.ends_at)
                for seat, pid in enumerate(table.players):
                    if not pid or pid not in players:
                        continue
                    p = players[pid]
                    result, base = results[seat] if results else (scoring.VOID, 0)
                    berserk = pid in (table.berserk or [])
                    hs = scoring.hand_score(result, base, p.streak, berserk=berserk, counted=counted)
                    rows.append(ArenaScore(arena=arena, table=table, hand=hand, player=p, result=result,
                                           base=base, points=hs.points, fire=hs.fire,
                                           berserk=berserk and counted, counted=counted))
                    p.streak = hs.streak
            ArenaScore.objects.bulk_create(rows)
            for p in players.values():
                p.save(update_fields=["streak"])
        complete = sum(1 for h in played if h.complete)
        room = Room.objects.filter(pk=table.room_id).select_related("owner").first() if table.room_id else None
        over = arena.ends_at is not None and now >= arena.ends_at
        closed = room is None or room.status == Room.Status.CLOSED
        if not table.finished and (complete >= arena.hands_per_table or over or closed):
            table.finished = now
            table.save(update_fields=["finished"])
            for p in players.values():
                if p.table_id == table.pk:
                    p.table = None
                    if p.state == ArenaPlayer.State.PLAYING:
                        p.state = ArenaPlayer.State.WAITING
                    p.waiting_since = now
                    p.save(update_fields=["table", "state", "waiting_since"])
            if room is not None and not closed:
                game_services.close_room(room, room.owner)
            finished = True
    if todo or finished:
        notify.event_changed(arena.pk)
    return len(todo)


def on_hand_completed(sender, room_id: int, **kwargs) -> None:
    """Receiver of ``games.signals.hand_completed``: score the arena table of
    ``room_id`` (nothing for other rooms) and seat whoever waits."""
    table_id = ArenaTable.objects.filter(room_id=room_id).values_list("pk", "arena_id").first()
    if table_id is None:
        return
    score_table(table_id[0])
    seat_pool(table_id[1])


def advance_arena(event_id: int) -> str:
    """One sweep step: score and finish tables (hands whose signal was lost,
    the clock's end), seat the pool, and finish the arena once the clock ran
    out and every table finished.  Returns ``"finished"``, ``"running"`` or
    ``"idle"``."""
    arena = Arena.objects.select_related("event").get(pk=event_id)
    if arena.event.status not in (Event.Status.RUNNING,):
        return "idle"
    for tid in ArenaTable.objects.filter(arena=arena, finished__isnull=True).values_list("pk", flat=True):
        score_table(tid)
    now = timezone.now()
    if arena.ends_at and now >= arena.ends_at:
        with transaction.atomic():
            if not ArenaTable.objects.filter(arena=arena, finished__isnull=True).exists():
                changed = Event.objects.filter(pk=arena.pk, status=Event.Status.RUNNING).update(
                    status=Event.Status.FINISHED)
                if changed:
                    ArenaPlayer.objects.filter(arena=arena, state=ArenaPlayer.State.WAITING).update(
                        waiting_since=None)
                    notify.event_changed(arena.pk)
                return "finished"
        return "running"
    seat_pool(arena.pk)
    return "running"


def start_due_arenas(now=None) -> int:
    """Start every scheduled arena whose start has come (created with its
    ``starts_at``, its event still registering, e.g. the site's,
    :mod:`clubs.arena.site`): the event runs and the pool is seated from then
    on.  Idempotent (a conditional update); returns how many were started."""
    now = now or timezone.now()
    due = list(Event.objects.filter(
        format=Event.Format.ARENA, status=Event.Status.REGISTERING,
        arena__starts_at__isnull=False, arena__starts_at__lte=now).values_list("pk", flat=True))
    started = 0
    for pk in due:
        if Event.objects.filter(pk=pk, status=Event.Status.REGISTERING).update(status=Event.Status.RUNNING):
            started += 1
            notify.event_changed(pk)
    return started


def sweep_arenas() -> int:
    """Start the scheduled arenas whose start has come, then advance every
    running arena (after every round sweep); returns how many ran."""
    start_due_arenas()
    ids = list(Arena.objects.filter(event__status=Event.Status.RUNNING).values_list("pk", flat=True))
    for aid in ids:
        try:
            advance_arena(aid)
        except Exception:
            log.exception("arena sweep: arena %s failed", aid)
    return len(ids)


# --------------------------------------------------------------------------- deal planner


class ArenaPlanner:
    """The :mod:`games.services.dealing` planner of arena tables (None for
    other rooms): deal the table's set (void deals not counted), nothing
    after the clock or once the table finished."""

    def may_deal(self, room) -> bool | None:
        table = ArenaTable.objects.select_related("arena").filter(room_id=room.pk).first()
        if table is None:
            return None
        arena = table.arena
        if table.finished or not is_open(arena):
            return False
        summaries = Hand.objects.filter(match__room_id=room.pk).values_list("summary", flat=True)
        dealt = sum(1 for summary in summaries if not (summary or {}).get("voided"))  # a void deal is dealt again
        return dealt < arena.hands_per_table

    def plan(self, room):
        return None

    def turn_seconds(self, room, seat: int) -> int | None:
        """Half the room's time limit for a seat whose player went berserk
        (:func:`.scoring.berserk_seconds`); None otherwise.  The berserk seats
        of a room are read once per process (fixed when the table is made)."""
        seats = _berserk_seats.get(room.pk)
        if seats is None:
            row = ArenaTable.objects.filter(room_id=room.pk).values_list("players", "berserk").first()
            seats = tuple(i for i, pid in enumerate(row[0]) if pid and pid in (row[1] or [])) if row else ()
            if len(_berserk_seats) >= _BERSERK_KEEP:
                _berserk_seats.clear()
            _berserk_seats[room.pk] = seats
        return scoring.berserk_seconds(room.turn_seconds) if seat in seats else None


PLANNER = ArenaPlanner()

#: room id -> the seats playing berserk (an empty tuple for any other room).
_berserk_seats: dict[int, tuple] = {}
_BERSERK_KEEP = 20_000
roomcache.on_reset(_berserk_seats.clear)


# --------------------------------------------------------------------------- reading


def leaderboard(event_id: int) -> list[dict]:
    """The arena's players, best first: ``rank``, ``player`` (ArenaPlayer),
    ``points`` (counted), ``wins``, ``hands``, ``fire`` (on a streak now),
    ``marks`` (the last results, oldest first, at most 12: "W"/"D"/"L", with
    "F" for a win on fire)."""
    players = list(ArenaPlayer.objects.filter(arena_id=event_id).select_related("team").annotate(
        total=Sum("scores__points", filter=Q(scores__counted=True)),
        wins=Count("scores", filter=Q(scores__counted=True, scores__result=ArenaScore.Result.WIN)),
        hands=Count("scores", filter=Q(scores__counted=True) & ~Q(scores__result=ArenaScore.Result.VOID)),
    ))
    marks: dict[int, list[str]] = {}
    for pid, result, fire in ArenaScore.objects.filter(arena_id=event_id, counted=True).exclude(
            result=ArenaScore.Result.VOID).order_by("hand_id").values_list("player_id", "result", "fire"):
        marks.setdefault(pid, []).append({"win": "F" if fire else "W", "draw": "D", "loss": "L"}[result])
    by_id = {p.pk: p for p in players}
    order = scoring.ranked([(p.pk, p.total or 0, p.wins) for p in players])
    return [
        {"rank": rank, "player": by_id[pid], "points": by_id[pid].total or 0, "wins": by_id[pid].wins,
         "hands": by_id[pid].hands, "fire": scoring.on_fire(by_id[pid].streak),
         "marks": "".join(marks.get(pid, [])[-12:])}
        for rank, pid in order
    ]


def team_standings(event_id: int, board: list[dict] | None = None) -> list[dict]:
    """A team battle's standings: per club ``team`` (Club), ``total`` (its
    best ``team_size`` players' points), ``players`` (those players); empty
    for an arena that is no team battle."""
    arena = Arena.objects.get(pk=event_id)
    if not arena.team_battle:
        return []
    board = board if board is not None else leaderboard(event_id)
    by_id = {row["player"].pk: row for row in board}
    totals = scoring.team_totals([(r["player"].pk, r["player"].team_id, r["points"]) for r in board], arena.team_size)
    clubs = {c.pk: c for c in arena.teams.all()}
    seen = {t.team for t in totals}
    out = [{"team": clubs.get(t.team), "total": t.total, "players": [by_id[i]["player"] for i in t.counted]}
           for t in totals]
    out += [{"team": c, "total": 0, "players": []} for pk, c in sorted(clubs.items()) if pk not in seen]
    return out


def current_table(event_id: int, user) -> ArenaTable | None:
    """``user``'s unfinished table in the arena, or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return ArenaTable.objects.filter(arena_id=event_id, finished__isnull=True,
                                     pk__in=ArenaPlayer.objects.filter(arena_id=event_id, user=user)
                                     .values("table_id")).select_related("room").first()


