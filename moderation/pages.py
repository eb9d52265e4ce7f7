"""Pages: a player's report form, block list, room minimum and his own
record (with the appeal); the moderators' queue, a report, a player's
history and the actions.  Views are thin: every change is a function of
:mod:`moderation.services`.  Every moderator page answers 403 to a
signed-in user without the ``moderation.moderate`` permission."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from accounts.validators import id_number, text_problem

from . import reputation, services
from .models import Action, Block, Report
from .services import ModerationError


def moderator_required(view):
    """Sign-in first; then 403 unless the user is a moderator."""

    @login_required
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not services.is_moderator(request.user):
            return HttpResponseForbidden(_("只有版主可以打开这个页面"))
        return view(request, *args, **kwargs)

    wrapped.moderators_only = True
    return wrapped


def _int(value) -> int | None:
    """An id or number from a form (0 … 2**63 − 1: 0 is a room's "no
    minimum"), or None for anything else."""
    return id_number(value, minimum=0)


# --------------------------------------------------------------------------- signal receivers


def page_links(sender, room=None, hand=None, user=None, **kwargs) -> list[dict]:
    """``games.signals.page_links`` receiver: "report a player" on a table
    the viewer sits at (or played) and on a replay of a hand he played;
    "seat requirement" for the room's owner."""
    if user is None or not user.is_authenticated:
        return []
    links = []
    url = reverse("moderation_report")
    if hand is not None:
        if services.played(hand, user):
            links.append({"key": "report", "label": pgettext("room menu", "举报玩家"), "url": f"{url}?hand={hand.pk}&source=replay"})
        return links
    if room.seats.filter(user=user).exists() or (
            (last := services.hand_at(room)) is not None and services.played(last, user)):
        links.append({"key": "report", "label": pgettext("room menu", "举报玩家"), "url": f"{url}?room={room.pk}&source=table"})
    if room.owner_id == user.pk:
        links.append({"key": "minimum", "label": pgettext("room menu", "入座要求"),
                      "url": reverse("moderation_room_minimum", args=[room.pk])})
    return links


def profile_context(sender, user=None, **kwargs) -> dict:
    """``accounts.signals.profile_context`` receiver: the profile's reputation."""
    return {"moderation_reputation": reputation.reputation(user)}


# --------------------------------------------------------------------------- players


@login_required
def report(request):
    """GET: the form (``?room=`` a table, ``?hand=`` a replay, ``?line=`` a
    chat line, ``?user=`` a profile); POST: file it."""
    from games.models import ChatMessage, Hand, Room

    data = request.POST if request.method == "POST" else request.GET
    source = data.get("source", "")
    line = hand = room = target = None
    if _int(data.get("line")):
        line = ChatMessage.objects.select_related("user", "room").filter(pk=_int(data.get("line"))).first()
        source = Report.Source.CHAT
    if _int(data.get("hand")):
        hand = Hand.objects.select_related("match__room").filter(pk=_int(data.get("hand"))).first()
        source = source or Report.Source.REPLAY
    if _int(data.get("room")):
        room = Room.objects.filter(pk=_int(data.get("room"))).first()
        source = source or Report.Source.TABLE
    if _int(data.get("user")):
        target = get_user_model().objects.filter(pk=_int(data.get("user"))).first()
        source = source or Report.Source.PROFILE
    error = ""
    if request.method == "POST":
        try:
            filed = services.file_report(request.user, target, data.get("reason", ""), data.get("note", ""),
                                         source, hand=hand, room=room, line=line)
        except ModerationError as exc:
            error = exc.message
        else:
            return render(request, "moderation/reported.html", {"report": filed})
    # the hand a report of these parameters carries, in file_report's order
    if line is not None:
        shown = services.hand_at(line.room, line.created)
    else:
        shown = hand or (services.hand_at(room) if room is not None else None)
    if shown is not None and not services.played(shown, request.user):
        # nothing of a hand I did not play (its players, a private room's chat line)
        return render(request, "moderation/report.html", {
            "error": _("只能举报你参与过的牌局"), "refused": True}, status=403)
    players = []
    if line is not None:
        players = [line.user]
    elif target is not None:
        players = [target]
    elif shown is not None:
        ids = [p.get("user") for p in shown.players or [] if p.get("user") and p.get("user") != request.user.pk]
        players = list(get_user_model().objects.filter(pk__in=ids))
    return render(request, "moderation/report.html", {
        "reasons": Report.Reason.choices, "players": players, "line": line, "hand": shown, "room": room,
        "source": source, "error": error, "note_max": services.NOTE_MAX,
        "params": {k: data.get(k) for k in ("line", "hand", "room") if _int(data.get(k))},
        "chosen": _int(data.get("user")),
    }, status=400 if error else 200)


@login_required
def blocks(request):
    """My block list: add by username, remove (POST); the blocked player is
    never told."""
    error = ""
    if request.method == "POST":
        if _int(request.POST.get("remove")):
            services.unblock(request.user, _int(request.POST.get("remove")))
            return redirect("moderation_blocks")
        name = request.POST.get("username")
        if name is not None:  # the list's form: by username
            name = name.strip()
            other = None if text_problem(name) else get_user_model().objects.filter(username=name).first()
        else:  # a profile's button: by id
            other = services.target_user(_int(request.POST.get("user")))
        if other is None:
            error = _("没有这个用户")
        else:
            try:
                services.block(request.user, other)
            except ModerationError as exc:
                error = exc.message
            else:
                return redirect("moderation_blocks")
    rows = Block.objects.filter(user=request.user).select_related("blocked")
    return render(request, "moderation/blocks.html", {"blocks": rows, "error": error},
                  status=400 if error else 200)


@login_required
def room_minimum(request, room_id: int):
    """The owner's seat requirement of a room: the minimum reputation."""
    from games.models import Room

    room = get_object_or_404(Room, pk=room_id)
    if room.owner_id != request.user.pk:
        return HttpResponseForbidden(_("只有房主可以设置入座要求"))
    error = ""
    if request.method == "POST":
        try:
            services.set_minimum(room, request.user, _int(request.POST.get("min_reputation")))
        except ModerationError as exc:
            error = exc.message
        else:
            return redirect("room", room.pk)
    return render(request, "moderation/room_minimum.html",
                  {"room": room, "minimum": services.minimum(room), "error": error},
                  status=400 if error else 200)


@login_required
def mine(request):
    """My reputation, my record of moderators' actions and the appeal."""
    error = ""
    if request.method == "POST":
        try:
            services.appeal(request.user, _int(request.POST.get("action")), request.POST.get("appeal", ""))
        except ModerationError as exc:
            error = exc.message
        else:
            return redirect("moderation_mine")
    actions = Action.objects.filter(target=request.user).exclude(kind=Action.Kind.DISMISS)
    return render(request, "moderation/mine.html", {
        "actions": actions, "reputation": reputation.reputation(request.user), "error": error,
        "appeal_days": services.APPEAL_DAYS,
    }, status=400 if error else 200)


# --------------------------------------------------------------------------- moderators


@moderator_required
def queue(request):
    """Open reports, oldest first, and appeals not answered."""
    reports = Report.objects.filter(status=Report.Status.OPEN).select_related("reporter", "reported", "hand")
    appeals = Action.objects.filter(appealed__isnull=False, lifted__isnull=True).select_related("target")[:50]
    return render(request, "moderation/queue.html", {"reports": reports[:200], "appeals": appeals})


@moderator_required
def report_detail(request, report_id: int):
    """One report: its hand (replay link), its chat lines, the player's history."""
    row = get_object_or_404(Report.objects.select_related("reporter", "reported", "hand", "room"), pk=report_id)
    return render(request, "moderation/report_detail.html", {
        "report": row, "kinds": Action.Kind.choices, "history": services.history(row.reported),
        "reputation": reputation.reputation(row.reported),
    })


@moderator_required
@require_POST
def report_act(request, report_id: int):
    """Act on a report: dismiss, warn, mute N days, suspend N days, ban."""
    row = get_object_or_404(Report, pk=report_id)
    try:
        services.act(request.user, row.reported, request.POST.get("kind", ""), request.POST.get("reason", ""),
                     _int(request.POST.get("days")), report=row)
    except ModerationError as exc:
        return render(request, "moderation/report_detail.html", {
            "report": row, "kinds": Action.Kind.choices, "history": services.history(row.reported),
            "reputation": reputation.reputation(row.reported), "error": exc.message,
        }, status=400)
    return redirect("moderation_queue")


@moderator_required
def player(request, user_id: int):
    """A player's history of reports and actions."""
    target = get_object_or_404(get_user_model(), pk=user_id)
    return render(request, "moderation/player.html", {
        "target": target, "history": services.history(target), "reputation": reputation.reputation(target),
    })


@moderator_required
@require_POST
def action_lift(request, action_id: int):
    """End a sanction early (an appeal granted)."""
    action = get_object_or_404(Action, pk=action_id)
    services.lift(request.user, action)
    return redirect("moderation_player", action.target_id)
