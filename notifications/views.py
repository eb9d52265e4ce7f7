"""Pages of the notifications app: the list, marking read, e-mail choices,
the one-click unsubscribe (a signed link; no sign-in needed)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core import signing
import json

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.preferences import language_of

from . import services
from .models import Kind, Notification, Unsubscribe


@login_required
def notice_list(request):
    """The signed-in user's notifications, newest first (the last 100)."""
    rows = list(Notification.objects.filter(user=request.user)[:100])
    off = set(Unsubscribe.objects.filter(user=request.user).values_list("kind", flat=True))
    return render(request, "notifications/list.html", {
        "notices": rows,
        "unread": any(n.read is None for n in rows),
        "kinds": [(code, label, code not in off) for code, label in Kind.choices],
        "push_key": settings.WEBPUSH_VAPID_PUBLIC_KEY if services.push_enabled() else "",
    })


@login_required
@require_POST
def push_subscribe(request):
    """The page's JSON POST of a browser's push subscription (after the user's click)."""
    if not services.push_enabled():
        raise Http404
    try:
        services.subscribe_push(request.user, json.loads(request.body or b"{}"))
    except (ValueError, RecursionError):  # RecursionError: nested too deep; JSONDecodeError is a ValueError
        return JsonResponse({"ok": False}, status=400)
    return JsonResponse({"ok": True})


def service_worker(request):
    """The push service worker (``/notices/sw.js``): shows a pushed notice, opens its page on a click."""
    js = (
        "self.addEventListener('push', e => { const d = e.data ? e.data.json() : {};"
        " e.waitUntil(self.registration.showNotification(d.title || '', {body: d.body || '', data: d.url || '/'})); });\n"
        "self.addEventListener('notificationclick', e => { e.notification.close();"
        " e.waitUntil(clients.openWindow(e.notification.data || '/')); });\n"
    )
    return HttpResponse(js, content_type="application/javascript")


@login_required
@require_POST
def notice_read(request):
    """Mark every notification of the signed-in user read (the pushed count follows)."""
    services.mark_read(request.user)
    return redirect("notices")


@login_required
@require_POST
def notice_email(request):
    """Which kinds the user receives by e-mail (the checked ones; none
    checked: none).  A kind that does not exist is refused (400, nothing
    changed), not read as "unsubscribe from everything"."""
    wanted = set(request.POST.getlist("kind"))
    if wanted - set(Kind.values):
        return HttpResponseBadRequest(_("未知的通知类别"), content_type="text/plain; charset=utf-8")
    for code in Kind.values:
        if code in wanted:
            Unsubscribe.objects.filter(user=request.user, kind=code).delete()
        else:
            services.unsubscribe(request.user.pk, code)
    return redirect("notices")


@csrf_exempt  # RFC 8058 one-click: the mail client POSTs without a session; the token is the proof
def unsubscribe(request, token: str):
    """GET: a page with one button; POST: no more e-mail of the token's kind.
    The page is in the language the e-mail was written in (the member's
    stored one, :func:`accounts.preferences.language_of`) unless this browser
    has chosen one (the language cookie): the link is opened from the e-mail,
    often in a browser that never visited the site."""
    try:
        user_id, kind = services.read_unsubscribe_token(token)
    except signing.BadSignature:
        raise Http404 from None
    member = get_user_model().objects.filter(pk=user_id).select_related("preference").first()
    if member is None:
        raise Http404  # an old e-mail of a deleted account (its Unsubscribe row would be an IntegrityError)
    chosen = settings.LANGUAGE_COOKIE_NAME in request.COOKIES
    with translation.override(translation.get_language() if chosen else language_of(member)):
        return _unsubscribe_page(request, user_id, kind)


def _unsubscribe_page(request, user_id: int, kind: str):
    done = False
    if request.method == "POST":
        services.unsubscribe(user_id, kind)
        done = True
        if request.POST.get("List-Unsubscribe") == "One-Click":
            return HttpResponse("unsubscribed", content_type="text/plain")
    return render(request, "notifications/unsubscribe.html", {"done": done, "kind_label": Kind(kind).label})
