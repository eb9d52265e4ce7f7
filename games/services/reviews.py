"""Hand reviews: asking for one, computing it once, reading it.

* :func:`request_review` — a completed hand's review is wanted (after a hand
  with a human completes, :func:`on_hand_completed`; or a player asks on the
  replay page): a ``pending`` row, and after the commit the
  ``review_due`` signal (:mod:`games.signals`), on which the runtime
  schedules the computation at low priority.
* :func:`store_review` — a computed review stored with one
  :class:`~games.models.SeatAccuracy` row per human seat, once (the row is
  locked while it is written).  Computing it, paced by the review governor,
  is the runtime's business (:mod:`games.runtime.reviewing`).
* :func:`review_for` — the stored review as a page may show it, or why not:
  a review shows every card, so it follows :func:`games.embargo.embargo_reason`.

Nothing here names a game.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import embargo, signals
from ..engine import get_rules
from ..engine.review import DEFAULT_HAND_BUDGET_MS, DEFAULT_WORLDS
from ..models import Hand, HandReview, SeatAccuracy
import datetime
from django.db.models import Avg, Count
from django.db.models.functions import TruncWeek

log = logging.getLogger(__name__)


def budget_ms() -> float:
    """CPU milliseconds one hand's review may spend (``GAMES_REVIEW_BUDGET_MS``;
    a cap against a runaway review, the budget itself is worlds:
    :data:`games.engine.review.DEFAULT_HAND_BUDGET_MS`)."""
    return float(getattr(settings, "GAMES_REVIEW_BUDGET_MS", DEFAULT_HAND_BUDGET_MS))


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
            transaction.on_commit(lambda: signals.review_due.send(sender=hand.match.room.game, hand_id=hand.pk))
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
    hand = Hand.objects.select_related("match__room").filter(pk=hand_id, complete=True).first()
    if hand is not None:
        request_review(hand)


def worlds() -> int:
    """Worlds sampled an unforced decision of a review on average (eight
    each, the rest by spread: :func:`games.engine.review.review_hand`), the
    review's budget (``GAMES_REVIEW_WORLDS``, default
    :data:`games.engine.review.DEFAULT_WORLDS`; a decision of fewer than
    :data:`~games.engine.review.FLAG_MIN_WORLDS` is never flagged)."""
    return int(getattr(settings, "GAMES_REVIEW_WORLDS", DEFAULT_WORLDS))


def review_inputs(hand: Hand, budget: float | None = None) -> tuple:
    """The arguments of :func:`games.engine.review.review_inputs_json` for
    the completed ``hand`` (plain data: it may cross to another process):
    ``(game, start, deal, payloads, budget_ms, seed, worlds)``."""
    payloads = list(hand.actions.order_by("seq").values_list("payload", flat=True))
    return (hand.match.room.game, hand.start, hand.deal, payloads,
            budget_ms() if budget is None else budget, hand.seed & ((1 << 62) - 1), worlds())


def store_review(hand: Hand, result: dict) -> bool:
    """Store the engine's ``result`` (:func:`games.engine.review.review_inputs_json`'s
    JSON) as ``hand``'s done review, with one :class:`SeatAccuracy` row per
    human seat; False when it was stored already (the row is locked while it
    is written, so two runs never both store)."""
    with transaction.atomic():
        review, _ = HandReview.objects.select_for_update().get_or_create(
            hand=hand, defaults={"budget_ms": result["budget_ms"]})
        if review.status == HandReview.Status.DONE:
            return False
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
    return True


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
    hand ("average accuracy per game over time").  The weekly means of
    all games come from one query."""


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
