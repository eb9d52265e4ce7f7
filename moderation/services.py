"""Blocks, reports, sanctions and the moderators' actions: every change of
this app's rows but reputation (:mod:`moderation.reputation`).

Errors are :class:`ModerationError` with a sentence for the player.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.validators import text_problem

from .models import Action, Block, Report, RoomRequirement

#: Reports a player may file: at most BURST in BURST_MINUTES, PER_DAY a day.
BURST = 3
BURST_MINUTES = 10
PER_DAY = 10
#: Longest note and moderator's reason, in characters.
NOTE_MAX = 500
#: Chat lines copied into a report, at most.
CHAT_LINES = 200
#: Days a player has to appeal an action.
APPEAL_DAYS = 14
#: Longest a mute or a suspension may last, in days (a ban has no end).
MAX_DAYS = 365

SANCTIONS = (Action.Kind.MUTE, Action.Kind.SUSPEND, Action.Kind.BAN)
PLAY_SANCTIONS = (Action.Kind.SUSPEND, Action.Kind.BAN)


class ModerationError(Exception):
    """A refused request; ``message`` is for the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# --------------------------------------------------------------------------- sanctions


def _in_force(now=None) -> Q:
    now = now or timezone.now()
    return Q(lifted__isnull=True) & (Q(ends__isnull=True) | Q(ends__gt=now))


def sanction(user, kinds, now=None) -> Action | None:
    """The sanction of one of ``kinds`` in force for ``user`` at ``now``
    (the one ending last; a ban first), or None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    rows = Action.objects.filter(_in_force(now), target=user, kind__in=kinds)
    return rows.order_by(F("ends").desc(nulls_first=True), "-id").first()


def suspension(user, now=None) -> Action | None:
    """``user``'s suspension or ban in force, or None."""
    return sanction(user, PLAY_SANCTIONS, now)


def suspended_ids(user_ids, now=None) -> set[int]:
    """Those of ``user_ids`` suspended or banned now (one query)."""
    return set(Action.objects.filter(_in_force(now), target_id__in=list(user_ids), kind__in=PLAY_SANCTIONS)
               .values_list("target_id", flat=True))


def until_text(action: Action) -> str:
    """"until <date>" or "permanently", for a sanction."""
    if action.ends is None:
        return _("永久")
    return _("至 %(when)s") % {"when": timezone.localtime(action.ends).strftime("%Y-%m-%d %H:%M")}


# --------------------------------------------------------------------------- blocks


def block(user, other) -> Block:
    """``user`` blocks ``other`` (again: nothing changes).  The other player
    is not told.  :class:`ModerationError` for oneself."""
    if other is None or other.pk == user.pk:
        raise ModerationError(_("不能把自己加入黑名单"))
    row, _created = Block.objects.get_or_create(user=user, blocked=other)
    return row


def unblock(user, other_id: int) -> int:
    """``user`` removes ``other_id`` from his list; how many rows went."""
    return Block.objects.filter(user=user, blocked_id=other_id).delete()[0]


def blocked_ids(user) -> set[int]:
    """Ids of the users ``user`` blocked."""
    return set(Block.objects.filter(user=user).values_list("blocked_id", flat=True))


def blocks_between(user_ids) -> list[tuple[int, int]]:
    """Every block among ``user_ids`` as ``(blocker, blocked)`` (one query)."""
    ids = list(user_ids)
    return list(Block.objects.filter(user_id__in=ids, blocked_id__in=ids).values_list("user_id", "blocked_id"))


# --------------------------------------------------------------------------- room minimum


def set_minimum(room, user, value: int) -> RoomRequirement:
    """The owner of ``room`` asks reputation ``value`` (0–100; 0: none) of
    players taking its seats from now on."""
    if room.owner_id != user.pk:
        raise ModerationError(_("只有房主可以设置入座要求"))
    if not isinstance(value, int) or not 0 <= value <= 100:
        raise ModerationError(_("最低信誉须在 0 到 100 之间"))
    row, _created = RoomRequirement.objects.update_or_create(room=room, defaults={"min_reputation": value})
    return row


def minimum(room) -> int:
    """The reputation ``room`` asks of its players (0: none)."""
    return RoomRequirement.objects.filter(room=room).values_list("min_reputation", flat=True).first() or 0


# --------------------------------------------------------------------------- reports


def played(hand, user) -> bool:
    """Whether ``user`` was dealt into ``hand``."""
    return any(p.get("user") == user.pk for p in hand.players or [])


