"""Every change to a club goes through this module, in one transaction.

Each organiser action checks ``clubs.manage_club`` for the club in question
(:mod:`clubs.rules`) before it touches anything and raises :class:`Forbidden`
with a message for the person refused; nothing is changed then.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.validators import clean_text

from .models import Club, Membership, new_join_code


class ClubError(Exception):
    """A refused request: ``message`` for the user, ``status`` for the view."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Forbidden(ClubError):
    """The user may not do this in this club (not an organiser of it)."""

    status = 403


class Conflict(ClubError):
    """The club is not in a state that allows this."""

    status = 409


def require(user, perm: str, obj, message: str | None = None) -> None:
    """Raise :class:`Forbidden` unless ``user.has_perm(perm, obj)``."""
    if not user.has_perm(perm, obj):
        if message is None:
            name = getattr(getattr(obj, "club", obj), "name", "")
            message = _("只有俱乐部“%(club)s”的组织者可以这样做") % {"club": name}
        raise Forbidden(message)


def _name_and_description(name, description) -> tuple[str, str]:
    """The club's name and description as stored (stripped), or
    :class:`ClubError` (400) for an empty name, either one longer than the
    model's limit (60 and 2000 characters), or text with NUL or a lone
    surrogate (every path enforces the limits, not only forms)."""
    limits = {f: Club._meta.get_field(f).max_length for f in ("name", "description")}
    try:
        name = clean_text(name, limits["name"])
        description = clean_text(description, limits["description"])
    except ValidationError as exc:
        raise ClubError(exc.messages[0]) from None
    if not name:
        raise ClubError(_("请填写俱乐部名称"))
    return name, description


def create_club(user, name: str, description: str = "") -> Club:
    """``user`` creates a club and becomes its first organiser.  Raises
    :class:`ClubError` for an empty, too long or unstorable name or
    description (:func:`_name_and_description`) and :class:`Conflict` for a
    name in use."""
    if not user.is_authenticated:
        raise Forbidden(_("请先登录"))
    name, description = _name_and_description(name, description)
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, description=description, created_by=user)
            Membership.objects.create(club=club, user=user, role=Membership.Role.ORGANISER)
    except IntegrityError:
        raise Conflict(_("这个名称已经有俱乐部在用")) from None
    return club


def update_club(user, club: Club, name: str, description: str, public_tables: bool | None = None) -> Club:
    """An organiser renames the club, edits its description, and (when
    ``public_tables`` is given) says whether visitors who are not signed in
    may watch its event tables."""
    require(user, "clubs.manage_club", club)
    name, description = _name_and_description(name, description)
    try:
        with transaction.atomic():
            club.name = name
            club.description = description
            if public_tables is not None:
                club.public_tables = bool(public_tables)
            club.save(update_fields=["name", "description", "public_tables"])
    except IntegrityError:
        club.refresh_from_db()
        raise Conflict(_("这个名称已经有俱乐部在用")) from None
    return club


def join_club(user, code: str) -> Club:
    """``user`` joins the club whose join code is ``code`` (as a member).
    Joining twice changes nothing.  Raises :class:`ClubError` for an unknown code."""
    if not user.is_authenticated:
        raise Forbidden(_("请先登录"))
    club = Club.objects.filter(join_code=code).first()
    if club is None:
        raise ClubError(_("加入链接无效或已经更换"))
    Membership.objects.get_or_create(club=club, user=user)
    return club


def new_code(user, club: Club) -> str:
    """An organiser replaces the join code; the old link stops working."""
    require(user, "clubs.manage_club", club)
    with transaction.atomic():
        club.join_code = new_join_code()
        club.save(update_fields=["join_code"])
    return club.join_code


def _membership(club: Club, member_id: int) -> Membership:
    row = club.memberships.filter(user_id=member_id).first()
    if row is None:
        raise ClubError(_("此人不是本俱乐部的会员"))
    return row


def _protect_founder(user, club: Club, member_id: int) -> None:
    """The club's founder (``Club.created_by``, its owner) cannot be removed
    or demoted by another organiser; :class:`Forbidden` if ``user``
    tries."""
    if club.created_by_id is not None and member_id == club.created_by_id and user.pk != member_id:
        raise Forbidden(_("俱乐部的创建者不能被其他组织者移除或取消组织者身份"))


def remove_member(user, club: Club, member_id: int) -> None:
    """An organiser removes a member (or an organiser; never the last one,
    never the founder).  The page asks for a confirmation first."""
    require(user, "clubs.manage_club", club)
    _protect_founder(user, club, member_id)
    with transaction.atomic():
        row = _membership(club, member_id)
        if row.is_organiser and club.memberships.filter(role=Membership.Role.ORGANISER).count() == 1:
            raise Conflict(_("俱乐部至少要有一位组织者"))
        row.delete()


def set_organiser(user, club: Club, member_id: int, organiser: bool = True) -> None:
    """An organiser names a member organiser (or makes an organiser a plain
    member again; never the last one, and never the founder by another
    organiser)."""
    require(user, "clubs.manage_club", club)
    if not organiser:
        _protect_founder(user, club, member_id)
    with transaction.atomic():
        row = _membership(club, member_id)
        if not organiser and row.is_organiser and club.memberships.filter(
            role=Membership.Role.ORGANISER
        ).count() == 1:
            raise Conflict(_("俱乐部至少要有一位组织者"))
        row.role = Membership.Role.ORGANISER if organiser else Membership.Role.MEMBER
        row.save(update_fields=["role"])


def leave_club(user, club: Club) -> None:
    """A member leaves the club (the last organiser cannot)."""
    with transaction.atomic():
        row = club.memberships.filter(user=user).first()
        if row is None:
            return
        if row.is_organiser and club.memberships.filter(role=Membership.Role.ORGANISER).count() == 1:
            raise Conflict(_("俱乐部至少要有一位组织者"))
        row.delete()
