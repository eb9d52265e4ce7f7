"""``ws/notices/``: pushes the signed-in user's unread count (the header's
``#notice-count``, an htmx out-of-band swap) after every ``notices.changed``
on the group ``notices-<user id>``; the message carries no text."""

from __future__ import annotations

from django.template.loader import render_to_string

from games.live.group_push import FORBIDDEN, GroupPushConsumer

from .services import unread_count, user_group


class NoticeConsumer(GroupPushConsumer):
    """The header's unread count of the signed-in user; an anonymous socket is
    closed with 4403, which stops badge.js reconnecting."""

    refused_code = FORBIDDEN
    # a plain out-of-band swap, not group_push.PUSH_SWAP's morph: the badge is
    # a count, with nothing to press, open or fill
    push_swap = "true"

    async def group_for(self) -> str:
        return user_group(self.user.pk)

    async def notices_changed(self, message):
        await self.push()

    def render(self, swap: str) -> str:
        count = unread_count(self.user)
        return render_to_string("notifications/_count.html", {"count": count, "oob": swap})
