from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    """Reputation, blocks, reports and the moderators' queue.  Sits above
    ``games``, ``quickplay`` and ``notifications``; none of them imports it:
    it registers its rules and receivers here."""

    name = "moderation"
    verbose_name = _("社区管理")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from accounts.signals import profile_context
        from games import seating, signals as game_signals
        from games.services import chat
        from quickplay import rules as queue_rules

        from . import pages, reputation, rules

        seating.register(rules.RULE)
        chat.register(rules.RULE)
        queue_rules.register(rules.RULE)
        game_signals.seat_left.connect(reputation.on_seat_left, dispatch_uid="moderation.seat_left")
        game_signals.hand_completed.connect(reputation.on_hand_completed, dispatch_uid="moderation.hand_completed")
        game_signals.page_links.connect(pages.page_links, dispatch_uid="moderation.page_links")
        profile_context.connect(pages.profile_context, dispatch_uid="moderation.profile")
