"""Settling what a leaver owes, inside a command's locked room.

Generic: a game with no such debts settles nothing (its rules' hooks say so);
the game points and the new carry-in come from the engine.
"""

from __future__ import annotations

from django.core.exceptions import FieldDoesNotExist, ImproperlyConfigured
from django.db import models

from accounts import ledger

from ..engine import get_rules
from ..models import Hand, Room, Seat
from .readmodel import by_seat, hand_state


def related_model(accessor: str) -> type[models.Model] | None:
    """The model whose ``ForeignKey`` to :class:`~games.models.Hand` has
    ``related_name=accessor``, or None when no installed app provides one.

    A game's own tables hang off the hand: ``"settlements"`` (the leaving
    settlements: ``hand``, ``seat``, ``user``, ``points`` per seat, ``carry``)
    and ``"tributes"`` (one paid card: ``hand``, ``from_seat``, ``to_seat``,
    ``from_user``, ``to_user``, ``card``); their models live with their game's
    app, and generic code reaches them by this name only."""
    try:
        return Hand._meta.get_field(accessor).related_model
    except FieldDoesNotExist:
        return None


def carry_in_after(rules, prev: Hand):
    """The engine match (carry-in) for the hand after the completed ``prev``:
    the carry stored by a settlement after ``prev`` (the debt lapsed),
    else ``rules.next_match`` of ``prev``'s start and final state."""
    settlements = related_model("settlements")
    settled = (
        settlements.objects.filter(hand=prev, carry__isnull=False).order_by("-id").first()
        if settlements is not None
        else None
    )
    if settled is not None:
        return rules.new_match(**settled.carry)
    return rules.next_match(rules.new_match(**prev.start), hand_state(prev))


def _owed_carry(rules, hand: Hand | None):
    """``(match, in_hand)`` when a debt may still be owed at the table:
    after a completed or voided hand whose match goes on (``in_hand`` False:
    the next hand is not dealt yet), or in a hand dealt whose carry-in is
    still unpaid (``in_hand`` True, ``rules.carry_in_pending``); else None."""
    if hand is None:
        return None
    if not hand.complete:
        if not rules.carry_in_pending(hand_state(hand)):
            return None  # already paid (or none was owed)
        return rules.new_match(**hand.start), True
    if hand.match.finished is not None:
        return None  # a new match follows: nothing carries over
    return carry_in_after(rules, hand), False


def settle_leaving(
    room: Room, hand: Hand | None, seats: list[Seat], leaver: Seat | None
) -> models.Model | None:
    """Inside the locked transaction: if a debt is owed at the table,
    settle it in game points and let it lapse.

    ``hand`` is the room's latest hand (:func:`current_hand`; its ``start``
    may be rewritten), ``seats`` the seats before anyone leaves.  ``leaver`` is
    the seat leaving (its shares are settled:
    ``rules.leave_settlement(match, seat)``); None when the owner closes the
    room: everybody leaves at once and every share is settled once (the sum
    over all seats counts each share twice, payer and receiver, so it is
    halved).  Points include the room multiplier (the engine's match carries
    it, C4).  Each human seated now is credited through the ledger with
    reason ``"tribute-settlement"``; bots have no ledger.  The new carry-in
    (``rules.match_after_leave``) is stored for the next hand, or replaces the
    start of a hand whose carry-in is still unpaid.  Returns the settlement
    row, or None when nothing was owed (then nothing changes; always so for
    a game whose rules keep the contract's default hooks).
    """
    rules = get_rules(room.game)
    owed = _owed_carry(rules, hand)
    if owed is None:
        return None
    match, in_hand = owed
    after = rules.match_after_leave(match)
    carry = rules.match_to_json(after)
    if carry == rules.match_to_json(match):
        return None  # nothing owed: leaving changes nothing
    n = rules.seats
    if leaver is not None:
        points = by_seat({str(k): v for k, v in rules.leave_settlement(match, leaver.index).items()}, n)
    else:
        total = [0] * n
        for s in range(n):
            for k, v in rules.leave_settlement(match, s).items():
                total[int(k)] += v
        points = [v // 2 for v in total]
    if in_hand:
        hand.start = carry
        hand.save(update_fields=["start"])
    settlements = related_model("settlements")
    if settlements is None:
        raise ImproperlyConfigured("a debt is owed but no installed app stores Hand.settlements")
    row = settlements.objects.create(
        hand=hand,
        seat=leaver.index if leaver is not None else None,
        user=leaver.user if leaver is not None else None,
        points=[int(p) for p in points],
        carry=None if in_hand else carry,
    )
    for seat in seats:
        if seat.user_id is not None and points[seat.index]:
            ledger.credit(seat.user, room.game, int(points[seat.index]), hand=hand, reason="tribute-settlement")
    return row


def segment_start(hand: Hand) -> int:
    """The number of the first hand of ``hand``'s carry-over segment: 1, or
    after the latest settlement up to ``hand`` the hand dealt after it (a
    stored ``carry``) or the hand whose unpaid carry-in lapsed (``carry``
    None).  A match record starts there."""
    cut = 1
    settlements = related_model("settlements")
    if settlements is None:
        return cut
    for number, carry in settlements.objects.filter(
        hand__match_id=hand.match_id, hand__number__lte=hand.number
    ).values_list("hand__number", "carry"):
        start_at = number + 1 if carry is not None else number
        if start_at <= hand.number:
            cut = max(cut, start_at)
    return cut
