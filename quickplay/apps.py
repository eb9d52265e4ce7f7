from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class QuickplayConfig(AppConfig):
    """Quick play: the queue and the matchmaker.  Depends on ``games`` and
    ``ratings``; neither knows it."""

    name = "quickplay"
    verbose_name = _("快速开始")

    def ready(self):
        from . import scheduling, services

        services.pass_requester = scheduling.request_pass
