"""Every change to an event goes through this module (one transaction each).

Organiser actions check ``clubs.manage_event`` for the event's club first
(:func:`clubs.services.require`) and raise :class:`~clubs.services.Forbidden`
with a message; nothing is changed then.  The game's behaviour (entry size,
seats, how a round scores) comes from :mod:`clubs.formats`; pairing and
standings from the pure :mod:`clubs.tournament`.  Starting a round creates the
rooms and seats through :mod:`games.services`' public functions only.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.validators import clean_text
from games import seating as seat_rules, services as game_services
from games.engine import GAMES, get_rules
from games.engine.cards import new_seed

from .. import formats
from . import notify
from ..models import Club, Correction, Entry, EntryPlayer, Event, EventLog, EventTable, Round
from ..results.standings import history, standings
from .announce import tables_ready
from ..schedule_models import registration_open
from ..services import ClubError, Conflict, Forbidden, require
from ..tournament.round_robin import round_robin_round, rounds_needed
from ..tournament.swiss import PairingEntry, swiss_pairs
from ..tournament.tables import TableEntry, swiss_tables
from ..teams.lineup import entry_size, expand_pairing, player_offset
from .rounds import finish_round

log = logging.getLogger(__name__)


def _manage(user, event: Event) -> None:
    require(user, "clubs.manage_event", event)


def _text(value, max_length: int) -> str:
    """``value`` stripped, or :class:`ClubError` when it is too long or holds
    NUL or a lone surrogate (:func:`accounts.validators.clean_text`)."""
    try:
        return clean_text(value, max_length)
    except ValidationError as exc:
        raise ClubError(exc.messages[0]) from None


#: Largest absolute value of a corrected result's number (game points, margins).
RESULT_BOUND = 10**9
#: The policy of an event's bots (bot entries without one of their own, and
#: the bots that fill an absent player's seat).
BOT_ENTRY_POLICY = "heuristic"


# --------------------------------------------------------------------------- events


def create_event(user, club: Club, *, name: str, game: str, format: str = Event.Format.SWISS,
                 movement: str = Event.Movement.SWISS, rounds: int = 3, hands_per_round: int | None = 2,
                 minutes_per_round: int | None = None, turn_seconds: int = 30, multiplier: int = 1,
                 bot_delay_ms: int = 800, no_show: str = Event.NoShow.BOT_COUNTS,
                 grace_minutes: int = 5) -> Event:
    """An organiser of ``club`` creates an event.  Raises :class:`Forbidden`
    (not an organiser of this club) or :class:`ClubError` (a setting out of
    range: no round length, round robin for a table game …)."""
    require(user, "clubs.manage_club", club)
    if game not in GAMES:
        raise ClubError(_("未知的游戏"))
    try:
        hooks = formats.hooks(game)
    except formats.NoTournament:
        raise ClubError(_("这个游戏还不能办比赛")) from None
    if format not in Event.Format.values or movement not in Event.Movement.values:
        raise ClubError(_("未知的赛制"))
    moving = movement if format in Event.BOARD_FORMATS else format
    if moving == Event.Format.ROUND_ROBIN and hooks.SHAPE != "match":
        raise ClubError(_("这个游戏每桌多于两方，不能打循环赛；请用瑞士制"))
    if format == Event.Format.TEAMS and hooks.SHAPE != "match":
        raise ClubError(_("团体复式赛需要两方对抗的游戏（搭档制）"))
    if not hands_per_round and not minutes_per_round:
        raise ClubError(_("请设定每轮局数或时限"))
    if format in Event.BOARD_FORMATS and not hands_per_round:
        raise ClubError(_("复式赛需要设定每轮局数（牌组数）"))
    if not 1 <= int(rounds) <= 50:
        raise ClubError(_("轮数须在 1 到 50 之间"))
    if not 5 <= int(turn_seconds) <= 600:
        raise ClubError(_("每步时限须在 5 到 600 秒之间"))
    name = _text(name, Event._meta.get_field("name").max_length)
    if not name:
        raise ClubError(_("请填写比赛名称"))
    return Event.objects.create(
        club=club, name=name, game=game, format=format, movement=movement,
        rounds=rounds, hands_per_round=hands_per_round or None, minutes_per_round=minutes_per_round or None,
        turn_seconds=turn_seconds, multiplier=multiplier, bot_delay_ms=bot_delay_ms,
        no_show=no_show, grace_minutes=grace_minutes, created_by=user,
    )


# --------------------------------------------------------------------------- entries


def _in_event(event: Event, user) -> Entry | None:
    return (
        event.entries.exclude(status=Entry.Status.WITHDRAWN).filter(players__user=user).first()
    )


def register(user, event: Event, partner: str | None = None) -> Entry:
    """``user`` enters ``event``: alone (one-player entries) or with the
    partner named by username (fixed pairs; the partner confirms with
    :func:`confirm`).  Both must be members of the club; nobody is in two
    entries.  Raises :class:`Forbidden` / :class:`Conflict` / :class:`ClubError`."""
    size = formats.hooks(event.game).ENTRY_SIZE
    require(user, "clubs.enter_event", event, _("只有本俱乐部的会员可以报名"))
    if refusal := seat_rules.play_refusal(user):  # a suspension (an app's seat rule)
        raise Forbidden(refusal)
    if event.status in (Event.Status.FINISHED, Event.Status.CANCELLED):
        raise Conflict(_("比赛已经结束"))
    if not registration_open(event):
        raise Conflict(_("报名已经截止"))
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()
        if _in_event(event, user):
            raise Conflict(_("你已经报名了"))
        _refuse_late_round_robin_entry(event)
        others = []
        if size > 1:
            name = (partner or "").strip()
            mate = get_user_model().objects.filter(username=name).first()
            if mate is None or mate == user:
                raise ClubError(_("请填写搭档的用户名"))
            if not mate.has_perm("clubs.enter_event", event):
                raise ClubError(_("搭档不是本俱乐部的会员"))
            if _in_event(event, mate):
                raise Conflict(_("搭档已经在另一组报名"))
            others = [mate]
        players = [user, *others]
        entry = Entry.objects.create(
            event=event,
            # the column holds 80 characters; two usernames may hold 300
            name=" / ".join(p.get_username() for p in players)[: Entry._meta.get_field("name").max_length],
            status=Entry.Status.ACTIVE if size == 1 else Entry.Status.PENDING,
        )
        EntryPlayer.objects.bulk_create(
            [EntryPlayer(entry=entry, index=i, user=p, confirmed=(i == 0)) for i, p in enumerate(players)]
        )
    notify.event_changed(event.pk)
    return entry


def confirm(user, entry: Entry) -> Entry:
    """The partner named in a pending entry confirms it; it becomes active."""
    with transaction.atomic():
        row = entry.players.filter(user=user).first()
        if row is None:
            raise Forbidden(_("这不是你的报名"))
        row.confirmed = True
        row.save(update_fields=["confirmed"])
        if not entry.players.filter(confirmed=False).exists():
            entry.status = Entry.Status.ACTIVE
            entry.save(update_fields=["status"])
    notify.event_changed(entry.event_id)
    return entry


def add_bot_entries(user, event: Event, count: int, policies: tuple[str, ...] = ()) -> list[Entry]:
    """An organiser adds ``count`` entries played by bots (demos, tests, filling
    a field).  ``policies``: the bots' policies, given to the entries in turn
    (``("heuristic", "random")``: every other entry plays at random; empty:
    :data:`BOT_ENTRY_POLICY`).  Raises :class:`Conflict` for an unknown policy."""
    _manage(user, event)
    if any(p not in game_services.POLICIES for p in policies):
        raise Conflict(_("未知的机器人类型"))
    size = entry_size(event)
    start = event.entries.filter(is_bot=True).count()
    out = []
    with transaction.atomic():
        _refuse_late_round_robin_entry(event)
        for i in range(count):
            entry = Entry.objects.create(
                event=event, name=_("机器人%(n)s") % {"n": start + i + 1}, status=Entry.Status.ACTIVE, is_bot=True,
                bot_policy=policies[i % len(policies)] if policies else "",
            )
            EntryPlayer.objects.bulk_create(
                [EntryPlayer(entry=entry, index=k, user=None, confirmed=True) for k in range(size)]
            )
            out.append(entry)
    notify.event_changed(event.pk)
    return out


def withdraw(user, entry: Entry) -> Entry:
    """A player of the entry, or an organiser, withdraws it: it is not paired
    in later rounds (its results so far stay).  An audit line records who.
    Raises :class:`Conflict` once the event is over or for an entry already
    withdrawn."""
    event = entry.event
    if not entry.players.filter(user=user).exists():
        _manage(user, event)
    if event.status in (Event.Status.FINISHED, Event.Status.CANCELLED):
        raise Conflict(_("比赛已经结束"))
    if entry.status == Entry.Status.WITHDRAWN:
        raise Conflict(_("已经退赛了"))
    with transaction.atomic():
        entry.status = Entry.Status.WITHDRAWN
        entry.withdrawn_after = event.round_set.exclude(status=Round.Status.PREVIEW).count()
        entry.save(update_fields=["status", "withdrawn_after"])
        log_line(event, user, EventLog.Action.WITHDRAW, entry.name)
    notify.event_changed(event.pk)
    return entry


# --------------------------------------------------------------------------- organiser controls


def log_line(event: Event, user, action: str, detail: str) -> EventLog:
    """Add a line to ``event``'s audit trail: ``user`` did ``action`` (an
    :class:`EventLog.Action`), ``detail`` in words (names, "轮数 3 → 4")."""
    return EventLog.objects.create(event=event, by=user, action=action, detail=detail[:300])


def _member(event: Event, username: str, role: str):
    """The club member called ``username`` (stripped), free to enter ``event``;
    :class:`ClubError` naming ``role`` ("会员"/"搭档") otherwise."""
    name = (username or "").strip()
    who = get_user_model().objects.filter(username=name).first() if name else None
    if who is None or not who.has_perm("clubs.enter_event", event):
        raise ClubError(_("%(role)s“%(name)s”不是本俱乐部的会员") % {"role": role, "name": name})
    if _in_event(event, who):
        raise Conflict(_("%(name)s 已经报名了") % {"name": who.get_username()})
    return who


def register_for(user, event: Event, member: str, partner: str | None = None) -> Entry:
    """An organiser enters a club member (and, for fixed pairs, the partner:
    both by username) on their behalf; the entry is active at once (the
    organiser vouches for both).  Raises :class:`Forbidden` (not an organiser),
    :class:`Conflict` (already entered, event over), :class:`ClubError` (not a
    member, partner missing).  Audit line: the entry's name."""
    _manage(user, event)
    if event.status in (Event.Status.FINISHED, Event.Status.CANCELLED):
        raise Conflict(_("比赛已经结束"))
    size = formats.hooks(event.game).ENTRY_SIZE
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()
        players = [_member(event, member, _("会员"))]
        if size > 1:
            if not (partner or "").strip():
                raise ClubError(_("请填写搭档的用户名"))
            mate = _member(event, partner, _("搭档"))
            if mate == players[0]:
                raise ClubError(_("请填写搭档的用户名"))
            players.append(mate)
        entry = Entry.objects.create(
            event=event, name=" / ".join(p.get_username() for p in players), status=Entry.Status.ACTIVE,
        )
        EntryPlayer.objects.bulk_create(
            [EntryPlayer(entry=entry, index=i, user=p, confirmed=True) for i, p in enumerate(players)]
        )
        log_line(event, user, EventLog.Action.REGISTER, entry.name)
    notify.event_changed(event.pk)
    return entry


