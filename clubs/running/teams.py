"""Team duplicate's commands: entering a team, swapping a substitute in.

One transaction each, like :mod:`clubs.running.events`; the team's shape and
the pair each table seats are :mod:`clubs.teams.lineup`'s.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Entry, EntryPlayer, Event, EventLog, Round
from ..services import ClubError, Conflict, require
from ..teams.lineup import team_size
from . import events as ev
from . import notify

#: Substitutes a team may name besides its four players.
MAX_SUBSTITUTES = 2


def register_team(user, event: Event, name: str, teammates: list[str], substitutes: list[str] = ()) -> Entry:
    """``user`` enters a team: ``user`` and ``teammates`` (usernames, in
    seat order: user and teammates[0] the first pair, teammates[1:3] the
    second) and up to :data:`MAX_SUBSTITUTES` substitutes, all club members
    not entered elsewhere.  The organiser's registration makes the entry
    active at once (``clubs.manage_event``); otherwise the teammates confirm
    as a partner does (:func:`clubs.running.events.confirm`).
    Raises :class:`Forbidden`, :class:`Conflict`, :class:`ClubError`."""
    if not event.is_teams:
        raise ClubError(_("这不是团体赛"))
    require(user, "clubs.enter_event", event, _("只有本俱乐部的会员可以报名"))
    need = team_size(event) - 1
    names = [n.strip() for n in teammates if n and n.strip()]
    subs = [n.strip() for n in substitutes if n and n.strip()]
    if len(names) != need:
        raise ClubError(_("一支队伍须有 %(n)s 名队员") % {"n": need + 1})
    if len(subs) > MAX_SUBSTITUTES:
        raise ClubError(_("替补最多 %(n)s 名") % {"n": MAX_SUBSTITUTES})
    if event.status in (Event.Status.FINISHED, Event.Status.CANCELLED):
        raise Conflict(_("比赛已经结束"))
    organiser = user.has_perm("clubs.manage_event", event)
    users = [user]
    model = get_user_model()
    for n in names + subs:
        mate = model.objects.filter(username=n).first()
        if mate is None or mate in users:
            raise ClubError(_("请填写队员的用户名：%(name)s") % {"name": n})
        if not mate.has_perm("clubs.enter_event", event):
            raise ClubError(_("%(name)s 不是本俱乐部的会员") % {"name": n})
        users.append(mate)
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()
        taken = EntryPlayer.objects.filter(entry__event=event, user__in=users).exclude(
            entry__status=Entry.Status.WITHDRAWN)
        if taken.exists():
            raise Conflict(_("有队员已经在另一队报名"))
        ev._refuse_late_round_robin_entry(event)
        entry = Entry.objects.create(
            event=event, name=ev._text(name, 80) or " / ".join(u.get_username() for u in users[:2])[:80],
            status=Entry.Status.ACTIVE if organiser else Entry.Status.PENDING,
        )
        EntryPlayer.objects.bulk_create([
            EntryPlayer(entry=entry, index=k, user=u, confirmed=organiser or u == user)
            for k, u in enumerate(users)
        ])
        if organiser:
            ev.log_line(event, user, EventLog.Action.REGISTER, entry.name)
    notify.event_changed(event.pk)
    return entry


def swap_players(user, entry: Entry, a: int, b: int) -> Entry:
    """Swap the places of players ``a`` and ``b`` (indices) of a team, e.g. a
    substitute in for a player of the second pair; only while no round of the
    event is running (the seats of a running round stay as they are), by an
    organiser or the team's captain (player 0).  Audit line."""
    event = entry.event
    captain = entry.players.filter(index=0, user=user).exists()
    if not captain:
        require(user, "clubs.manage_event", event)
    if event.round_set.filter(status=Round.Status.RUNNING).exists():
        raise Conflict(_("本轮进行中，换人须等本轮结束"))
    with transaction.atomic():
        rows = {p.index: p for p in entry.players.select_for_update().filter(index__in=[a, b])}
        if a == b or set(rows) != {a, b}:
            raise ClubError(_("没有这名队员"))
        ua, ub = rows[a].user_id, rows[b].user_id
        EntryPlayer.objects.filter(pk=rows[a].pk).update(user_id=ub)
        EntryPlayer.objects.filter(pk=rows[b].pk).update(user_id=ua)
        name = {p.index: (p.user.get_username() if p.user_id else "🤖") for p in rows.values()}
        ev.log_line(event, user, EventLog.Action.SUBSTITUTE, f"{entry.name}: {name[a]} ⇄ {name[b]}")
    return entry
