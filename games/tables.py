"""Rendering a table for one viewer (used by the page view and the websocket).

Hidden information: everything seat-specific comes from the engine's
``view(state, seat)`` for the viewer's own seat (``None`` for spectators); the
stored deal is never put in a template while a hand is in play.  The root
element of the fragment carries ``data-version`` and ``data-committed-at``
(epoch ms) so clients (and the latency benchmark) can tell which commit they
are looking at.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import services
from .engine import get_rules
from .engine.base import CARD_VERBS, CHOICE_VERBS, FLAG_VERBS
from .models import Hand, Room, Seat, TributeSettlement

#: Button label per data-action (C-verbs of the hand-record spec).
ACTION_LABELS = {
    "play": _("出牌"),
    "yield": _("让"),
    "pass": _("过"),
    "crown-accept": _("当皇帝"),
    "crown-pass": _("不当皇帝"),
    "solo-open": _("明独"),
    "solo-secret": _("暗独"),
    "guard-open": _("明保"),
    "guard-secret": _("暗保"),
    # 升级 (shengji): auction, trumps, 还牌, kitty
    "bid": _("亮牌"),
    "trump-S": _("♠ 黑桃"),
    "trump-H": _("♥ 红桃"),
    "trump-D": _("♦ 方块"),
    "trump-C": _("♣ 梅花"),
    "give": _("还牌"),
    "bury": _("埋底"),
}
#: The choices offered for each choice verb, in button order.
CHOICES = {
    "crown": ("accept", "pass"),
    "solo": ("open", "secret"),
    "guard": ("open", "secret"),
    "trump": ("S", "H", "D", "C"),
}
#: Button order on the table.
VERB_ORDER = ("crown", "solo", "guard", "trump", "give", "bury", "bid", "play", "yield", "pass")

PLACE_NAMES = [_("头科"), _("二科"), _("三科"), _("二落"), _("大落")]
PHASE_NAMES = {
    "crown": _("选皇帝"),
    "declare": _("宣布"),
    "play": _("出牌"),
    "done": _("本局结束"),
    "voided": _("本局作废"),
    "auction": _("比牌"),
    "trump": _("叫主"),
    "give": _("还牌"),
    "bury": _("埋底"),
}
#: A Chinese sentence per ruling for refusals; the engine's own message is
#: shown beside it as the detail.
RULE_MESSAGES = {
    "C1": _("无效的牌"),
    "B3": _("这不是一套牌：一套是同点数的牌，可以挂大小王和保子"),
    "B4": _("管不上：张数要相同，而且每张都要比上家的大"),
    "B5": _("现在不能这样出牌"),
    "B6": _("3 只能在最后一张时单独出"),
    "B8": _("现在不是选皇帝的时候"),
    "B9": _("现在不能宣布独"),
    "B10": _("现在不能宣布保皇"),
    "B11": _("本局已经结束"),
}
WINNER_NAMES = {"emperor": _("皇帝方胜"), "rebels": _("反贼方胜"), "draw": _("平局")}


@dataclass
class ActionButton:
    action: str  # the data-action hook, also the POSTed verb
    label: str
    needs_cards: bool


def action_buttons(verbs) -> list[ActionButton]:
    """One button per legal choice: ``crown`` gives crown-accept/crown-pass …"""
    out = []
    for verb in sorted(verbs, key=lambda v: VERB_ORDER.index(v) if v in VERB_ORDER else 99):
        if verb in CHOICE_VERBS and verb in CHOICES:
            for choice in CHOICES[verb]:
                key = f"{verb}-{choice}"
                out.append(ActionButton(key, ACTION_LABELS.get(key, key), False))
        elif verb in CARD_VERBS:
            out.append(ActionButton(verb, ACTION_LABELS.get(verb, verb), True))
        elif verb in FLAG_VERBS or verb == "give":
            out.append(ActionButton(verb, ACTION_LABELS.get(verb, verb), False))
    return out


def parse_verb(verb: str, cards: list[str], post=None) -> dict:
    """The action record (without seat) for a POSTed ``verb`` hook.

    ``give`` (还牌, S14) reads the fields ``give_<seat>`` of ``post`` (space-
    separated codes per loser seat): ``{"give": {"1": ["4C"], …}}``.

    >>> parse_verb("play", ["AS", "AH"])
    {'play': ['AS', 'AH']}
    >>> parse_verb("crown-accept", [])
    {'crown': 'accept'}
    >>> parse_verb("pass", [])
    {'pass': True}

    Raises ``ValueError`` for anything else.
    """
    if verb in CARD_VERBS:
        if not cards:
            raise ValueError(_("请先选择要出的牌"))
        return {verb: list(cards)}
    if verb in FLAG_VERBS:
        return {verb: True}
    if verb == "give":
        give = {}
        for key in post or {}:
            seat = key[5:] if key.startswith("give_") else None
            if seat is None:
                continue
            if not seat.isdigit() or len(give) >= 8:
                raise ValueError(_("未知的动作"))
            codes = (post.get(key) or "").split()
            if len(codes) > 64:
                raise ValueError(_("未知的动作"))
            give[seat] = codes
        if not give:
            raise ValueError(_("请先选择要还的牌"))
        return {"give": give}
    base, _sep, choice = verb.partition("-")
    if base in CHOICES and choice in CHOICES[base]:
        return {base: choice}
    raise ValueError(_("未知的动作"))


def epoch_ms(dt) -> int:
    return int(dt.timestamp() * 1000) if dt else 0


def seat_of(seats: list[Seat], user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    for seat in seats:
        if seat.user_id == user.pk:
            return seat.index
    return None


def score_sheet(
    room: Room, hand: Hand | None, nseats: int, history: tuple[list, list] | None = None
) -> tuple[list[dict], list[int]]:
    """Rows ``{"id", "number", "points": [per seat], "voided", "settlement"}``
    of the completed hands of ``hand``'s match and of its tribute settlements
    (B14, ``settlement`` True: after the hand they follow, or before the hand
    whose unpaid tribute lapsed), and the per-seat totals.  ``history``
    (:func:`match_history`) saves the two queries."""
    if hand is None:
        return [], [0] * nseats
    completed, settlements = history if history is not None else match_history(hand)
    keyed = []
    for hand_id, number, summary in ((h.id, h.number, h.summary) for h in completed):
        points = services._by_seat((summary or {}).get("game_points"), nseats)
        keyed.append(
            ((number, 1, 0), {"id": hand_id, "number": number, "points": points,
                              "voided": bool((summary or {}).get("voided")), "settlement": False})
        )
    for row_id, hand_id, number, points, carry in (
        (t.id, t.hand_id, t.hand_number, t.points, t.carry) for t in settlements
    ):
        # carry None: the lapse was applied inside that hand, before its tribute
        keyed.append(
            ((number, 0 if carry is None else 2, row_id),
             {"id": hand_id, "number": number, "points": services._by_seat(points, nseats),
              "voided": False, "settlement": True})
        )
    rows, totals = [], [0] * nseats
    for _key, row in sorted(keyed, key=lambda kr: kr[0]):
        rows.append(row)
        totals = [t + int(p or 0) for t, p in zip(totals, row["points"])]
    return rows, totals


def match_history(hand: Hand) -> tuple[list[Hand], list[TributeSettlement]]:
    """``(completed hands, tribute settlements)`` of ``hand``'s match, in two
    queries: the hands in number order, the settlements in id order with the
    leaver (``user``) joined and their hand's number as ``hand_number``."""
    from django.db.models import F

    completed = list(Hand.objects.filter(match_id=hand.match_id, complete=True).order_by("number"))
    settlements = list(
        TributeSettlement.objects.filter(hand__match_id=hand.match_id)
        .select_related("user")
        .annotate(hand_number=F("hand__number"))
        .order_by("id")
    )
    return completed, settlements


