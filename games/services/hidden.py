"""Hidden decisions: the same deadline and pace whoever holds them.

A decision is *hidden* when the rules do not show the others whose turn it is:
the spectator's view of the state has ``to_act`` None while
``rules.to_act(state)`` names a seat (保皇's 明保/暗保 declaration by the ♥4*
holder, B10; the view hides who decides so the phase does not reveal the
guard).  No game is named here: any rules object that hides ``to_act`` gets
the same treatment.

The leak it closes: the deadline (``data-deadline``) and the moment the phase
ends used to depend on the holder's kind (bot delay 0.8 s for a bot or a seat
on 托管, the 30 s+ time limit for a human), so every seat could tell which
kind held ♥4*, and with one human at the table, who the guard was.

The rule, when the table *mixes* automatic seats (bots, 托管) and humans:

* the deadline is ``now + window`` for every holder, where the window is
  :func:`window_s` (the room's time limit, capped by
  ``settings.GAMES_HIDDEN_DECISION_S``, default 10 s);
* nothing is decided before the deadline: a human's choice made earlier is
  kept in ``Room.pending`` (not applied, no version bump, nothing sent to
  anyone but the chooser's own POST answer) and applied by the server's turn
  at the deadline; a bot or 托管 holder decides at the deadline too; a human
  who chose nothing gets the C5 default then, *without* being switched to
  托管 (that switch would show on the seat);
* switching 托管 during the window does not move the deadline.

So the phase starts and ends at the same moments, through the same code path
(the deadline task), with the same frames, whoever holds the role.  On a table
of humans only (every seat paced by a person) and on one of automatic seats
only (everyone paced by the bot delay) the pace says nothing about a seat's
kind, and decisions apply at once as before.
"""

from __future__ import annotations

from django.conf import settings

#: Default cap of the hidden-decision window (seconds).
DEFAULT_WINDOW_S = 10


def is_hidden(rules, state) -> bool:
    """True when a seat is to act and the rules hide which one from others."""
    if rules.to_act(state) is None:
        return False
    return rules.view(state, None).get("to_act") is None


def mixed(seats) -> bool:
    """True when some seats act automatically (bot or 托管) and some do not."""
    kinds = {bool(s.bot_policy) or bool(s.autoplay) for s in seats}
    return len(kinds) > 1


def uniform(rules, state, seats) -> bool:
    """Whether the decision to take now gets the uniform window (see module)."""
    return mixed(seats) and is_hidden(rules, state)


def window_s(room) -> float:
    """The hidden-decision window of ``room`` in seconds."""
    cap = float(getattr(settings, "GAMES_HIDDEN_DECISION_S", DEFAULT_WINDOW_S))
    return float(min(room.turn_seconds, cap))


def pending_for(room, hand, count: int, seat: int) -> dict | None:
    """``room.pending`` if it is ``seat``'s choice for this hand at this action count."""
    pending = room.pending
    if (
        isinstance(pending, dict)
        and pending.get("hand") == hand.pk
        and pending.get("count") == count
        and pending.get("seat") == seat
    ):
        return pending
    return None