def substitute(user, entry: Entry, index: int, username: str) -> Entry:
    """An organiser names ``username`` (a club member not in another entry) to
    play for player ``index`` (0-based) of ``entry`` from now on: the
    substitute takes that player's place in the entry, and so may take the
    entry's seat at its event table (:mod:`clubs.guards`; the player replaced
    no longer may).  Results so far stay with the entry.  Audit line "entry:
    old → new".  Raises :class:`Forbidden`, :class:`ClubError`, :class:`Conflict`."""
    event = entry.event
    _manage(user, event)
    if event.status in (Event.Status.FINISHED, Event.Status.CANCELLED):
        raise Conflict(_("比赛已经结束"))
    if entry.is_bot:
        raise ClubError(_("机器人参赛者不需要替补"))
    with transaction.atomic():
        row = entry.players.select_for_update().filter(index=index).first()
        if row is None:
            raise ClubError(_("没有这名队员"))
        who = _member(event, username, _("替补"))
        old = row.user.get_username() if row.user_id else "🤖"
        row.user = who
        row.confirmed = True
        row.save(update_fields=["user", "confirmed"])
        names = [p.user.get_username() if p.user_id else "🤖" for p in entry.players.order_by("index")]
        entry.name = " / ".join(names)[:80]
        if entry.status == Entry.Status.PENDING and not entry.players.filter(confirmed=False).exists():
            entry.status = Entry.Status.ACTIVE
        entry.save(update_fields=["name", "status"])
        log_line(event, user, EventLog.Action.SUBSTITUTE, f"{entry.name}: {old} → {who.get_username()}")
    notify.event_changed(event.pk)
    return entry