def latest_settlement(hand: Hand | None, settlements: list | None = None) -> dict | None:
    """The B14 notice for the table: the latest tribute settlement made on
    ``hand`` or on the hand before it in the same match, as ``{"name", "closed",
    "points"}`` (``name`` of the leaver; ``closed`` when the room was closed),
    else None.  ``settlements`` (from :func:`match_history`) saves the query."""
    if hand is None:
        return None
    if settlements is not None:
        recent = [t for t in settlements if t.hand_number >= hand.number - 1]
        row = max(recent, key=lambda t: t.id) if recent else None
    else:
        row = (
            TributeSettlement.objects.filter(hand__match_id=hand.match_id, hand__number__gte=hand.number - 1)
            .select_related("user")
            .order_by("-id")
            .first()
        )
    if row is None:
        return None
    return {
        "name": row.user.get_username() if row.user_id else "",
        "closed": row.seat is None,
        "points": list(row.points),
    }


def describe_action(payload: dict) -> dict:
    """``{"label", "cards"}`` for a stored action (replay page): the button
    label of its verb and its cards, if any.

    >>> describe_action({"seat": 1, "crown": "accept"})["label"] == ACTION_LABELS["crown-accept"]
    True
    """
    verb = next((k for k in payload if k != "seat"), "")
    value = payload.get(verb)
    if verb in CARD_VERBS:
        return {"label": ACTION_LABELS.get(verb, verb), "cards": list(value or [])}
    if isinstance(value, str):
        key = f"{verb}-{value}"
        return {"label": ACTION_LABELS.get(key, key), "cards": []}
    if verb == "give" and isinstance(value, dict):
        return {"label": ACTION_LABELS.get(verb, verb), "cards": [c for v in value.values() for c in v]}
    return {"label": ACTION_LABELS.get(verb, verb), "cards": []}


