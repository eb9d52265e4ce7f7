from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _

from accounts import catalog
from games import registry


class _GameCatalog:
    """What accounts asks of the games (``accounts.catalog.PROVIDERS``): every
    registered game's code, label, title ladder and ledger reasons."""

    def game_entries(self):
        return [catalog.GameEntry(s.code, s.profile_label, s.ladder, s.ledger_reasons)
                for s in registry.specs()]


#: The one catalog object (``ready()`` may run twice in tests: ``Hooks.add`` keeps one).
GAME_CATALOG = _GameCatalog()


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("游戏")

    def ready(self):
        """Wire the pieces that must not import each other: the live and runtime
        layers connect their signal receivers by being imported, the profile
        page is told where a user sits
        (:data:`accounts.signals.profile_context`), and accounts learns the
        registered games (``accounts.catalog.PROVIDERS``: their codes,
        labels, ledger reasons and default title ladders)."""
        from accounts import profiles
        from accounts.signals import profile_context

        from games.pages import profile
        # the layers above the services connect their receivers by being imported,
        # in this order: a committed room is pushed to its sockets, then its next
        # turn is scheduled (games.signals.room_committed)
        from games.live import notify  # noqa: F401
        from games.runtime import runner  # noqa: F401
        from games.runtime import reviewing  # noqa: F401
        from games.runtime import heartbeats  # noqa: F401 (beat's signals)
        from games import embargo
        from . import signals as game_signals
        from .services import reviews

        from games.services import dealing, pgtimestamps
        from games.services import deal_replay

        # timestamptz values parsed by psycopg's C loader (Django's is pure Python)
        connection_created.connect(pgtimestamps.use_c_loader, dispatch_uid="games.pg_timestamps")
        dealing.register(deal_replay.PLANNER)  # "play this deal again"
        game_signals.hand_completed.connect(reviews.on_hand_completed,
                                            dispatch_uid="games.review_after_hand")
        profile_context.connect(profile.seats_for_profile, dispatch_uid="games.current_seats")
        profiles.HAND_FILTERS.add(embargo)  # no links to hands an embargo hides (embargo.hidden_hands)
        from games import private_rooms

        embargo.register(private_rooms.WATCH_RULE)  # private rooms: their players only
        catalog.PROVIDERS.add(GAME_CATALOG)
