"""Pages of the clubs app (views are thin; changes go through clubs.services)."""

from django.urls import path

from .arena import pages as arena
from .pages import clubs, events, schedule

urlpatterns = [
    path("", clubs.club_list, name="club_list"),
    path("new/", clubs.club_create, name="club_create"),
    path("join/", clubs.club_join_code, name="club_join_code"),
    path("join/<str:code>/", clubs.club_join, name="club_join"),
    path("<int:club_id>/", clubs.club_page, name="club"),
    path("<int:club_id>/edit", clubs.club_edit, name="club_edit"),
    path("<int:club_id>/code", clubs.club_new_code, name="club_new_code"),
    path("<int:club_id>/leave", clubs.club_leave, name="club_leave"),
    path("<int:club_id>/members/<int:user_id>/remove", clubs.member_remove, name="club_member_remove"),
    path("<int:club_id>/members/<int:user_id>/organiser", clubs.member_organiser, name="club_member_organiser"),
    path("<int:club_id>/events/new", events.event_create, name="event_create"),
    path("events/<int:event_id>/", events.event_page, name="event"),
    path("events/<int:event_id>/print", events.event_print, name="event_print"),
    path("events/<int:event_id>/<str:what>.csv", events.event_csv, name="event_csv"),
    path("events/<int:event_id>/register", events.event_register, name="event_register"),
    path("events/<int:event_id>/bots", events.event_bots, name="event_bots"),
    path("events/<int:event_id>/pair", events.event_pair, name="event_pair"),
    path("events/<int:event_id>/rounds/<int:number>/swap", events.round_swap, name="round_swap"),
    path("events/<int:event_id>/rounds/<int:number>/start", events.round_start, name="round_start"),
    path("events/<int:event_id>/rounds/<int:number>/pause", events.round_pause, name="round_pause"),
    path("events/<int:event_id>/rounds/<int:number>/end", events.round_end, name="round_end"),
    path("events/<int:event_id>/register-for", events.event_register_for, name="event_register_for"),
    path("events/<int:event_id>/edit", events.event_edit, name="event_edit"),
    path("events/<int:event_id>/cancel", events.event_cancel, name="event_cancel"),
    path("entries/<int:entry_id>/substitute", events.entry_substitute, name="entry_substitute"),
    path("entries/<int:entry_id>/confirm", events.entry_confirm, name="entry_confirm"),
    path("entries/<int:entry_id>/withdraw", events.entry_withdraw, name="entry_withdraw"),
    path("tables/<int:table_id>/correct", events.table_correct, name="table_correct"),
    # arenas (clubs/arena/)
    path("<int:club_id>/arenas/new", arena.arena_create, name="arena_create"),
    path("arenas/<int:event_id>/", arena.arena_page, name="arena"),
    path("arenas/<int:event_id>/join", arena.arena_join, name="arena_join"),
    path("arenas/<int:event_id>/leave", arena.arena_leave, name="arena_leave"),
    path("arenas/<int:event_id>/berserk", arena.arena_berserk, name="arena_berserk"),
    path("arenas/<int:event_id>/open", arena.arena_open, name="arena_open"),
    path("arenas/<int:event_id>/bots", arena.arena_bots, name="arena_bots"),
    # scheduled events, calendar, score cards, print
    path("<int:club_id>/calendar.ics", schedule.club_calendar, name="club_calendar"),
    path("calendar/<str:token>.ics", schedule.member_calendar, name="member_calendar"),
    path("events/<int:event_id>/schedule", schedule.event_schedule, name="event_schedule"),
    path("events/<int:event_id>/sessions", schedule.event_session, name="event_session"),
    path("events/<int:event_id>/standings/print", schedule.standings_print, name="standings_print"),
    path("events/<int:event_id>/rounds/<int:number>/slips", schedule.round_slips, name="round_slips"),
    path("entries/<int:entry_id>/checkin", schedule.entry_checkin, name="entry_checkin"),
    path("entries/<int:entry_id>/card", schedule.scorecard, name="scorecard"),
]