#: Fields an organiser may edit before the first round starts, with labels for the audit line.
EDITABLE = {
    "name": gettext_lazy("名称"), "rounds": gettext_lazy("轮数"), "hands_per_round": gettext_lazy("每轮局数"),
    "minutes_per_round": gettext_lazy("每轮时限（分钟）"), "turn_seconds": gettext_lazy("每步时限（秒）"),
    "multiplier": gettext_lazy("倍数"), "bot_delay_ms": gettext_lazy("机器人延迟（毫秒）"), "no_show": gettext_lazy("缺席处理"),
    "grace_minutes": gettext_lazy("缺席宽限（分钟）"),
}


def edit_event(user, event: Event, **changes) -> Event:
    """An organiser changes the settings of an event that has not started
    (no round started; keys of :data:`EDITABLE`, checked as at creation).
    Audit line: each changed setting "label old → new"; nothing changed, no
    line.  Raises :class:`Conflict` once a round started, :class:`ClubError`
    for a value out of range."""
    _manage(user, event)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.status != Event.Status.REGISTERING or event.round_set.exclude(
            status=Round.Status.PREVIEW
        ).exists():
            raise Conflict(_("比赛已经开始，不能再修改"))
        changes = {k: v for k, v in changes.items() if k in EDITABLE}
        name = (changes.get("name", event.name) or "").strip()
        if not name:
            raise ClubError(_("请填写比赛名称"))
        changes["name"] = name[:80]
        for key in ("hands_per_round", "minutes_per_round"):
            if key in changes:
                changes[key] = changes[key] or None
        hands = changes.get("hands_per_round", event.hands_per_round)
        minutes = changes.get("minutes_per_round", event.minutes_per_round)
        if not hands and not minutes:
            raise ClubError(_("请设定每轮局数或时限"))
        if event.format in Event.BOARD_FORMATS and not hands:
            raise ClubError(_("复式赛需要设定每轮局数（牌组数）"))
        if not 1 <= int(changes.get("rounds", event.rounds)) <= 50:
            raise ClubError(_("轮数须在 1 到 50 之间"))
        if not 5 <= int(changes.get("turn_seconds", event.turn_seconds)) <= 600:
            raise ClubError(_("每步时限须在 5 到 600 秒之间"))
        if changes.get("no_show", event.no_show) not in Event.NoShow.values:
            raise ClubError(_("未知的缺席处理"))
        said = []
        for key, value in changes.items():
            old = getattr(event, key)
            if old != value:
                said.append(f"{EDITABLE[key]} {old if old is not None else '—'} → {value if value is not None else '—'}")
                setattr(event, key, value)
        if not said:
            return event
        event.save()
        log_line(event, user, EventLog.Action.EDIT, "; ".join(said))
        if event.round_set.filter(status=Round.Status.PREVIEW).exists():
            event.round_set.filter(status=Round.Status.PREVIEW).delete()  # pair again with the new settings
    notify.event_changed(event.pk)
    return event


