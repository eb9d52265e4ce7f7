"""Pages and POST endpoints.  Thin: parse, call :mod:`games.services`,
render.  Refusals answer with a message fragment (``#act-msg``) and the
service's status (400 illegal/garbage, 403 not your seat or turn, 409 stale
version, full room); htmx is told to put it in ``#act-msg``.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.pages import throttle
from games.render import rulings
from games.services import chat
from games import embargo, private_rooms, registry, services, signals
from games.render import tables
from games.services import records
from games.pages.forms import CreateRoomForm
from games.models import Hand, Room
from games.services.deadlines import FILL_POLICY
from django.contrib.auth.views import redirect_to_login
from games.pages import review as review_page
from games.pages import replay_table


# --------------------------------------------------------------------------- helpers


def refuse(request, message: str, status: int, rule_url: str = "") -> HttpResponse:
    """A refusal: the message fragment (one sentence, and a link to the rule
    on the help page when ``rule_url``) with ``status``, retargeted by htmx."""
    response = HttpResponse(
        render_to_string(
            "games/_message.html",
            {"message": message, "rule_url": rule_url, "error": True},
            request=request,
        ),
        status=status,
    )
    response["HX-Retarget"] = "#act-msg"
    response["HX-Reswap"] = "outerHTML"
    return response


def table_response(request, room: Room) -> HttpResponse:
    """After a change: the fresh ``#table`` (htmx) or a redirect to the room;
    to the game's lobby instead when the user may no longer see the room (a
    player who left a private room's seat)."""
    if room.private and watch_refusal(request, room) is not None:  # no query for other rooms
        lobby = reverse("game_lobby", args=[room.game])
        if getattr(request, "htmx", False):
            response = HttpResponse("")
            response["HX-Redirect"] = lobby
            return response
        return redirect(lobby)
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
    """Every registered game, with how many rooms each has open."""
    games = [
        {
            "code": spec.code,
            "name": spec.label,
            "blurb": spec.blurb,
            "rooms": Room.objects.filter(game=spec.code, private=False)
            .exclude(status=Room.Status.CLOSED).count(),  # private rooms are not counted
        }
        for spec in registry.specs()
    ]
    return render(request, "games/lobby.html", {"games": games})


def game_lobby(request, game: str):
    """One game's rooms (name, multiplier, seats taken, status), live over ws."""
    spec = registry.find(game)
    if spec is None:
        raise Http404
    return render(
        request,
        "games/game_lobby.html",
        {"game": game, "game_name": spec.label, "room_list": tables.render_room_list(game, request)},
    )


@login_required
def room_create(request):
    if request.method == "POST":
        form = CreateRoomForm(request.POST)
        if throttle.room_create_limited(request):
            form.is_valid()
            form.add_error(None, _("开房间太频繁，请一分钟后再试"))
            return render(request, "games/room_create.html", {"form": form}, status=429)
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
                    max_open_rooms=settings.GAMES_MAX_OPEN_ROOMS,
                    private=data["private"],
                )
            except services.ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                return redirect("room", room.pk)
    else:
        initial = {}
        if request.GET.get("game") in registry.codes():
            initial["game"] = request.GET["game"]
        form = CreateRoomForm(initial=initial)
    return render(request, "games/room_create.html", {"form": form})


# --------------------------------------------------------------------------- table


def watch_refusal(request, room: Room) -> HttpResponse | None:
    """None when ``request.user`` may see ``room``'s table; otherwise the
    answer: a redirect to sign in (anonymous, and no app lets visitors watch
    this room), or 403 with the sentence of :func:`games.embargo.watch_reason`
    (an app's rule: a club's tables closed to visitors, an entrant watching
    boards still to play).  A user seated at the room is never refused."""
    user = request.user
    if not user.is_authenticated:
        verdict = embargo.anonymous_watch(room)
        if verdict is None:
            return redirect_to_login(request.get_full_path())
    elif room.seats.filter(user=user).exists():
        return None
    reason = embargo.watch_reason(room, user)
    if reason:
        return render(request, "games/refused.html", {"message": reason}, status=403)
    return None


def room(request, room_id: int):
    room = get_object_or_404(Room, pk=room_id)
    refusal = watch_refusal(request, room)
    if refusal is not None:
        return refusal
    table = tables.table_view(room, request.user)
    ctx = {"room": table.room, "spec": table.spec, "is_owner": table.is_owner, "help_url": table.help_url}
    ctx["table_html"] = tables.render_table(room, request.user, request=request)
    ctx["quick_phrases"] = list(chat.QUICK_PHRASES.items())
    ctx["chat_max"] = chat.MAX_LENGTH
    if room.private:  # the players may pass the invite link on
        ctx["invite_url"] = private_rooms.invite_url(room, request)
    ctx["page_links"] = signals.collect_page_links(room.game, room, None, request.user)
    # where a seated player goes on when the room closes (an arena's next table)
    ctx["follow"] = next((link for link in ctx["page_links"] if link.get("follow")), None) \
        if table.me is not None and room.status != Room.Status.CLOSED else None
    return render(request, "games/room.html", ctx)


