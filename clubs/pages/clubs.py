"""Club pages and POST endpoints.  Thin: parse, call :mod:`clubs.services`,
redirect; a refusal answers with the page ``clubs/refused.html`` (the
message, the service's status: 403 not an organiser of this club)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import services
from ..models import Club


def confirmation(request, question: str, ok: str, back: str):
    """None when the POST carries ``confirm=1``; otherwise the confirmation
    page (200): ``question``, a button ``ok`` that posts the same fields again
    with ``confirm=1``, and a way ``back``.  Organisers' actions that remove,
    withdraw, substitute, register for someone, edit or cancel ask first."""
    if request.POST.get("confirm") == "1":
        return None
    fields = [(k, v) for k in request.POST if k not in ("csrfmiddlewaretoken", "confirm")
              for v in request.POST.getlist(k)]
    return render(request, "clubs/confirm.html", {
        "question": question, "ok": ok, "back": back, "action": request.path, "fields": fields,
    })


def refused(request, exc: services.ClubError, club: Club | None = None):
    """The refusal page: ``exc.message`` with status ``exc.status``."""
    return render(request, "clubs/refused.html", {"message": exc.message, "club": club}, status=exc.status)


def club_list(request):
    """Every club; the user's own first; a form to create one."""
    mine = []
    if request.user.is_authenticated:
        mine = list(
            Club.objects.filter(memberships__user=request.user).distinct().order_by("name")
        )
    others = Club.objects.exclude(pk__in=[c.pk for c in mine]).order_by("name")[:200]
    return render(request, "clubs/list.html", {"mine": mine, "others": others})


@login_required
@require_POST
def club_create(request):
    try:
        club = services.create_club(request.user, request.POST.get("name", ""), request.POST.get("description", ""))
    except services.ClubError as exc:
        return refused(request, exc)
    messages.success(request, _("俱乐部已创建，你是组织者"))
    return redirect(club)


def club_page(request, club_id: int):
    """The club's page: members, organisers, events; organisers see their tools."""
    club = get_object_or_404(Club, pk=club_id)
    user = request.user
    membership = club.memberships.filter(user=user).first() if user.is_authenticated else None
    context = {
        "club": club,
        "membership": membership,
        "can_manage": user.has_perm("clubs.manage_club", club),
        "members": club.memberships.select_related("user").order_by("-role", "user__username"),
        "join_link": request.build_absolute_uri(club.join_url()),
    }
    return render(request, "clubs/club.html", context)


def club_join(request, code: str):
    """The join link: GET shows the club and a button, POST joins."""
    club = Club.objects.filter(join_code=code).first()
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{_login_url()}?next={request.path}")
        try:
            club = services.join_club(request.user, code)
        except services.ClubError as exc:
            return refused(request, exc)
        messages.success(request, _("你已加入俱乐部“%(club)s”") % {"club": club.name})
        return redirect(club)
    if club is None:
        return refused(request, services.ClubError(_("加入链接无效或已经更换")))
    member = request.user.is_authenticated and club.memberships.filter(user=request.user).exists()
    return render(request, "clubs/join.html", {"club": club, "member": member, "code": code})


def club_join_code(request):
    """The "join with a code" form: on to the join link of that code."""
    code = (request.GET.get("code") or "").strip()
    if not code:
        return redirect("club_list")
    return redirect("club_join", code)


def _login_url():
    return resolve_url(settings.LOGIN_URL)


def _club_op(request, club_id: int, op, done: str):
    if not request.user.is_authenticated:
        return refused(request, services.Forbidden(_("请先登录")))
    club = get_object_or_404(Club, pk=club_id)
    try:
        op(club)
    except services.ClubError as exc:
        return refused(request, exc, club)
    messages.success(request, done)
    return redirect(club)


@require_POST
def club_edit(request, club_id: int):
    return _club_op(
        request, club_id,
        lambda c: services.update_club(request.user, c, request.POST.get("name", ""), request.POST.get("description", ""),
                                       public_tables=request.POST.get("public_tables") == "1"),
        _("已保存"),
    )


@require_POST
def club_new_code(request, club_id: int):
    return _club_op(request, club_id, lambda c: services.new_code(request.user, c), _("已更换加入链接，旧链接失效"))


@require_POST
def member_remove(request, club_id: int, user_id: int):
    """Remove a member, after a confirmation page."""
    club = get_object_or_404(Club, pk=club_id)
    member = club.memberships.select_related("user").filter(user_id=user_id).first()
    if member is not None and request.user.has_perm("clubs.manage_club", club):
        asked = confirmation(
            request, _("确定把 %(name)s 移出俱乐部“%(club)s”吗？") % {"name": member.user.get_username(), "club": club.name},
            _("移除"), club.get_absolute_url(),
        )
        if asked is not None:
            return asked
    return _club_op(request, club_id, lambda c: services.remove_member(request.user, c, user_id), _("已移除会员"))


@require_POST
def member_organiser(request, club_id: int, user_id: int):
    on = request.POST.get("organiser", "1") == "1"
    return _club_op(
        request, club_id,
        lambda c: services.set_organiser(request.user, c, user_id, on),
        _("已设为组织者") if on else _("已取消组织者身份"),
    )


@require_POST
def club_leave(request, club_id: int):
    return _club_op(request, club_id, lambda c: services.leave_club(request.user, c), _("你已退出俱乐部"))