def cancel_event(user, event: Event) -> Event:
    """An organiser cancels an event that is not over: a running round is
    ended at once (its tables finished with the hands completed so far, rooms
    closed), a round in preview is dropped, nothing is paired again.  Audit
    line.  Raises :class:`Conflict` for an event already over."""
    _manage(user, event)
    if event.status in (Event.Status.FINISHED, Event.Status.CANCELLED):
        raise Conflict(_("比赛已经结束"))
    for r in event.round_set.filter(status=Round.Status.RUNNING):
        finish_round(r.pk, early=True)
    with transaction.atomic():
        event.round_set.filter(status=Round.Status.PREVIEW).delete()
        Event.objects.filter(pk=event.pk).update(status=Event.Status.CANCELLED)
        event.status = Event.Status.CANCELLED
        log_line(event, user, EventLog.Action.CANCEL, event.name)
    notify.event_changed(event.pk)
    return event


# --------------------------------------------------------------------------- pairing


def active_entries(event: Event) -> list[Entry]:
    return list(event.entries.filter(status=Entry.Status.ACTIVE).order_by("id"))


def pair_round(user, event: Event, avoid_current: bool = False) -> Round:
    """An organiser pairs the next round (a PREVIEW round, replaced if it
    exists; ``avoid_current`` asks for a pairing without the current pairs).
    Raises :class:`Conflict` while a round is running or when all rounds are played."""
    _manage(user, event)
    hooks = formats.hooks(event.game)
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()
        if Event.objects.filter(pk=event.pk, status=Event.Status.CANCELLED).exists():
            raise Conflict(_("比赛已经取消"))
        if event.round_set.filter(status=Round.Status.RUNNING).exists():
            raise Conflict(_("上一轮还没有结束"))
        played = event.round_set.filter(status=Round.Status.FINISHED).count()
        if played >= event.rounds:
            raise Conflict(_("所有轮次都已打完"))
        preview = event.round_set.filter(status=Round.Status.PREVIEW).first()
        entries = active_entries(event)
        if len(entries) < (2 if hooks.SHAPE == "match" else 1):
            raise Conflict(_("报名的参赛者不够"))
        ids = [e.pk for e in entries]
        table = standings(event)
        active = set(ids)
        ranking = [s.entry for s in table if s.entry in active]
        ranking += [i for i in ids if i not in set(ranking)]
        rank = {e: i for i, e in enumerate(ranking)}
        score = {s.entry: s.score for s in table}
        past = history(event)
        avoid = []
        if avoid_current and preview is not None:
            current = preview.pairing.get("matches") or preview.pairing.get("tables", [])
            avoid = [frozenset(t) for t in current if None not in t]
        if event.pairing_movement == Event.Format.ROUND_ROBIN:
            pairing = _round_robin_pairing(event, ids, played, past)
        elif hooks.SHAPE == "match":
            p = swiss_pairs(
                [
                    PairingEntry(i, score.get(i, 0), frozenset(past["opponents"].get(i, ())), i in past["byes"], rank[i])
                    for i in ids
                ],
                avoid=avoid,
            )
            pairing = {"tables": [list(x) for x in p.pairs], "bye": p.bye, "bots": 0, "repeats": p.repeats}
        else:
            seating = swiss_tables(
                [
                    TableEntry(
                        i, rank[i], past["tablemates"].get(i, {}), tuple(past["seats"].get(i, ())),
                        past["bot_tables"].get(i, 0),
                    )
                    for i in ids
                ],
                size=hooks.ENTRIES_PER_TABLE,
            )
            pairing = {
                "tables": [list(t) for t in seating.tables], "bye": None, "bots": seating.bots,
                "bot_table": seating.bot_table, "repeats": seating.repeats,
            }
        if event.is_teams:  # each match of teams at two tables, the teams' seats swapped
            pairing = expand_pairing(pairing)
        if preview is None:
            preview = Round.objects.create(event=event, number=played + 1, pairing=pairing)
        else:
            preview.pairing = pairing
            preview.save(update_fields=["pairing"])
    notify.event_changed(event.pk)
    return preview


