"""Reads of completed hands: the hand record (``docs/spec/hand-record.md``)
and the replay's step-by-step state.  Nothing here writes."""

from __future__ import annotations

from ..engine import get_rules
from ..engine.base import Action
from ..engine.records import FORMAT
from ..models import Hand, player_names
from .readmodel import hand_state
from .settlement import segment_start


def build_record(hand: Hand, scope: str = "match") -> dict:
    """The hand record (``docs/spec/hand-record.md``) of ``hand`` alone
    (``scope="hand"``) or of its match up to and including it (``"match"``,
    every completed hand, voided deals included, so tribute carries over).
    A debt that lapsed when a player left breaks the carry-over: the
    match record then starts at the first hand of that segment
    (:func:`~games.services.settlement.segment_start`), whose ``start`` is
    the new carry-in."""
    if scope == "hand":
        hands = [hand]
    else:
        cut = segment_start(hand)
        hands = list(
            hand.match.hands.filter(number__gte=cut, number__lte=hand.number, complete=True)
            .order_by("number")
        )
    first = hands[0]
    start = first.start or {}
    players = [str(n) for n in player_names(hand.players)]
    record = {
        "format": FORMAT,
        "game": hand.match.room.game,
        "options": start.get("options") or {"multiplier": hand.match.room.multiplier},
    }
    rules = get_rules(hand.match.room.game)
    if len(players) == rules.seats:
        record["players"] = players
    if start.get("start") is not None:
        record["start"] = start["start"]
    record["hands"] = [
        {**h.deal, "actions": list(h.actions.order_by("seq").values_list("payload", flat=True))}
        for h in hands
    ]
    record["site"] = {
        "room": hand.match.room_id,
        "match": hand.match.number,
        "hands": [h.number for h in hands],
        "seeds": [h.seed for h in hands],
    }
    return record


#: Keys of a seat's own view that say nothing about the table (its seat, its cards).
_SEAT_OWN = frozenset({"seat", "hand"})


def replay_step(hand: Hand, step: int | None) -> dict:
    """The completed ``hand`` after its first ``step`` actions (clamped to
    ``0 .. len``; None: all), with every seat's cards (the hand is over,
    nothing is hidden): ``{"step", "total", "actions" (payloads), "action"
    (the step's payload or None), "public" (the spectator view), "seats"
    ([{"index", "name", "cards", "is_turn"}]), "names", "full" (the
    spectator's view with what any seat's own view adds where the
    spectator's says None: a spectator-with-everything view)}``."""
    rules = get_rules(hand.match.room.game)
    payloads = list(hand.actions.order_by("seq").values_list("payload", flat=True))
    step = len(payloads) if step is None else max(0, min(step, len(payloads)))
    state = hand_state(hand, payloads, upto=step)
    public = rules.view(state, None)
    views = [rules.view(state, s) for s in range(rules.seats)]
    full = dict(public)
    for view in views:
        # what the seats knew beyond the spectator: the keys the spectator's
        # view leaves None (the hand is over, nothing is hidden any more)
        for key, value in view.items():
            if key in full and full[key] is None and value is not None and key not in _SEAT_OWN:
                full[key] = value
    names = [str(n) for n in player_names(hand.players)]
    seats = [
        {
            "index": s,
            "name": names[s] if s < len(names) else "",
            "cards": views[s].get("hand", []),
            "is_turn": rules.to_act(state) == s,
        }
        for s in range(rules.seats)
    ]
    return {
        "step": step,
        "total": len(payloads),
        "actions": payloads,
        "action": payloads[step - 1] if step else None,
        "public": public,
        "seats": seats,
        "names": names,
        "full": full,
    }


#: Jump targets of replayed hands, by (hand id, seed, actions): a completed hand never changes.
_REPLAY_MARKS: dict[tuple, list[dict]] = {}


def _on_table(view: dict) -> int:
    """How many plays the public view shows on the table this round/trick
    (a ``trick_log`` list, or a ``trick`` with ``plays``; 0 for a game that
    shows neither)."""
    log = view.get("trick_log")
    if isinstance(log, list):
        return len(log)
    trick = view.get("trick")
    if isinstance(trick, dict):
        plays = trick.get("plays")
        return len(plays) if isinstance(plays, list) else 0
    return len(trick) if isinstance(trick, list) else 0


def replay_marks(hand: Hand, payloads: list[dict]) -> list[dict]:
    """``[{"step", "kind", "phase"|"label"}]``: the steps where a phase begins
    (``kind="phase"``, ``phase`` the engine's phase code) or a new
    trick/round begins (``"trick"``, ``label`` numbered from 1), for the
    replay's jump list.  One pass over the log; kept per hand."""
    key = (hand.pk, hand.seed, len(payloads))
    marks = _REPLAY_MARKS.get(key)
    if marks is not None:
        return marks
    rules = get_rules(hand.match.room.game)
    marks = []
    state = hand_state(hand, payloads, upto=0)
    phase, on_table, trick_no = None, 0, 0
    for step in range(len(payloads) + 1):
        if step:
            state = rules.apply(state, Action.from_record(payloads[step - 1], rules.seats))
        view = rules.view(state, None)
        now_phase, now_table = view.get("phase"), _on_table(view)
        if now_phase != phase:
            marks.append({"step": step, "kind": "phase", "phase": now_phase})
            if now_phase == "play":
                trick_no = 1
                marks.append({"step": step, "kind": "trick", "label": trick_no})
        elif now_phase == "play" and now_table < on_table:
            trick_no += 1
            marks.append({"step": step, "kind": "trick", "label": trick_no})
        phase, on_table = now_phase, now_table
    if len(_REPLAY_MARKS) > 256:
        _REPLAY_MARKS.clear()
    _REPLAY_MARKS[key] = marks
    return marks
