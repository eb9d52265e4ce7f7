from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    """Clubs, their members and organisers, and the events they run.  The pure
    tournament rules (pairing, standings, duplicate scoring) are in
    :mod:`clubs.tournament`."""

    name = "clubs"
    verbose_name = _("俱乐部与比赛")

    def ready(self):
        from games.services import dealing
        from games import embargo, seating
        from games.signals import hand_completed

        from . import rules  # noqa: F401  (registers the per-club permissions)
        from .guards import GUARD
        from .live.receivers import on_hand_completed
        from .running.rounds import PLANNER, rounds_swept
        from .schedule.recurring import sweep_recurring
        from .schedule.scheduling import sweep_schedules

        dealing.register(PLANNER)
        # scheduled starts and automatic rounds, after every round sweep
        rounds_swept.connect(lambda sender, **kwargs: sweep_schedules(), weak=False,
                             dispatch_uid="clubs.schedule.sweep_schedules")
        # recurring events' instances ahead and the site's arenas (at most once a minute)
        rounds_swept.connect(lambda sender, **kwargs: sweep_recurring(), weak=False,
                             dispatch_uid="clubs.schedule.sweep_recurring")
        embargo.register(GUARD)  # duplicate boards, watching event tables
        seating.register(GUARD)  # event tables seat only their entrants
        # the organiser's live page: pushed as each table completes a hand
        hand_completed.connect(on_hand_completed, dispatch_uid="clubs.live.receivers.on_hand_completed")
        # arenas (clubs/arena/): deal their tables' sets, score each hand once, sweep
        from .arena import pool as arena_pool, site as site_arenas
        from .schedule.recurring import register_arena_factory

        dealing.register(arena_pool.PLANNER)
        register_arena_factory(site_arenas.create_site_arena)  # the admin's arena schedule
        hand_completed.connect(arena_pool.on_hand_completed, dispatch_uid="clubs.arena.pool.on_hand_completed")
        rounds_swept.connect(lambda sender, **kwargs: arena_pool.sweep_arenas(), weak=False,
                             dispatch_uid="clubs.arena.pool.sweep_arenas")
        from games.signals import page_links

        from .arena.pages import page_links as arena_links

        page_links.connect(arena_links, dispatch_uid="clubs.arena.pages.page_links")