def room_invite(request, room_id: int, token: str):
    """The invite link of a private room (:mod:`games.private_rooms`).
    GET: the room's name and seats, a button per free seat; POST ``index``:
    take that seat (:func:`games.services.take_seat` with the token), then
    the room page.  404 for a wrong token or a room that is not private;
    sign in first; a user seated there already goes to the room."""
    room = get_object_or_404(Room, pk=room_id, private=True)
    if not private_rooms.valid_invite(room, token):
        raise Http404
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if room.seats.filter(user=request.user).exists():
        return redirect("room", room.pk)
    message, status = "", 200
    if request.method == "POST":
        try:
            index = int(request.POST.get("index", ""))
        except ValueError:
            message, status = _("没有这个座位"), 400
        else:
            try:
                outcome = services.take_seat(room, request.user, index, invite=token)
            except services.ServiceError as exc:
                message, status = exc.message, exc.status
            else:
                if outcome.applied:
                    return redirect("room", room.pk)
                message, status = _("牌桌已经变化，请再选一次"), 409
        room.refresh_from_db()
    seats = list(room.seats.select_related("user").order_by("index"))
    hand = services.current_hand(room) if room.status == Room.Status.PLAYING else None
    rejoin = services.rejoin_seat(room, seats, hand, request.user)
    rows = [{
        "index": s.index, "name": s.display_name(),
        "free": room.status != Room.Status.CLOSED and (
            s.is_empty or (s.is_bot and (room.status == Room.Status.WAITING or s.index == rejoin))),
    } for s in seats]
    return render(request, "games/room_invite.html",
                  {"room": room, "rows": rows, "message": message}, status=status)


def table_fragment(request, room_id: int):
    """The ``#table`` fragment alone (polling fallback, tests)."""
    room = get_object_or_404(Room, pk=room_id)
    refusal = watch_refusal(request, room)
    if refusal is not None:
        return refusal
    return HttpResponse(tables.render_table(room, request.user, request=request))


@require_POST
def act(request, room_id: int):
    """POST ``verb`` (a data-action hook: ``play``, ``pass``, ``<verb>-<choice>`` …),
    ``cards`` (space-separated C1 codes, for play) and ``version`` (the room
    version the player saw).  The seat is the user's own; a ``seat`` field
    naming another seat is refused (403).  One call, :func:`games.services.do_move`
    (one transaction; the verb is parsed with the game's spec once the locked
    row says which game).

    The answer carries no table: the push of the new version renders it once
    for every socket of the room, the mover's included (a version is rendered
    once per audience, never also for the POST).  htmx gets 204 No Content
    (nothing swapped); a plain form post is redirected to the room."""
    if not request.user.is_authenticated:
        return refuse(request, _("请先登录"), 403)
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        return refuse(request, _("缺少版本号"), 400)
    verb = request.POST.get("verb", "")
    cards = request.POST.get("cards", "").split()
    if len(verb) > 32 or len(cards) > 64:
        return refuse(request, _("无效的动作"), 400)

    def parse(game: str) -> dict:
        return tables.parse_verb(verb, cards, request.POST, registry.get(game))

    try:
        outcome = services.do_move(room_id, None, parse, version, user=request.user,
                                   claimed_seat=request.POST.get("seat"))
    except Room.DoesNotExist:
        raise Http404 from None
    except services.IllegalMove as exc:
        # one sentence in the user's language, never the engine's text
        game = Room.objects.values_list("game", flat=True).get(pk=room_id)
        sentence = tables.rule_message(registry.get(game), exc.rule) or rulings.GENERIC
        return refuse(request, str(sentence), exc.status, rule_url=rulings.rule_url(game, exc.rule))
    except services.ServiceError as exc:
        return refuse(request, exc.message, exc.status)
    if not outcome.applied:
        return refuse(request, _("牌桌已经变化，请按最新状态再操作"), 409)
    if outcome.reason == "held":
        # A hidden decision takes effect at its deadline (games.services.hidden).
        response = HttpResponse(render_to_string(
            "games/_message.html",
            {"message": _("已记下你的选择，时限到时生效（到那时之前可以改）")}, request=request))
        response["HX-Retarget"] = "#act-msg"
        response["HX-Reswap"] = "outerHTML"
        return response
    if getattr(request, "htmx", False):
        # 204: htmx swaps nothing (the button's morph of #table must not run
        # on an answer without a table); the push brings the table, whose
        # #act-msg is empty after a move
        return HttpResponse(status=204)
    return redirect("room", room_id)


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
    policy = request.POST.get("policy", FILL_POLICY)
    return _room_op(request, room_id, lambda room: services.fill_bots(room, request.user, policy))