def hand_result(hand: Hand, nseats: int, fallback_names: list[str]) -> dict | None:
    """The result panel of a completed hand: winner, and per seat the name,
    place, role and game points (multiplier included, C4)."""
    summary = hand.summary
    if not summary:
        return None
    points = services._by_seat(summary.get("game_points"), nseats)
    order = summary.get("finish_order") or []
    names = [p.get("name", "") for p in (hand.players or [])] or fallback_names
    return {
        "hand": hand,
        "summary": summary,
        "voided": bool(summary.get("voided")),
        "winner": WINNER_NAMES.get(summary.get("winner"), summary.get("winner")),
        "rows": [
            {
                "index": i,
                "name": names[i] if i < len(names) else "",
                "points": points[i],
                "place": PLACE_NAMES[order.index(i)] if i in order else None,
                "is_emperor": summary.get("emperor") == i,
                "is_guard": summary.get("guard") == i,
            }
            for i in range(nseats)
        ],
    }


@dataclass(frozen=True)
class TableSnapshot:
    """Every viewer-independent read behind a table fragment, taken once per
    room version: the room, its seats (users joined), the latest hand, its
    action count and engine state, the score sheet, the previous completed
    hand and the B14 notice.  :func:`table_context` turns it into one seat's
    view without touching the database, so the sockets of one room in one
    process share a single read (:mod:`games.live`).

    The snapshot holds the full engine state (every seat's cards): it must
    only ever go through :func:`table_context`, which passes the viewer's own
    seat to ``rules.view``; it never leaves the process.
    """

    room: Room
    seats: tuple
    hand: Hand | None
    action_count: int
    state: object
    score_rows: list
    totals: list
    previous: Hand | None
    settlement: dict | None

    @property
    def version(self) -> int:
        return self.room.version


def table_snapshot(room: Room) -> TableSnapshot:
    """Read everything :func:`table_context` needs except the viewer: four
    queries (seats; hand with its action count; the match's completed hands;
    its tribute settlements) plus one for the actions this process has not
    applied yet (the hand state comes from the incremental cache,
    :func:`games.services.hand_state`), whatever the length of the hand."""
    rules = get_rules(room.game)
    seats = tuple(room.seats.select_related("user").order_by("index"))
    hand = services.current_hand_counted(room)
    state = None
    action_count = 0
    rows, totals, previous, settlement = [], [0] * rules.seats, None, None
    if hand is not None:
        action_count = hand.n_actions
        state = services.hand_state(hand, count=action_count)
        completed, settlements = match_history(hand)
        rows, totals = score_sheet(room, hand, rules.seats, (completed, settlements))
        if not hand.complete and hand.number > 1:
            previous = next((h for h in completed if h.number == hand.number - 1), None)
        settlement = latest_settlement(hand, settlements)
    return TableSnapshot(
        room, seats, hand, action_count, state, rows, totals, previous, settlement
    )


