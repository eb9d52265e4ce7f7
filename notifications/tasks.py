"""Celery task of the notifications app (idempotent: the row says whether the
e-mail went out)."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="notifications.tasks.send_email", ignore_result=True)
def send_email(notification_id: int) -> bool:
    """Send one notification's e-mail, once (:func:`notifications.services.deliver_email`)."""
    from .services import deliver_email

    return deliver_email(notification_id)


@shared_task(name="notifications.tasks.send_push", ignore_result=True)
def send_push(notification_id: int) -> int:
    """Push one notification to its user's browsers, once (:func:`notifications.services.deliver_push`)."""
    from .services import deliver_push

    return deliver_push(notification_id)