def _round_robin_started(event: Event) -> bool:
    return event.pairing_movement == Event.Format.ROUND_ROBIN and event.round_set.exclude(
        status=Round.Status.PREVIEW
    ).exists()


def _refuse_late_round_robin_entry(event: Event) -> None:
    """A round robin's schedule is fixed when round 1 starts (every entry
    meets every other once); an entry added later could not, so it is
    refused with the reason."""
    if _round_robin_started(event):
        raise Conflict(_("循环赛已经开始：对阵表在第 1 轮开始时已排定，之后加入的参赛者无法与每位参赛者各赛一次，所以不能再报名"))


def _round_robin_pairing(event: Event, ids: list[int], played: int, past: dict) -> dict:
    """Round ``played + 1`` of a round robin (the circle method) over the
    **roster** fixed when round 1 started (``pairing["roster"]``), so a
    later change of the field never repeats a pair.  An entry not
    in the roster (a late entry that got past the registration check) is
    refused with a :class:`Conflict` naming it; a withdrawn entry's opponent
    is paired with another such entry it has not met, or gets the bye;
    a pairing that would repeat is refused instead of made."""
    first = event.round_set.exclude(status=Round.Status.PREVIEW).order_by("number").first()
    roster = sorted(ids) if first is None else sorted(first.pairing.get("roster") or [
        *[i for t in first.pairing.get("tables", []) for i in t if i],
        *([first.pairing["bye"]] if first.pairing.get("bye") else []),
    ])
    late = [i for i in ids if i not in set(roster)]
    if late:
        names = ", ".join(Entry.objects.filter(pk__in=late).order_by("id").values_list("name", flat=True))
        raise Conflict(_("%(names)s 在循环赛开始后才加入，无法排入已定的对阵表；请先让其退赛") % {"names": names})
    if played >= rounds_needed(len(roster)):
        raise Conflict(_("循环赛已经打完"))
    pairs, bye = round_robin_round(roster, played)
    active = set(ids)
    tables = [list(p) for p in pairs if p[0] in active and p[1] in active]
    left = [x for p in pairs for x in p if x in active and not (p[0] in active and p[1] in active)]
    if bye is not None and bye in active:
        left.append(bye)
    while len(left) > 1:
        a = left.pop(0)
        b = next((x for x in left if x not in past["opponents"].get(a, set())), None)
        if b is None:
            raise Conflict(_("退赛之后，这一轮无法不重复对手地配对"))
        left.remove(b)
        tables.append([a, b])
    return {"tables": tables, "bye": left[0] if left else None, "bots": 0, "repeats": 0, "roster": roster}


