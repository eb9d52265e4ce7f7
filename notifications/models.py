"""A notification to one user, and the kinds a user unsubscribed from by e-mail.

``(user, kind, key)`` is unique: the key names what the notification is about
(e.g. ``event:12:round:3``), so sending the same notice twice (a doubled or
retried task, two sweeps) creates one row and one e-mail.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    """What a notification announces."""

    REGISTRATION_OPEN = "registration_open", _("报名开始")
    STARTS_SOON = "starts_soon", _("即将开赛")
    TABLE_READY = "table_ready", _("你的牌桌已就绪")
    RESULTS = "results", _("成绩已公布")
    MODERATION = "moderation", _("版主处理")


class Notification(models.Model):
    """One notice to ``user``: ``subject`` and ``body`` in the language it was
    made in, ``url`` the page it points to (a path), ``read`` once opened;
    ``emailed`` once the e-mail went out (None: not sent, or the user
    unsubscribed from this kind)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(_("类别"), max_length=24, choices=Kind.choices)
    key = models.CharField(_("键"), max_length=120)
    subject = models.CharField(_("标题"), max_length=200)
    body = models.TextField(_("内容"), blank=True)
    url = models.CharField(_("链接"), max_length=300, blank=True)
    created = models.DateTimeField(_("时间"), auto_now_add=True)
    read = models.DateTimeField(_("已读"), null=True, blank=True)
    emailed = models.DateTimeField(_("已发邮件"), null=True, blank=True)
    pushed = models.DateTimeField(_("已推送"), null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("通知")
        verbose_name_plural = _("通知")
        constraints = [models.UniqueConstraint(fields=["user", "kind", "key"], name="notification_once")]
        indexes = [models.Index(fields=["user", "read"], name="notification_unread")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.key}"


class Unsubscribe(models.Model):
    """``user`` receives no more e-mail of ``kind`` (the in-site list still shows it)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("类别"), max_length=24, choices=Kind.choices)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="unsubscribe_once")]


class PushSubscription(models.Model):
    """A browser's Web Push subscription of ``user`` (the page asks only after
    a click): the push service's ``endpoint`` and the browser's keys
    (``p256dh``, ``auth``; base64url), as the Push API gives them."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=500, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created = models.DateTimeField(auto_now_add=True)

    def info(self) -> dict:
        """The ``subscription_info`` pywebpush takes."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
