from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    """Clubs, their members and organisers, and the events they run.  The pure
    tournament rules (pairing, standings, duplicate scoring) are in
    :mod:`clubs.tournament`."""

    name = "clubs"
    verbose_name = _("俱乐部与比赛")

    def ready(self):
        from games.runtime import dealing

        from . import rules  # noqa: F401  (registers the per-club permissions)
        from .running import PLANNER

        dealing.register(PLANNER)