def swap(user, round_: Round, a: int, b: int) -> Round:
    """An organiser swaps entries ``a`` and ``b`` (ids) in a PREVIEW pairing
    (the bye included).  Raises :class:`Conflict` once the round started."""
    _manage(user, round_.event)
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        if round_.status != Round.Status.PREVIEW:
            raise Conflict(_("这一轮已经开始，不能再调整配对"))
        p = round_.pairing
        cells = [(t, k) for t, table in enumerate(p["tables"]) for k, x in enumerate(table)]

        def where(x):
            if p.get("bye") == x:
                return ("bye", None)
            return next(((t, k) for t, k in cells if p["tables"][t][k] == x), None)

        wa, wb = where(a), where(b)
        if wa is None or wb is None or a == b:
            raise ClubError(_("请选两个在本轮配对中的参赛者"))

        def put(w, x):
            if w[0] == "bye":
                p["bye"] = x
            else:
                p["tables"][w[0]][w[1]] = x

        put(wa, b)
        put(wb, a)
        if p.get("matches") is not None:  # team duplicate: the two tables of a match follow its first
            p = expand_pairing({**p, "tables": p["tables"][0::2]})
        p["swapped"] = True
        round_.pairing = p
        round_.save(update_fields=["pairing"])
    notify.event_changed(round_.event_id)
    return round_