@require_POST
def seat_autoplay(request, room_id: int):
    on = request.POST.get("on", "1") not in ("0", "false", "")
    return _room_op(request, room_id, lambda room: services.set_autoplay(room, request.user, on))


@require_POST
def room_invite_renew(request, room_id: int):
    """POST: the owner of a private room replaces its invite link (the old
    one seats no one, :func:`games.services.renew_invite`), then the room page."""
    if not request.user.is_authenticated:
        return refuse(request, _("请先登录"), 403)
    room = get_object_or_404(Room, pk=room_id)
    try:
        services.renew_invite(room.pk, request.user)
    except services.ServiceError as exc:
        return refuse(request, exc.message, exc.status)
    return redirect("room", room.pk)


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


class Embargoed(Exception):
    """A completed hand another app hides for now (:mod:`games.embargo`)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _completed_hand(hand_id: int, user) -> Hand:
    """The completed hand ``hand_id``; 404 for a hand in play (C3), and
    :class:`Embargoed` while an app hides it from ``user`` (a
    duplicate board other tables have yet to play)."""
    hand = get_object_or_404(Hand.objects.select_related("match", "match__room"), pk=hand_id)
    if not hand.complete:
        raise Http404("hand in play")  # C3: nothing of a hand in play is published
    reason = embargo.embargo_reason(hand, user)
    if reason:
        raise Embargoed(reason)
    return hand


def _embargoed(request, exc: Embargoed) -> HttpResponse:
    return render(request, "games/refused.html", {"message": exc.reason}, status=403)


@login_required
def hand_record(request, hand_id: int):
    """Download the record of a completed hand's match so far (``?scope=hand``:
    that hand alone).  403 with the reason while the hand is embargoed."""
    try:
        hand = _completed_hand(hand_id, request.user)
    except Embargoed as exc:
        return _embargoed(request, exc)
    scope = "hand" if request.GET.get("scope") == "hand" else "match"
    record = records.build_record(hand, scope)
    response = JsonResponse(record, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = (
        f'attachment; filename="{hand.match.room.game}-room{hand.match.room_id}'
        f'-m{hand.match.number}-h{hand.number}.json"'
    )
    return response


def _said_steps(ctx: dict, spec) -> list[dict]:
    """The steps so far as words (the replay's text list): ``[{"step" (1..k),
    "seat", "name", "label", "cards"}]`` (:func:`tables.describe_action`)."""
    names = ctx["names"]
    out = []
    for i, payload in enumerate(ctx["actions"][: ctx["step"]], start=1):
        said = tables.describe_action(payload, spec)
        seat = payload.get("seat")
        out.append({"step": i, "seat": seat, "name": names[seat] if isinstance(seat, int) and seat < len(names) else "",
                    "label": said["label"], "cards": said["cards"]})
    return out


@login_required
def hand_replay(request, hand_id: int):
    """Step through a completed hand on the felt: ``?step=k`` shows the
    state after k actions (0, the deal, without ``step``) with every seat's
    cards (the hand is over, nothing is hidden), drawn as the live table
    draws it (:mod:`games.pages.replay_table`); an htmx request gets the
    ``#replay`` fragment alone.  403 with the reason while the hand is
    embargoed."""
    try:
        hand = _completed_hand(hand_id, request.user)
    except Embargoed as exc:
        return _embargoed(request, exc)
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    ctx = records.replay_step(hand, step)
    spec = registry.get(hand.match.room.game)
    felt = replay_table.replay_table(spec, ctx, request)
    public = ctx["public"]
    for seat in ctx["seats"]:
        seat["tags"] = spec.seat_tags(hand.summary, seat["index"])
    marks = records.replay_marks(hand, ctx["actions"])
    template = "games/_replay_body.html" if getattr(request, "htmx", False) else "games/replay.html"
    return render(
        request,
        template,
        {
            **ctx,
            "phase_marks": [{**m, "label": tables.phase_name(spec, m["phase"])}
                            for m in marks if m["kind"] == "phase"],
            "trick_marks": [m for m in marks if m["kind"] == "trick"],
            "hand": hand,
            "room": hand.match.room,
            "spec": spec,
            "summary": hand.summary,
            "phase_name": tables.phase_name(spec, public.get("phase")),
            "described": tables.describe_action(ctx["action"], spec) if ctx["step"] else None,
            **review_page.review_context(hand, request.user, ctx["step"], ctx["names"],
                                         ticks=[m for m in marks if m["kind"] == "trick"],
                                         total_steps=ctx["total"]),
            "page_links": signals.collect_page_links(spec.code, hand.match.room, hand, request.user),
            "replay_table": felt,
            "said": _said_steps(ctx, spec),
        },
    )
