"""Pages and POST endpoints.  Thin: parse, call :mod:`games.services`,
render.  Refusals answer with a message fragment (``#act-msg``) and the
service's status (400 illegal/garbage, 403 not your seat or turn, 409 stale
version, full room); htmx is told to put it in ``#act-msg``.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import scheduling, services, tables
from .engine import GAMES, get_rules
from .engine.records import FORMAT
from .forms import CreateRoomForm
from .models import GAME_CHOICES, Hand, HandAction, Room, TributeSettlement

GAME_NAMES = dict(GAME_CHOICES)


# --------------------------------------------------------------------------- helpers


def refuse(request, message: str, status: int, detail: str = "") -> HttpResponse:
    """A refusal: the message fragment with ``status``, retargeted by htmx."""
    response = HttpResponse(
        render_to_string(
            "games/_message.html",
            {"message": message, "detail": detail, "error": True},
            request=request,
        ),
        status=status,
    )
    response["HX-Retarget"] = "#act-msg"
    response["HX-Reswap"] = "outerHTML"
    return response


def table_response(request, room: Room) -> HttpResponse:
    """After a change: the fresh ``#table`` (htmx) or a redirect to the room."""
    if getattr(request, "htmx", False):
        room.refresh_from_db()
        html = tables.render_table(room, request.user, request=request)
        html += render_to_string("games/_message.html", {"message": "", "oob": True})
        return HttpResponse(html)
    return redirect("room", room.pk)


def _room_op(request, room_id: int, op):
    if not request.user.is_authenticated:
        return refuse(request, _("请先登录"), 403)
    room = get_object_or_404(Room, pk=room_id)
    try:
        op(room)
    except services.ServiceError as exc:
        return refuse(request, exc.message, exc.status)
    return table_response(request, room)


# --------------------------------------------------------------------------- lobby


def lobby(request):
    """Both games, with how many rooms each has open."""
    scheduling.ensure_sweeper()
    games = [
        {
            "code": g,
            "name": GAME_NAMES[g],
            "rooms": Room.objects.filter(game=g).exclude(status=Room.Status.CLOSED).count(),
        }
        for g in GAMES
    ]
    return render(request, "games/lobby.html", {"games": games})


def game_lobby(request, game: str):
    """One game's rooms (name, multiplier, seats taken, status), live over ws."""
    scheduling.ensure_sweeper()
    if game not in GAMES:
        raise Http404
    return render(
        request,
        "games/game_lobby.html",
        {"game": game, "game_name": GAME_NAMES[game], "room_list": tables.render_room_list(game, request)},
    )


@login_required
def room_create(request):
    if request.method == "POST":
        form = CreateRoomForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                room = services.create_room(
                    request.user,
                    data["game"],
                    data["name"],
                    multiplier=data["multiplier"],
                    turn_seconds=data["turn_seconds"],
                    bot_delay_ms=data["bot_delay_ms"],
                    options=data["options"],
                )
            except services.ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                return redirect("room", room.pk)
    else:
        initial = {}
        if request.GET.get("game") in GAMES:
            initial["game"] = request.GET["game"]
        form = CreateRoomForm(initial=initial)
    return render(request, "games/room_create.html", {"form": form})


# --------------------------------------------------------------------------- table


@login_required
def room(request, room_id: int):
    scheduling.ensure_sweeper()  # embedded topology: resume tables after a restart
    room = get_object_or_404(Room, pk=room_id)
    ctx = tables.table_context(room, request.user)
    ctx["table_html"] = tables.render_table(room, request.user, request=request)
    return render(request, "games/room.html", ctx)


@login_required
def table_fragment(request, room_id: int):
    """The ``#table`` fragment alone (polling fallback, tests)."""
    room = get_object_or_404(Room, pk=room_id)
    return HttpResponse(tables.render_table(room, request.user, request=request))


@require_POST
def act(request, room_id: int):
    """POST ``verb`` (a data-action hook: play, yield, pass, crown-accept …),
    ``cards`` (space-separated C1 codes, for play) and ``version`` (the room
    version the player saw).  The seat is the user's own; a ``seat`` field
    naming another seat is refused (403)."""
    if not request.user.is_authenticated:
        return refuse(request, _("请先登录"), 403)
    room = get_object_or_404(Room, pk=room_id)
    seat = room.seats.filter(user=request.user).first()
    if seat is None:
        return refuse(request, _("你没有坐在这张桌上"), 403)
    claimed = request.POST.get("seat")
    if claimed not in (None, "") and claimed != str(seat.index):
        return refuse(request, _("不能替别的座位出牌"), 403)
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        return refuse(request, _("缺少版本号"), 400)
    verb = request.POST.get("verb", "")
    cards = request.POST.get("cards", "").split()
    if len(verb) > 32 or len(cards) > 64:
        return refuse(request, _("无效的动作"), 400)
    try:
        record = tables.parse_verb(verb, cards, request.POST)
    except ValueError as exc:
        return refuse(request, str(exc), 400)
    try:
        outcome = services.do_action(
            room.pk, seat.index, record, version, actor=HandAction.Actor.USER, user=request.user
        )
    except services.IllegalMove as exc:
        explained = tables.RULE_MESSAGES.get(exc.rule)
        if explained:
            return refuse(request, str(explained), exc.status, detail=exc.message)
        return refuse(request, exc.message, exc.status)
    except services.ServiceError as exc:
        return refuse(request, exc.message, exc.status)
    if not outcome.applied:
        return refuse(request, _("牌桌已经变化，请按最新状态再操作"), 409)
    return table_response(request, room)