# --------------------------------------------------------------------------- starting a round


def _boards(event: Event) -> list[dict]:
    """Duplicate boards: per board a seed and the fresh start (no tribute)."""
    rules = get_rules(event.game)
    start = rules.match_to_json(rules.new_match({**rules.default_options(), "multiplier": event.multiplier}))
    rng = random.Random(new_seed())
    return [{"seed": rng.getrandbits(62), "start": start} for _ in range(event.hands_per_round or 0)]


def start_round(user, round_: Round) -> Round:
    """An organiser starts a PREVIEW round: one room per table (owned by the
    organiser), every human seated where the game's seat plan puts their
    entry, bots in every other seat; the round clock and the no-show grace
    start.  Raises :class:`Conflict` if the round is not in preview."""
    event = round_.event
    _manage(user, event)
    hooks = formats.hooks(event.game)
    plan = hooks.seat_plan()
    now = timezone.now()
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        if round_.status != Round.Status.PREVIEW:
            raise Conflict(_("这一轮不在预览状态"))
        entries = {e.pk: e for e in event.entries.prefetch_related("players")}
        round_.status = Round.Status.RUNNING
        round_.started = now
        if event.minutes_per_round:
            round_.deadline = now + timedelta(minutes=event.minutes_per_round)
        round_.seat_deadline = now + timedelta(minutes=event.grace_minutes)
        if event.has_boards:
            round_.boards = _boards(event)
        round_.save()
        if event.status == Event.Status.REGISTERING:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status"])
        tables = []
        for number, ids in enumerate(round_.pairing.get("tables", []), start=1):
            room = game_services.create_room(
                user, event.game, f"{event.name} R{round_.number} T{number}"[:60],
                multiplier=event.multiplier, turn_seconds=event.turn_seconds,
                bot_delay_ms=event.bot_delay_ms, take_seat=False,
            )
            table = EventTable.objects.create(round=round_, number=number, entries=ids, room=room)
            table.round = round_
            tables.append(table)
            offset = player_offset(table)  # team duplicate: the team's pair for this table
            bot_seats = {}
            for seat, (entry_index, player_index) in enumerate(plan):
                player_index += offset
                entry = entries.get(ids[entry_index]) if entry_index < len(ids) and ids[entry_index] else None
                if entry is None or entry.is_bot:
                    if entry is not None and entry.bot_policy:
                        bot_seats[seat] = entry.bot_policy
                    continue
                players = sorted(entry.players.all(), key=lambda p: p.index)
                player = players[player_index] if player_index < len(players) else None
                if player is not None and player.user_id:
                    try:
                        game_services.take_seat(room, player.user, seat)
                    except game_services.Forbidden:  # suspended since entering: a bot plays the seat
                        pass
            try:
                game_services.fill_bots(room, user, BOT_ENTRY_POLICY, seat_policies=bot_seats)
            except game_services.Conflict:  # every seat is a human's
                pass
    notify.event_changed(event.pk)
    transaction.on_commit(lambda: tables_ready(round_))
    return round_


def set_paused(user, round_: Round, paused: bool) -> Round:
    """An organiser pauses (the round clock stops counting: its deadline moves
    on by the paused time when resumed) or resumes a running round."""
    _manage(user, round_.event)
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        if round_.status != Round.Status.RUNNING:
            raise Conflict(_("这一轮没有在进行"))
        now = timezone.now()
        if paused and not round_.paused:
            round_.paused = True
            round_.pairing = {**round_.pairing, "paused_at": now.isoformat()}
        elif not paused and round_.paused:
            since = datetime.fromisoformat(round_.pairing.get("paused_at") or now.isoformat())
            if round_.deadline:
                round_.deadline += now - since
            round_.paused = False
        round_.save()
    notify.event_changed(round_.event_id)
    return round_


