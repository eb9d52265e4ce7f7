"""Reputation for finishing a match (0–100, shown on profiles and beside
seated names).

The numbers, with Board Game Arena's karma as the reference (new players
75, +1 per finished game, −10 per abandoned one, −20 for repeat offenders):

* a new player starts at :data:`~moderation.models.START` = 75;
* finishing a match (seated when its last hand ends, and not on 托管 for
  most of it): :data:`FINISHED` = +1, up to :data:`MAXIMUM` = 100;
* leaving a match before its end (the room plays, its match is not over;
  the seat goes to a bot): :data:`ABANDONED` = −10;
* being replaced by 托管 for most of a finished match by timing out (more
  of one's actions in the match played by 托管 than by oneself):
  :data:`AUTOPLAY` = −10;
* either penalty when another penalty was recorded in the previous
  :data:`REPEAT_DAYS` = 30 days: :data:`REPEAT` = −20;
* never below 0.

Each event is one row of :class:`~moderation.models.ReputationEvent`,
unique per ``(user, match, reason)``: a doubled leave request, a reconnect,
a retried signal or a leave–rejoin–leave in one match costs once.  A player
who left a match gains nothing for it even if he came back to finish.

Quick play seats players below :data:`LOW` = 60 with each other
(:meth:`moderation.rules.Rules.queue_tier`); a room's owner may ask a
minimum for its seats (:class:`~moderation.models.RoomRequirement`).
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import F, Value
from django.db.models.functions import Greatest, Least
from django.utils import timezone

from .models import START, ReputationEvent, Standing

log = logging.getLogger(__name__)

FINISHED = 1
ABANDONED = -10
AUTOPLAY = -10
REPEAT = -20
REPEAT_DAYS = 30
MAXIMUM = 100
MINIMUM = 0
LOW = 60

PENALTIES = (ReputationEvent.Reason.ABANDONED, ReputationEvent.Reason.AUTOPLAY)


def reputation(user) -> int:
    """``user``'s reputation (:data:`~moderation.models.START` before any event)."""
    value = Standing.objects.filter(user=user).values_list("reputation", flat=True).first()
    return START if value is None else value


def reputations(user_ids) -> dict[int, int]:
    """``{user id: reputation}`` for ``user_ids`` (one query)."""
    ids = [u for u in user_ids if u]
    found = dict(Standing.objects.filter(user_id__in=ids).values_list("user_id", "reputation"))
    return {u: found.get(u, START) for u in ids}


def record(user_id: int, match_id: int, reason: str, now=None) -> ReputationEvent | None:
    """Record ``reason`` for ``user_id`` in ``match_id`` and move the
    reputation; None (nothing changes) when it was recorded before.  The
    event's insert runs in its own savepoint (the unique constraint decides
    between concurrent requests); the reputation moves in the caller's
    transaction, by one conditional ``UPDATE``."""
    now = now or timezone.now()
    if reason == ReputationEvent.Reason.FINISHED:
        delta = FINISHED
    else:
        repeat = ReputationEvent.objects.filter(
            user_id=user_id, reason__in=PENALTIES, created__gte=now - timedelta(days=REPEAT_DAYS),
        ).exists()
        delta = REPEAT if repeat else (ABANDONED if reason == ReputationEvent.Reason.ABANDONED else AUTOPLAY)
    Standing.objects.get_or_create(user_id=user_id)  # at the start value; a concurrent maker's row is as good
    try:
        with transaction.atomic():
            event = ReputationEvent.objects.create(user_id=user_id, match_id=match_id, reason=reason,
                                                   delta=delta, created=now)
    except IntegrityError:  # recorded before (or by a concurrent request that won)
        return None
    Standing.objects.filter(user_id=user_id).update(
        reputation=Greatest(Value(MINIMUM), Least(Value(MAXIMUM), F("reputation") + delta)))
    return event


def on_seat_left(sender, room=None, user=None, hand=None, **kwargs) -> None:
    """``games.signals.seat_left`` receiver (inside the leave's transaction):
    leaving while the room plays a match that is not over is abandoning it."""
    from games.models import Match, Room

    if hand is None or user is None or room.status != Room.Status.PLAYING:
        return
    if not Match.objects.filter(pk=hand.match_id, finished__isnull=True).exists():
        return
    record(user.pk, hand.match_id, ReputationEvent.Reason.ABANDONED)


def autoplayed(match_id: int) -> dict[int, tuple[int, int]]:
    """``{user id: (own actions, 托管 actions)}`` in the match: each hand's
    actions counted for the user dealt into the acting seat."""
    from games.models import Hand, HandAction

    seat_user = {}
    for hand_id, players in Hand.objects.filter(match_id=match_id).values_list("id", "players"):
        for index, p in enumerate(players or []):
            if p.get("user"):
                seat_user[(hand_id, index)] = p["user"]
    counts: dict[int, Counter] = {}
    rows = (HandAction.objects.filter(hand__match_id=match_id, actor__in=("user", "auto"))
            .values_list("hand_id", "seat", "actor"))
    for hand_id, seat, actor in rows:
        uid = seat_user.get((hand_id, seat))
        if uid is not None:
            counts.setdefault(uid, Counter())[actor] += 1
    return {u: (c["user"], c["auto"]) for u, c in counts.items()}


def on_hand_completed(sender, match_id=None, players=None, match_finished=False, **kwargs) -> None:
    """``games.signals.hand_completed`` receiver (after the commit): at the
    end of a match each human dealt into its last hand finished it (+1) or
    sat it out on 托管 (a penalty); a player who abandoned it gains nothing."""
    if not match_finished or match_id is None:
        return
    users = [p.get("user") for p in players or [] if p.get("user")]
    if not users:
        return
    counts = autoplayed(match_id)
    left = set(ReputationEvent.objects.filter(match_id=match_id, user_id__in=users,
                                              reason=ReputationEvent.Reason.ABANDONED)
               .values_list("user_id", flat=True))
    with transaction.atomic():
        for uid in users:
            own, auto = counts.get(uid, (0, 0))
            if auto > own:
                record(uid, match_id, ReputationEvent.Reason.AUTOPLAY)
            elif uid not in left:
                record(uid, match_id, ReputationEvent.Reason.FINISHED)