def hand_at(room, when=None):
    """The room's hand being played at ``when`` (default: its latest)."""
    from games.models import Hand

    rows = Hand.objects.filter(match__room=room)
    if when is not None:
        rows = rows.filter(created__lte=when)
    return rows.order_by("-created", "-id").first()


def chat_of(hand) -> list[dict]:
    """The chat lines of ``hand``'s room while it was played (from its deal
    to the next deal), oldest first, as plain data kept with a report."""
    from games.models import ChatMessage, Hand

    nxt = (Hand.objects.filter(match__room_id=hand.match.room_id, created__gt=hand.created)
           .order_by("created").values_list("created", flat=True).first())
    rows = ChatMessage.objects.filter(room_id=hand.match.room_id, created__gte=hand.created)
    if nxt is not None:
        rows = rows.filter(created__lt=nxt)
    return [
        {"id": m.pk, "user": m.user_id, "name": m.user.get_username(), "text": m.text, "quick": m.quick,
         "time": m.created.isoformat(), "hidden": m.hidden}
        for m in rows.select_related("user").order_by("id")[:CHAT_LINES]
    ]


def file_report(reporter, reported=None, reason: str = "", note: str = "", source: str = Report.Source.PROFILE,
                hand=None, room=None, line=None, now=None) -> Report:
    """``reporter`` reports ``reported`` for ``reason`` with ``note``.

    ``line`` (a chat line) names the player and its room; a ``room`` (the
    table) its latest hand; ``hand`` itself (the replay).  The hand must be
    one ``reporter`` played (:class:`ModerationError` otherwise: a report on
    a hand I did not play is refused), and the reported player must have
    played it or written the line; its chat lines are copied into the
    report.  From a profile no hand is needed.  At most :data:`BURST` in
    :data:`BURST_MINUTES` minutes and :data:`PER_DAY` a day per reporter;
    the same open report again (reporter, player, hand) is answered with the
    first one."""
    now = now or timezone.now()
    if line is not None:
        reported = line.user
        room = line.room
        hand = hand_at(room, line.created)
    elif hand is None and room is not None:
        hand = hand_at(room)
    if reported is None or reported.pk == reporter.pk:
        raise ModerationError(_("不能举报自己"))
    if reason not in Report.Reason.values:
        raise ModerationError(_("请选择举报原因"))
    if source not in Report.Source.values:
        source = Report.Source.PROFILE
    note = (note or "").strip()
    if problem := text_problem(note):
        raise ModerationError(problem)
    if len(note) > NOTE_MAX:
        raise ModerationError(_("说明太长了（最多 %(n)d 个字）") % {"n": NOTE_MAX})
    if hand is None and source != Report.Source.PROFILE:
        raise ModerationError(_("这张桌上还没有牌局"))
    if hand is not None:
        if not played(hand, reporter):
            raise ModerationError(_("只能举报你参与过的牌局"))
        if line is None and not played(hand, reported):
            raise ModerationError(_("这位玩家没有参与这一局"))
        room = hand.match.room
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=reporter.pk).first()  # one filing at a time
        if hand is not None:
            same = Report.objects.filter(reporter=reporter, reported=reported, hand=hand,
                                         status=Report.Status.OPEN).first()
            if same is not None:
                return same
        mine = Report.objects.filter(reporter=reporter, created__gte=now - timedelta(days=1))
        if mine.count() >= PER_DAY or mine.filter(
                created__gte=now - timedelta(minutes=BURST_MINUTES)).count() >= BURST:
            raise ModerationError(_("举报太频繁了，请稍后再试"))
        return Report.objects.create(
            reporter=reporter, reported=reported, reason=reason, note=note, source=source, hand=hand,
            room=room, chat=chat_of(hand) if hand is not None else [], created=now,
        )


# --------------------------------------------------------------------------- moderators


def is_moderator(user) -> bool:
    """Whether ``user`` may see the queue and act (the ``moderation.moderate``
    permission, which the 版主 group holds)."""
    return bool(user and user.is_authenticated and user.has_perm("moderation.moderate"))


def history(user) -> dict:
    """A player's record for moderators: reports against him, actions taken."""
    return {
        "reports": list(Report.objects.filter(reported=user).select_related("reporter").order_by("-created")[:50]),
        "actions": list(Action.objects.filter(target=user).select_related("moderator").order_by("-created")[:50]),
    }


