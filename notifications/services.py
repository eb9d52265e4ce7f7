"""Sending notifications: once per ``(user, kind, key)``, in the site, by
e-mail unless the user unsubscribed from the kind.

:func:`notify` creates the row (an ``INSERT`` that a unique constraint makes
idempotent), and after the commit tells the user's sockets (group
``notices-<user id>``, the message carries no text: each socket renders its
own count) and queues :func:`notifications.tasks.send_email`, which sends the
e-mail at most once (a conditional ``UPDATE`` claims it).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games import notify as game_notify

from .models import Kind, Notification, Unsubscribe

log = logging.getLogger(__name__)

_SALT = "notifications.unsubscribe"


def user_group(user_id: int) -> str:
    """The channel group of a user's notification sockets."""
    return f"notices-{user_id}"


def notify(user, kind: str, key: str, subject: str, body: str = "", url: str = "") -> Notification | None:
    """Notify ``user`` of ``kind`` about ``key``; returns the new row, or None
    if this ``(user, kind, key)`` was notified before (nothing is sent again).
    ``url``: a path on this site.  Raises ``ValueError`` for an unknown kind."""
    if kind not in Kind.values:
        raise ValueError(f"unknown notification kind {kind!r}")
    try:
        with transaction.atomic():
            row = Notification.objects.create(
                user=user, kind=kind, key=key[:120], subject=subject[:200], body=body, url=url[:300]
            )
    except IntegrityError:
        return None

    def after():
        game_notify.send([user_group(user.pk)], {"type": "notices.changed"}, what=f"notices {user.pk}")
        from .tasks import send_email

        send_email.delay(row.pk)

    transaction.on_commit(after)
    return row


def unread_count(user) -> int:
    """How many of ``user``'s notifications are unread (0 for anonymous)."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return Notification.objects.filter(user=user, read__isnull=True).count()


def mark_read(user, ids=None) -> int:
    """Mark ``user``'s notifications read (all, or those ``ids``); how many."""
    rows = Notification.objects.filter(user=user, read__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    n = rows.update(read=timezone.now())
    if n:
        transaction.on_commit(
            lambda: game_notify.send([user_group(user.pk)], {"type": "notices.changed"}, what=f"notices {user.pk}")
        )
    return n


def unsubscribe_token(user_id: int, kind: str) -> str:
    """A signed token naming ``(user, kind)``, for the e-mail's unsubscribe link."""
    return signing.dumps([user_id, kind], salt=_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """``(user id, kind)`` of a token; ``signing.BadSignature`` if forged."""
    user_id, kind = signing.loads(token, salt=_SALT)
    if kind not in Kind.values:
        raise signing.BadSignature("unknown kind")
    return int(user_id), kind


def unsubscribe(user_id: int, kind: str) -> bool:
    """No more e-mail of ``kind`` to the user; True if this changed anything."""
    _row, created = Unsubscribe.objects.get_or_create(user_id=user_id, kind=kind)
    return created


def unsubscribe_url(user_id: int, kind: str) -> str:
    """The absolute one-click unsubscribe URL (``SITE_URL`` + path)."""
    path = reverse("notice_unsubscribe", args=[unsubscribe_token(user_id, kind)])
    return getattr(settings, "SITE_URL", "http://localhost:8000").rstrip("/") + path


def deliver_email(notification_id: int) -> bool:
    """Send the notification's e-mail once: True if this call sent it.  Not
    sent when the user has no address or unsubscribed from the kind."""
    now = timezone.now()
    claimed = Notification.objects.filter(pk=notification_id, emailed__isnull=True).update(emailed=now)
    if not claimed:
        return False
    row = Notification.objects.select_related("user").get(pk=notification_id)
    address = (row.user.email or "").strip()
    if not address or Unsubscribe.objects.filter(user_id=row.user_id, kind=row.kind).exists():
        Notification.objects.filter(pk=row.pk).update(emailed=None)
        return False
    site = getattr(settings, "SITE_URL", "http://localhost:8000").rstrip("/")
    stop = unsubscribe_url(row.user_id, row.kind)
    text = row.body
    if row.url:
        text += f"\n\n{site}{row.url}"
    text += "\n\n" + _("不想再收到这类邮件？点此退订：%(url)s") % {"url": stop}
    message = EmailMessage(
        subject=row.subject, body=text, to=[address],
        headers={"List-Unsubscribe": f"<{stop}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    )
    try:
        message.send()
    except Exception:
        Notification.objects.filter(pk=row.pk).update(emailed=None)
        raise
    return True
