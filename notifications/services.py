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

from celery import shared_task
from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.preferences import language_of
from games.live import notify as game_notify

from .endpoints import UnsafeEndpoint, check_endpoint, push_session
from .models import Kind, Notification, PushSubscription, Unsubscribe

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
        send_email.delay(row.pk)
        if push_enabled():
            send_push.delay(row.pk)

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
    sent when the user has no address or unsubscribed from the kind.  The
    unsubscribe footer is in the user's language
    (:func:`accounts.preferences.language_of`), as the notice's text is."""
    now = timezone.now()
    claimed = Notification.objects.filter(pk=notification_id, emailed__isnull=True).update(emailed=now)
    if not claimed:
        return False
    row = Notification.objects.select_related("user", "user__preference").get(pk=notification_id)
    address = (row.user.email or "").strip()
    if not address or Unsubscribe.objects.filter(user_id=row.user_id, kind=row.kind).exists():
        Notification.objects.filter(pk=row.pk).update(emailed=None)
        return False
    site = getattr(settings, "SITE_URL", "http://localhost:8000").rstrip("/")
    stop = unsubscribe_url(row.user_id, row.kind)
    text = row.body
    if row.url:
        text += f"\n\n{site}{row.url}"
    with translation.override(language_of(row.user)):  # the subject and body were written in it too
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


def push_enabled() -> bool:
    """Web Push is on when settings give the VAPID keys (``WEBPUSH_VAPID_*``)."""
    return bool(getattr(settings, "WEBPUSH_VAPID_PRIVATE_KEY", "") and getattr(settings, "WEBPUSH_VAPID_PUBLIC_KEY", ""))


#: Browsers a user may keep subscribed; the oldest is dropped for a new one.
MAX_SUBSCRIPTIONS_PER_USER = 5


class SubscriptionRefused(ValueError):
    """A push subscription the site will not keep (malformed, an endpoint the
    server must not POST to, or another user's endpoint)."""


def subscribe_push(user, subscription: dict):
    """Keep a browser's subscription (the Push API's JSON: ``endpoint``,
    ``keys.p256dh``, ``keys.auth``) for ``user`` and return its row.

    Raises :class:`SubscriptionRefused` (a ``ValueError``) when a field is
    missing, not a string, longer than its column or holds a NUL (the
    database would refuse it with a server error); when the endpoint is not
    one the server may POST to (:func:`notifications.endpoints.check_endpoint`:
    ``https`` on port 443 to a host whose every address is public); or when
    the endpoint is another user's.  An endpoint never moves between users:
    if it did, anyone who learnt a browser's endpoint could take its pushes
    away from its owner.  The same user's endpoint is updated in place (new
    keys).  A user keeps at most :data:`MAX_SUBSCRIPTIONS_PER_USER`
    browsers: a new one drops the oldest, so one account cannot make every
    notice fan out to a thousand URLs."""

    try:
        endpoint = subscription["endpoint"]
        keys = subscription["keys"]
        p256dh, auth = keys["p256dh"], keys["auth"]
    except (KeyError, TypeError, IndexError):
        raise SubscriptionRefused("not a push subscription") from None
    fields = {"endpoint": endpoint, "p256dh": p256dh, "auth": auth}
    for name, value in fields.items():
        limit = PushSubscription._meta.get_field(name).max_length
        if not isinstance(value, str) or not value or len(value) > limit or "\x00" in value:
            raise SubscriptionRefused("not a push subscription")
    try:
        check_endpoint(endpoint)
    except UnsafeEndpoint as exc:
        log.warning("push subscription of user %s refused: %s", user.pk, exc)
        raise SubscriptionRefused(f"endpoint refused: {exc}") from None
    with transaction.atomic():
        row = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if row is not None and row.user_id != user.pk:
            raise SubscriptionRefused("endpoint belongs to another account")
        if row is None:
            row = PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh=p256dh, auth=auth)
        else:
            row.p256dh, row.auth = p256dh, auth
            row.save(update_fields=["p256dh", "auth"])
        keep = PushSubscription.objects.filter(user=user).order_by("-created", "-pk").values_list("pk", flat=True)
        PushSubscription.objects.filter(user=user).exclude(pk__in=list(keep[:MAX_SUBSCRIPTIONS_PER_USER])).delete()
    return row


def deliver_push(notification_id: int) -> int:
    """Push the notification to each of its user's browsers, once (the row's
    ``pushed`` is claimed with a conditional UPDATE): the payload is JSON
    ``{"title", "body", "url"}``, encrypted for each browser (aes128gcm,
    VAPID-signed).  A subscription the push service says is gone (404/410)
    is deleted.  Every POST goes through :func:`notifications.endpoints.push_session`:
    the endpoint is checked again as it is sent (its name may resolve to a
    private address now), the connection goes to the address checked, no
    redirect is followed and a slow service is given up after seconds.
    Returns how many browsers accepted it."""
    import json

    from pywebpush import WebPushException, webpush


    if not push_enabled():
        return 0
    if not Notification.objects.filter(pk=notification_id, pushed__isnull=True).update(pushed=timezone.now()):
        return 0
    row = Notification.objects.get(pk=notification_id)
    data = json.dumps({"title": row.subject, "body": row.body[:300], "url": row.url}, ensure_ascii=False)
    sent = 0
    key = _vapid_key()
    session = push_session()
    for sub in PushSubscription.objects.filter(user_id=row.user_id):
        try:
            webpush(sub.info(), data=data, vapid_private_key=key, requests_session=session,
                    vapid_claims={"sub": settings.WEBPUSH_VAPID_SUBJECT}, ttl=3600)
            sent += 1
        except UnsafeEndpoint as exc:  # kept: it may resolve publicly again; never sent to meanwhile
            log.warning("push to %s refused: %s", sub.endpoint[:60], exc)
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in (404, 410):
                sub.delete()
            else:
                log.warning("push to %s failed: %s", sub.endpoint[:60], exc)
        except Exception:  # the push service unreachable: best effort, the in-site list has it
            log.warning("push to %s failed", sub.endpoint[:60], exc_info=True)
    return sent


def _vapid_key():
    """The VAPID private key of settings as a ``py_vapid`` key (PEM, or base64url DER/raw)."""
    from py_vapid import Vapid02

    value = settings.WEBPUSH_VAPID_PRIVATE_KEY
    if "BEGIN" in value:
        return Vapid02.from_pem(value.encode())
    return Vapid02.from_string(private_key=value)


@shared_task(name="notifications.tasks.send_email", ignore_result=True)
def send_email(notification_id: int) -> bool:
    """Celery task: send one notification's e-mail, once (:func:`deliver_email`)."""
    return deliver_email(notification_id)


@shared_task(name="notifications.tasks.send_push", ignore_result=True)
def send_push(notification_id: int) -> int:
    """Celery task: push one notification to its user's browsers, once (:func:`deliver_push`)."""
    return deliver_push(notification_id)
