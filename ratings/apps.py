from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    """Ratings per game (openskill), leaderboards.  Depends on ``games``
    (listens to its signals); ``games`` knows nothing of it."""

    name = "ratings"
    verbose_name = _("等级分")

    def ready(self):
        from accounts import signals as account_signals
        from games import signals

        from . import profile, services

        signals.hand_scored.connect(services.on_hand_scored, dispatch_uid="ratings.hand")
        signals.result_notes.connect(services.hand_note, dispatch_uid="ratings.note")
        account_signals.profile_context.connect(profile.profile_context, dispatch_uid="ratings.profile")
