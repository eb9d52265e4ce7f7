from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    """In-site notifications and their e-mail (:mod:`notifications.services`)."""

    name = "notifications"
    verbose_name = _("通知")
    default_auto_field = "django.db.models.BigAutoField"
