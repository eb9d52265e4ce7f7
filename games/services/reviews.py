"""Hand reviews (#26): asking for one, computing it once, reading it.

* :func:`request_review` — a completed hand's review is wanted (after a hand
  with a human completes, :func:`on_hand_completed`; or a player asks on the
  replay page): a ``pending`` row, and the computation scheduled at low
  priority (:func:`games.runtime.scheduling.schedule_review`).
* :func:`run_review` — what the task runs: the engine's reviewer
  (:func:`games.engine.review.review_hand`) within
  ``settings.GAMES_REVIEW_BUDGET_MS`` of CPU, paused while live tables keep
  the machine busy (:mod:`games.runtime.governor`,
  ``settings.GAMES_REVIEW_IDLE_BELOW``), stored with one
  :class:`~games.models.SeatAccuracy` row per human seat.  Idempotent: a
  review that is done is never recomputed (the row is locked while it is
  written; a second run finds it done).
* :func:`review_for` — the stored review as a page may show it, or why not:
  a review shows every card, so it follows :func:`games.embargo.embargo_reason`.

Nothing here names a game.
"""

from __future__ import annotations

import logging
import time
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import embargo
from games.runtime import governor, scheduling
from ..engine import get_rules
from ..models import Hand, HandReview, SeatAccuracy

log = logging.getLogger(__name__)


def budget_ms() -> float:
    """CPU milliseconds one hand's review may spend (``GAMES_REVIEW_BUDGET_MS``)."""
    return float(getattr(settings, "GAMES_REVIEW_BUDGET_MS", 4000.0))


def idle_below() -> float | None:
    """The governor's threshold (``GAMES_REVIEW_IDLE_BELOW``): the share of all
    CPUs the other processes may use while a review runs, or None (no
    governor).  ``ValueError`` on a value that is not a share or ``off``."""
    return governor.parse_idle_below(getattr(settings, "GAMES_REVIEW_IDLE_BELOW",
                                             governor.DEFAULT_IDLE_BELOW))


def max_pause_s() -> float:
    """Seconds a review may wait for an idle machine in all
    (``GAMES_REVIEW_MAX_PAUSE_S``), then it is deferred (:func:`run_review`)."""
    return float(getattr(settings, "GAMES_REVIEW_MAX_PAUSE_S", governor.DEFAULT_MAX_PAUSE_S))


def reviewable(game: str) -> bool:
    """True when ``game``'s engine has a reviewer (``GameRules.review_unit``)."""
    try:
        return get_rules(game).review_unit is not None
    except KeyError:
        return False


def has_human(players) -> bool:
    """True when a seat of ``Hand.players`` was a person (not a bot)."""
    return any(p.get("user") and not p.get("bot") for p in (players or []))


def request_review(hand: Hand) -> HandReview:
    """Ask for ``hand``'s review (completed hands only: ``ValueError``
    otherwise).  Creates the ``pending`` row if there is none and schedules
    the computation after the commit; a ``done`` or already ``pending``
    review is returned as it is (a failed one is asked again)."""
    if not hand.complete:
        raise ValueError("only a completed hand is reviewed")
    if not reviewable(hand.match.room.game):
        raise ValueError(f"{hand.match.room.game} has no reviewer")
    with transaction.atomic():
        review, created = HandReview.objects.get_or_create(
            hand=hand, defaults={"budget_ms": budget_ms()})
        if not created and review.status == HandReview.Status.FAILED:
            review.status = HandReview.Status.PENDING
            review.error = ""
            review.save(update_fields=["status", "error"])
            created = True
        if created:
            transaction.on_commit(lambda: scheduling.schedule_review(hand.pk))
    return review


def on_hand_completed(sender, hand_id=None, summary=None, players=None, **kwargs) -> None:
    """``hand_completed`` receiver: a hand with a human seat gets a review
    (a voided deal has nothing to review)."""
    if not hand_id or (summary or {}).get("voided") or not has_human(players):
        return
    if not reviewable(sender):
        return
    if not getattr(settings, "GAMES_REVIEW_AFTER_HAND", True):
        return
    hand = Hand.objects.filter(pk=hand_id, complete=True).first()
    if hand is not None:
        request_review(hand)


def review_inputs(hand: Hand, budget: float | None = None) -> tuple:
    """The arguments of :func:`games.engine.review.review_inputs_json` for
    the completed ``hand`` (plain data: it may cross to another process)."""
    payloads = list(hand.actions.order_by("seq").values_list("payload", flat=True))
    return (hand.match.room.game, hand.start, hand.deal, payloads,
            budget_ms() if budget is None else budget, hand.seed & ((1 << 62) - 1))


def compute(hand: Hand, budget: float | None = None) -> dict:
    """The engine's review of the completed ``hand`` as JSON (not stored),
    computed where :func:`games.runtime.scheduling.run_review_job` says: in this
    thread, or in the embedded topology's low-priority review process; under
    the governor (:func:`idle_below`), whose pauses it reports as
    ``"paused_ms"``."""
    return scheduling.run_review_job(partial(governor.review_paced, max_pause_s=max_pause_s()),
                                     (idle_below(), f"review of hand {hand.pk}",
                                      *review_inputs(hand, budget)))