def table_context(
    room: Room, user, committed_at: int | None = None, snapshot: TableSnapshot | None = None
) -> dict:
    """Everything the table templates need for ``user`` (seated or not).

    ``snapshot`` (:func:`table_snapshot` of this room) saves every query;
    without it the room is read here."""
    if snapshot is None:
        snapshot = table_snapshot(room)
    room = snapshot.room
    rules = get_rules(room.game)
    seats = list(snapshot.seats)
    me = seat_of(seats, user)
    hand = snapshot.hand
    view = None
    state = snapshot.state
    buttons: list[ActionButton] = []
    hint = ""
    action_count = snapshot.action_count
    if hand is not None:
        view = rules.view(state, me)
        if me is not None and not hand.complete:
            buttons = action_buttons(rules.legal_verbs(state, me))
            if any(b.needs_cards for b in buttons):
                # 提示: the engine's hint where it has one (baohuang: the
                # smallest set that beats the top), else the C5 move; both
                # from this seat's own cards only.
                hinter = getattr(rules, "hint", None)
                suggestion = hinter(state, me) if hinter else rules.auto_action(state, me)
                if suggestion is not None and suggestion.verb in CARD_VERBS:
                    hint = " ".join(c.code for c in suggestion.cards)
    rows, totals = snapshot.score_rows, snapshot.totals
    counts = (view or {}).get("counts") or {}
    finished = list((view or {}).get("finished") or [])
    to_act = (view or {}).get("to_act") if hand is not None and not hand.complete else None
    seat_rows = []
    for seat in seats:
        place = finished.index(seat.index) if seat.index in finished else None
        seat_rows.append(
            {
                "seat": seat,
                "index": seat.index,
                "name": seat.display_name(),
                "is_me": seat.index == me,
                "count": counts.get(str(seat.index)),
                "place": PLACE_NAMES[place] if place is not None and place < len(PLACE_NAMES) else None,
                "is_turn": to_act == seat.index,
                "is_emperor": view is not None and view.get("emperor") == seat.index,
                "is_guard": view is not None and view.get("guard") == seat.index,
                "total": totals[seat.index] if seat.index < len(totals) else 0,
            }
        )
    result = None
    last_result = None
    if hand is not None and hand.complete:
        result = hand_result(hand, rules.seats, [r["name"] for r in seat_rows])
    elif snapshot.previous is not None:
        last_result = hand_result(snapshot.previous, rules.seats, [r["name"] for r in seat_rows])
    my_seat = seats[me] if me is not None else None
    now = timezone.now()
    ctx = {
        "room": room,
        "game": room.game,
        "rules": rules,
        "seats": seats,
        "seat_rows": seat_rows,
        "names": [r["name"] or _("空座") for r in seat_rows],
        "me": me,
        "my_seat": my_seat,
        "is_owner": user is not None and user.is_authenticated and room.owner_id == user.pk,
        "has_empty": any(s.is_empty for s in seats),
        "hand": hand,
        "view": view,
        "to_act": to_act,
        "my_turn": to_act is not None and to_act == me,
        "phase_name": PHASE_NAMES.get((view or {}).get("phase"), (view or {}).get("phase")),
        "buttons": buttons,
        "hint": hint,
        "action_count": action_count,
        "score_rows": rows,
        "settlement": snapshot.settlement,
        "totals": totals,
        "result": result,
        "last_result": last_result,
        "version": room.version,
        "committed_at": committed_at or epoch_ms(room.changed),
        "deadline_ms": epoch_ms(room.deadline) if room.status == Room.Status.PLAYING else 0,
        "server_now_ms": epoch_ms(now),
        "between_hands": hand is not None and hand.complete and room.status == Room.Status.PLAYING,
    }
    if room.game == "shengji":
        from .shengji_table import shengji_context

        ctx.update(shengji_context(ctx, state))
    return ctx


def render_table(
    room: Room, user, committed_at: int | None = None, request=None,
    snapshot: TableSnapshot | None = None,
) -> str:
    """The ``#table`` fragment for ``user`` (HTML string); ``snapshot`` as
    for :func:`table_context` (then no query is made)."""
    ctx = table_context(room, user, committed_at, snapshot)
    return render_to_string("games/_table.html", ctx, request=request)


def lobby_rooms(game: str):
    """Rooms shown in a game's lobby: waiting and playing, newest first."""
    return (
        Room.objects.filter(game=game)
        .exclude(status=Room.Status.CLOSED)
        .select_related("owner")
        .prefetch_related("seats")
        .order_by("-created")[:100]
    )


def render_room_list(game: str, request=None) -> str:
    """The ``#room-list`` fragment of a lobby."""
    rooms = []
    for room in lobby_rooms(game):
        seats = list(room.seats.all())
        rooms.append(
            {
                "room": room,
                "taken": sum(1 for s in seats if not s.is_empty),
                "total": len(seats),
            }
        )
    return render_to_string(
        "games/_room_list.html", {"rooms": rooms, "game": game}, request=request
    )