def act(moderator, target, kind: str, reason: str, days: int | None = None, report: Report | None = None,
        now=None) -> Action:
    """``moderator`` takes action ``kind`` on ``target`` (about ``report``,
    which is closed): dismiss, warn, mute chat or suspend from play for
    ``days`` days, or ban.  Logged as an :class:`Action`; the player is
    notified (not for a dismissal) with the reason and how to appeal.
    :class:`ModerationError` for a non-moderator, an unknown action, a
    missing reason or days out of 1–:data:`MAX_DAYS`."""
    now = now or timezone.now()
    if not is_moderator(moderator):
        raise ModerationError(_("只有版主可以处理举报"))
    if kind not in Action.Kind.values:
        raise ModerationError(_("未知的处理方式"))
    reason = (reason or "").strip()
    if not reason or text_problem(reason) or len(reason) > NOTE_MAX:
        raise ModerationError(_("请写明理由（最多 %(n)d 个字）") % {"n": NOTE_MAX})
    ends = None
    if kind in (Action.Kind.MUTE, Action.Kind.SUSPEND):
        if not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
            raise ModerationError(_("天数须在 1 到 %(n)d 之间") % {"n": MAX_DAYS})
        ends = now + timedelta(days=days)
    else:
        days = None
    if kind == Action.Kind.WARN:
        ends = now
    with transaction.atomic():
        if report is not None:
            closed = Report.objects.filter(pk=report.pk, status=Report.Status.OPEN).update(
                status=Report.Status.CLOSED, closed=now)
            if not closed:
                raise ModerationError(_("这个举报已经处理过了"))
        action = Action.objects.create(moderator=moderator, target=target, report=report, kind=kind, days=days,
                                       reason=reason, created=now, ends=ends)
        if kind != Action.Kind.DISMISS:
            _notify(action)
    return action


def lift(moderator, action: Action, now=None) -> Action:
    """A moderator ends a sanction early (an appeal granted); logged on the
    action (``lifted``)."""
    if not is_moderator(moderator):
        raise ModerationError(_("只有版主可以处理举报"))
    Action.objects.filter(pk=action.pk, lifted__isnull=True).update(lifted=now or timezone.now())
    action.refresh_from_db()
    return action


def appeal(user, action_id: int, text: str, now=None) -> Action:
    """``user`` appeals his action ``action_id`` once, within
    :data:`APPEAL_DAYS` days; the moderators' queue lists it."""
    now = now or timezone.now()
    action = Action.objects.filter(pk=action_id, target=user).exclude(kind=Action.Kind.DISMISS).first()
    if action is None:
        raise ModerationError(_("没有这条处理记录"))
    text = (text or "").strip()
    if not text or text_problem(text) or len(text) > 1000:
        raise ModerationError(_("请写下申诉理由（最多 1000 字）"))
    if action.appealed is not None:
        raise ModerationError(_("你已经申诉过了"))
    if action.created < now - timedelta(days=APPEAL_DAYS):
        raise ModerationError(_("申诉期已过"))
    Action.objects.filter(pk=action.pk, appealed__isnull=True).update(appeal=text, appealed=now)
    action.refresh_from_db()
    return action


def _notify(action: Action) -> None:
    """Tell the player, in his own language (:func:`accounts.preferences.language_of`)."""
    from django.utils import translation

    from accounts.preferences import language_of

    with translation.override(language_of(action.target)):
        _notify_now(action)


def _notify_now(action: Action) -> None:
    from notifications.models import Kind
    from notifications.services import notify

    what = {
        Action.Kind.WARN: _("警告"),
        Action.Kind.MUTE: _("禁言（%(until)s）"),
        Action.Kind.SUSPEND: _("禁赛（%(until)s）"),
        Action.Kind.BAN: _("封禁"),
    }[action.kind] % {"until": until_text(action)}
    subject = _("版主对你的处理：%(what)s") % {"what": what}
    body = _("理由：%(reason)s\n如有异议，可在 %(days)d 天内在“我的处理记录”页面申诉。") % {
        "reason": action.reason, "days": APPEAL_DAYS}
    notify(action.target, Kind.MODERATION, f"moderation:{action.pk}", subject, body, reverse("moderation_mine"))


def target_user(user_id) -> object | None:
    """The user ``user_id`` (None for None or no such user)."""
    return get_user_model().objects.filter(pk=user_id).first() if user_id else None


#: The moderators' group (created by the migration 0002_moderators_group).
MODERATORS = "版主"


def moderators_group():
    """The 版主 group with the ``moderation.moderate`` permission (created
    again when missing, e.g. after a test flushed the migration's rows)."""
    from django.contrib.auth.models import Group, Permission

    group, _created = Group.objects.get_or_create(name=MODERATORS)
    group.permissions.add(Permission.objects.get(codename="moderate", content_type__app_label="moderation"))
    return group