@require_POST
def seat_take(request, room_id: int):
    try:
        index = int(request.POST.get("index", ""))
    except ValueError:
        return refuse(request, _("没有这个座位"), 400)
    return _room_op(request, room_id, lambda room: services.take_seat(room, request.user, index))


@require_POST
def seat_leave(request, room_id: int):
    return _room_op(request, room_id, lambda room: services.leave_seat(room, request.user))


@require_POST
def seat_ready(request, room_id: int):
    ready = request.POST.get("ready", "1") not in ("0", "false", "")
    return _room_op(request, room_id, lambda room: services.set_ready(room, request.user, ready))


@require_POST
def room_fill_bots(request, room_id: int):
    policy = request.POST.get("policy", "heuristic")
    return _room_op(request, room_id, lambda room: services.fill_bots(room, request.user, policy))


@require_POST
def seat_autoplay(request, room_id: int):
    on = request.POST.get("on", "1") not in ("0", "false", "")
    return _room_op(request, room_id, lambda room: services.set_autoplay(room, request.user, on))


@require_POST
def room_close(request, room_id: int):
    if not request.user.is_authenticated:
        return refuse(request, _("请先登录"), 403)
    room = get_object_or_404(Room, pk=room_id)
    try:
        services.close_room(room, request.user)
    except services.ServiceError as exc:
        return refuse(request, exc.message, exc.status)
    return redirect("game_lobby", room.game)


# --------------------------------------------------------------------------- records


def _completed_hand(hand_id: int) -> Hand:
    hand = get_object_or_404(Hand.objects.select_related("match", "match__room"), pk=hand_id)
    if not hand.complete:
        raise Http404("hand in play")  # C3: nothing of a hand in play is published
    return hand


def build_record(hand: Hand, scope: str = "match") -> dict:
    """The hand record (``shared/spec/hand-record.md``) of ``hand`` alone
    (``scope="hand"``) or of its match up to and including it (``"match"``,
    every completed hand, voided deals included, so tribute carries over).
    A tribute that lapsed when a player left (B14) breaks the carry-over: the
    match record then starts at the first hand dealt after the lapse (or the
    hand whose unpaid tribute lapsed), whose ``start`` is the new carry-in."""
    if scope == "hand":
        hands = [hand]
    else:
        cut = 1
        for number, carry in TributeSettlement.objects.filter(
            hand__match_id=hand.match_id, hand__number__lte=hand.number
        ).values_list("hand__number", "carry"):
            start_at = number + 1 if carry is not None else number
            if start_at <= hand.number:
                cut = max(cut, start_at)
        hands = list(
            hand.match.hands.filter(number__gte=cut, number__lte=hand.number, complete=True)
            .order_by("number")
        )
    first = hands[0]
    start = first.start or {}
    players = [p.get("name", "") for p in (hand.players or [])]
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


@login_required
def hand_record(request, hand_id: int):
    """Download the record of a completed hand's match so far (``?scope=hand``:
    that hand alone)."""
    hand = _completed_hand(hand_id)
    scope = "hand" if request.GET.get("scope") == "hand" else "match"
    record = build_record(hand, scope)
    response = JsonResponse(record, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = (
        f'attachment; filename="{hand.match.room.game}-room{hand.match.room_id}'
        f'-m{hand.match.number}-h{hand.number}.json"'
    )
    return response


@login_required
def hand_replay(request, hand_id: int):
    """Step through a completed hand: ``?step=k`` shows the state after k
    actions with every seat's cards (the hand is over, nothing is hidden)."""
    hand = _completed_hand(hand_id)
    rules = get_rules(hand.match.room.game)
    payloads = list(hand.actions.order_by("seq").values_list("payload", flat=True))
    try:
        step = int(request.GET.get("step", len(payloads)))
    except ValueError:
        step = len(payloads)
    step = max(0, min(step, len(payloads)))
    state = services.hand_state(hand, payloads, upto=step)
    public = rules.view(state, None)
    names = [p.get("name", "") for p in (hand.players or [])]
    seats = [
        {
            "index": s,
            "name": names[s] if s < len(names) else "",
            "cards": rules.view(state, s).get("hand", []),
            "is_turn": rules.to_act(state) == s,
        }
        for s in range(rules.seats)
    ]
    return render(
        request,
        "games/replay.html",
        {
            "hand": hand,
            "room": hand.match.room,
            "step": step,
            "total": len(payloads),
            "action": payloads[step - 1] if step else None,
            "actions": payloads,
            "public": public,
            "seats": seats,
            "names": names,
            "summary": hand.summary,
            "phase_name": tables.PHASE_NAMES.get(public.get("phase"), public.get("phase")),
            "described": tables.describe_action(payloads[step - 1]) if step else None,
        },
    )
