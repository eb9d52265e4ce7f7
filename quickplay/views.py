"""Quick-play pages and endpoints (thin: the work is in :mod:`quickplay.services`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from games.engine import get_rules
from games.live.group_push import PUSH_SWAP
from games.models import GAME_CHOICES

from . import services
from .models import QueueEntry

GAME_LABELS = dict(GAME_CHOICES)


def _bot_wait(value):
    """The form's bot wait: "10", "30" or "never" (a socket command may send
    a JSON number too).  Anything else, of any type, gives -1, which the
    service refuses (a list or an object here closed the socket with 1011)."""
    if value == "never":
        return None
    if value is None or value == "":
        return services.DEFAULT_BOT_WAIT
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 6 and str(int(value)) == value:
        return int(value)  # canonical digits only: "010" is not the form's "10" (the fuzz test queued on it)
    return -1  # refused by the service


def status_context(user) -> dict:
    """What the status fragment shows for ``user``."""
    entry = services.active_entry(user)
    match = None if entry is not None else services.recent_match(user)
    return {
        "entry": entry,
        "match": match,
        "game_name": GAME_LABELS.get(entry.game) if entry else None,
        "grace_s": services.GRACE_S,
    }


def render_status(user, request=None, csrf_token: str = "", swap_oob: str | None = None) -> str:
    """The ``#queue-status`` fragment for ``user``; a websocket push passes no
    request but the browser's ``csrf_token`` (games.live.socket_scope.scope_csrf_token)
    so the fragment's leave forms keep working, and ``swap_oob``, how the page
    applies it (:data:`games.live.group_push.PUSH_SWAP`: queue.js morphs it in)."""
    context = status_context(user)
    context["swap_oob"] = swap_oob
    if csrf_token and request is None:
        context["csrf_token"] = csrf_token
    return render_to_string("quickplay/_status.html", context, request=request)


@login_required
def play(request, game: str):
    """The quick-play page of ``game``: the queue state, or the form."""
    if game not in GAME_LABELS:
        raise Http404
    ctx = status_context(request.user)
    if ctx["entry"] is None and ctx["match"] is not None and request.GET.get("stay") is None:
        return redirect("room", ctx["match"].room_id)
    ctx.update({
        "game": game,
        "game_name": GAME_LABELS[game],
        "pairs": bool(get_rules(game).partner_slots),
        "status": render_status(request.user, request),
    })
    return render(request, "quickplay/play.html", ctx)


@require_POST
@login_required
def join(request, game: str):
    """"Play now": join the queue, then the quick-play page."""
    try:
        if request.POST.get("pair"):
            services.invite(request.user, game, _bot_wait(request.POST.get("bots")))
        else:
            services.join(request.user, game, _bot_wait(request.POST.get("bots")))
    except services.QueueError as exc:
        messages.error(request, exc.message)
    return redirect("quickplay", game)


@require_POST
@login_required
def leave(request):
    """Leave the queue (a pair leaves together)."""
    entry = services.active_entry(request.user)
    services.leave(request.user)
    if request.htmx:
        return render(request, "quickplay/_status.html", status_context(request.user))
    return redirect("quickplay", entry.game if entry else GAME_CHOICES[0][0])


@login_required
def pair(request, code: str):
    """A pair invitation: GET asks, POST accepts."""
    entry = QueueEntry.objects.filter(code=code).select_related("user").first()
    if entry is None:
        raise Http404
    if request.method == "POST":
        try:
            services.accept(request.user, code)
        except services.QueueError as exc:
            messages.error(request, exc.message)
        return redirect("quickplay", entry.game)
    return render(request, "quickplay/pair.html", {
        "entry": entry, "game_name": GAME_LABELS.get(entry.game),
        "usable": entry.status == QueueEntry.Status.FORMING and entry.user_id != request.user.pk,
    })


@login_required
def status(request):
    """The status fragment (a fallback when the websocket is down)."""
    services.ping(request.user)
    context = status_context(request.user)
    context["swap_oob"] = PUSH_SWAP  # applied as a push is (queue.js)
    return render(request, "quickplay/_status.html", context)
