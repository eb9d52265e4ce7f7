"""``{% notice_badge %}``: the header's link to the notification list with the
unread count, kept current over the ``ws/notices/`` socket."""

from __future__ import annotations

from django import template

from ..services import unread_count

register = template.Library()


@register.inclusion_tag("notifications/_badge.html", takes_context=True)
def notice_badge(context):
    request = context.get("request")
    user = getattr(request, "user", None)
    signed_in = bool(getattr(user, "is_authenticated", False))
    return {"signed_in": signed_in, "count": unread_count(user) if signed_in else 0}
