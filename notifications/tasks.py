"""Celery tasks of the notifications app (idempotent: the row says whether the
e-mail went out).  They are defined beside what they run, in
:mod:`notifications.services` (which queues them after a commit); this module,
the one Celery's autodiscovery imports, names them."""

from __future__ import annotations

from .services import send_email, send_push

__all__ = ["send_email", "send_push"]