def run_review(hand_id: int, budget: float | None = None) -> str:
    """Compute and store the review of hand ``hand_id`` unless it is done.
    Returns ``"done"``, ``"already"`` (stored before: never recomputed),
    ``"missing"`` (no such completed hand), ``"failed"``, or ``"deferred"``:
    the governor waited ``GAMES_REVIEW_MAX_PAUSE_S`` for an idle machine, so
    the review stays pending and is scheduled again, at the back of the queue
    (the task ends, and its delivery is acknowledged before the broker's
    timeout: :mod:`games.runtime.governor`)."""
    hand = Hand.objects.select_related("match__room").filter(pk=hand_id, complete=True).first()
    if hand is None:
        return "missing"
    existing = HandReview.objects.filter(hand=hand).first()
    if existing is not None and existing.status == HandReview.Status.DONE:
        return "already"
    started = time.perf_counter()
    try:
        result = compute(hand, budget)
    except governor.Deferred as exc:
        log.info("review of hand %s deferred: %s", hand_id, exc)
        scheduling.schedule_review(hand_id)
        return "deferred"
    except Exception as exc:  # a corrupt log must not kill the worker
        log.exception("review of hand %s failed", hand_id)
        HandReview.objects.update_or_create(
            hand=hand, defaults={"status": HandReview.Status.FAILED, "error": str(exc)[:200]})
        return "failed"
    with transaction.atomic():
        review, _ = HandReview.objects.select_for_update().get_or_create(
            hand=hand, defaults={"budget_ms": result["budget_ms"]})
        if review.status == HandReview.Status.DONE:
            return "already"
        review.status = HandReview.Status.DONE
        review.data = result
        review.budget_ms = result["budget_ms"]
        review.cpu_ms = result["cpu_ms"]
        review.error = ""
        review.finished = timezone.now()
        review.save()
        players = hand.players or []
        for seat in result["seats"]:
            p = players[seat["seat"]] if seat["seat"] < len(players) else {}
            if p.get("user") and not p.get("bot") and seat["accuracy"] is not None:
                SeatAccuracy.objects.create(review=review, user_id=p["user"],
                                            game=hand.match.room.game, seat=seat["seat"],
                                            accuracy=seat["accuracy"],
                                            decisions=seat["decisions"])
    log.info("review of hand %s: %.0f ms CPU (budget %.0f), %.0f ms wall, %.0f ms paused "
             "by the governor", hand_id, result["cpu_ms"], result["budget_ms"],
             1000 * (time.perf_counter() - started), result.get("paused_ms", 0.0))
    return "done"


def review_for(hand: Hand, user) -> tuple[HandReview | None, str | None]:
    """``(review or None, reason)``: the reason (a sentence) when ``user``
    may not see ``hand``'s review (the embargo of :mod:`games.embargo`); else
    the stored review if any."""
    reason = embargo.embargo_reason(hand, user)
    if reason:
        return None, reason
    return HandReview.objects.filter(hand=hand).first(), None


#: Weeks of a profile's accuracy series (:func:`average_accuracy`).
ACCURACY_WEEKS = 12


def average_accuracy(user) -> list[dict]:
    """``user``'s reviewed hands per game: ``[{"game", "hands", "accuracy",
    "recent", "weeks"}]``: the mean accuracy over all and over the last 10
    (trend), and ``weeks``: the mean per calendar week (Monday first, in
    ``TIME_ZONE``) over the last :data:`ACCURACY_WEEKS` weeks, oldest first,
    as ``[{"week": date of its Monday, "ago": whole weeks before this one
    (0 = this week), "accuracy", "hands"}]`` for the weeks with a reviewed
    hand (#26: "average accuracy per game over time").  The weekly means of
    all games come from one query."""
    import datetime

    from django.db.models import Avg, Count
    from django.db.models.functions import TruncWeek

    now = timezone.localtime()
    this_monday = now.date() - datetime.timedelta(days=now.weekday())
    since = timezone.make_aware(datetime.datetime.combine(
        this_monday - datetime.timedelta(weeks=ACCURACY_WEEKS - 1), datetime.time()))
    mine = SeatAccuracy.objects.filter(user=user)
    weekly: dict[str, list[dict]] = {}
    for w in (mine.filter(created__gte=since).annotate(week=TruncWeek("created"))
              .values("game", "week").annotate(n=Count("id"), avg=Avg("accuracy"))
              .order_by("game", "week")):
        monday = timezone.localtime(w["week"]).date()
        weekly.setdefault(w["game"], []).append(
            {"week": monday, "ago": (this_monday - monday).days // 7,
             "accuracy": w["avg"], "hands": w["n"]})
    out = []
    for row in mine.values("game").annotate(n=Count("id"), avg=Avg("accuracy")).order_by("game"):
        recent = list(mine.filter(game=row["game"]).order_by("-created", "-id")
                      .values_list("accuracy", flat=True)[:10])
        out.append({"game": row["game"], "hands": row["n"], "accuracy": row["avg"],
                    "recent": sum(recent) / len(recent) if recent else None,
                    "weeks": weekly.get(row["game"], [])})
    return out