def end_round_now(user, round_: Round) -> Round:
    """An organiser ends a running round early: every table is finished with
    the hands completed so far (a hand in play is not counted)."""
    _manage(user, round_.event)
    finish_round(round_.pk, early=True)
    round_.refresh_from_db()
    return round_


# --------------------------------------------------------------------------- corrections


def _result_shape_ok(result, table: EventTable) -> bool:
    """``result`` is a list with one object per entry of ``table`` whose keys
    are among those the game's ``round_result`` gives (``points``,
    ``margin``, ``firsts``, ``hands``) and whose values are integers of at most
    :data:`RESULT_BOUND` in absolute value (a malformed correction
    stored earlier broke the event page afterwards)."""
    if not isinstance(result, list) or len(result) != len(table.entries):
        return False
    keys = set().union(*(r.keys() for r in formats.hooks(table.round.event.game).round_result([])))
    return all(
        isinstance(r, dict) and set(r) <= keys
        and all(isinstance(v, int) and not isinstance(v, bool) and abs(v) <= RESULT_BOUND for v in r.values())
        for r in result
    )


def correct_result(user, table: EventTable, result: list[dict], reason: str, *,
                   boards: list | None = None, forfeit: list | None = None) -> Correction | None:
    """An organiser replaces a table's result with a written reason; the old
    and new result are kept as a :class:`Correction` (the audit trail).

    ``result``: per entry index, the keys of the game's ``round_result``
    (``hands`` is kept from the stored result when left out).  ``boards``:
    for a duplicate table, per board the scores per entry index (None: not
    played), replacing the stored ones (None: kept).  ``forfeit``: the entry
    ids scored as absent (the no-show rule); None or empty: nobody (a
    corrected forfeit, e.g. to a draw, then counts as played).  Standings,
    matchpoints and the travelling table read the corrected result.

    Returns None and stores nothing when the new result equals the stored
    one (saving the form unchanged).  Raises :class:`Forbidden` (not an
    organiser), :class:`ClubError` (no reason; a result of the wrong shape;
    the round has not started)."""
    _manage(user, table.round.event)
    reason = _text(reason, Correction._meta.get_field("reason").max_length)
    if not _result_shape_ok(result, table):
        raise ClubError(_("成绩格式不对"))
    ids = {i for i in table.entries if i}
    absent = sorted({int(i) for i in (forfeit or [])})
    if not set(absent) <= ids:
        raise ClubError(_("缺席者须是这一桌的参赛者"))
    with transaction.atomic():
        table = EventTable.objects.select_for_update().select_related("round").get(pk=table.pk)
        if table.round.status == Round.Status.PREVIEW:
            raise ClubError(_("这一轮还没有开始"))
        before = table.result or {}
        old_entries = before.get("entries") or [{} for _ in table.entries]
        entries = [
            {**r, "hands": r.get("hands", (old_entries[k] if k < len(old_entries) else {}).get("hands", 0))}
            for k, r in enumerate(result)
        ]
        after = {**before, "entries": entries}
        if boards is not None:
            if any(b is not None and (not isinstance(b, list) or len(b) != len(table.entries)) for b in boards):
                raise ClubError(_("成绩格式不对"))
            after["boards"] = boards
        if absent:
            after["forfeit"] = absent
        else:
            after.pop("forfeit", None)
        same = {k: v for k, v in after.items() if k != "corrected"} == {
            k: v for k, v in before.items() if k != "corrected"
        }
        if same:
            return None
        if not reason:
            raise ClubError(_("请写明更正理由"))
        after["corrected"] = True
        row = Correction.objects.create(table=table, by=user, reason=reason, before=table.result, after=after)
        table.result = after
        if table.finished is None:
            table.finished = timezone.now()
        table.save(update_fields=["result", "finished"])
    notify.event_changed(table.round.event_id)
    return row


__all__ = [
    "ClubError", "Conflict", "Forbidden", "add_bot_entries", "cancel_event", "confirm", "correct_result",
    "create_event", "edit_event", "end_round_now", "log_line", "pair_round", "register", "register_for",
    "set_paused", "start_round", "substitute", "swap", "withdraw",
]
