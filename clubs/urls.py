"""Pages of the clubs app (views are thin; changes go through clubs.services)."""

from django.urls import path

from . import event_views as ev
from . import schedule_views as sv
from . import views

urlpatterns = [
    path("", views.club_list, name="club_list"),
    path("new/", views.club_create, name="club_create"),
    path("join/", views.club_join_code, name="club_join_code"),
    path("join/<str:code>/", views.club_join, name="club_join"),
    path("<int:club_id>/", views.club_page, name="club"),
    path("<int:club_id>/edit", views.club_edit, name="club_edit"),
    path("<int:club_id>/code", views.club_new_code, name="club_new_code"),
    path("<int:club_id>/leave", views.club_leave, name="club_leave"),
    path("<int:club_id>/members/<int:user_id>/remove", views.member_remove, name="club_member_remove"),
    path("<int:club_id>/members/<int:user_id>/organiser", views.member_organiser, name="club_member_organiser"),
    path("<int:club_id>/events/new", ev.event_create, name="event_create"),
    path("events/<int:event_id>/", ev.event_page, name="event"),
    path("events/<int:event_id>/print", ev.event_print, name="event_print"),
    path("events/<int:event_id>/<str:what>.csv", ev.event_csv, name="event_csv"),
    path("events/<int:event_id>/register", ev.event_register, name="event_register"),
    path("events/<int:event_id>/bots", ev.event_bots, name="event_bots"),
    path("events/<int:event_id>/pair", ev.event_pair, name="event_pair"),
    path("events/<int:event_id>/rounds/<int:number>/swap", ev.round_swap, name="round_swap"),
    path("events/<int:event_id>/rounds/<int:number>/start", ev.round_start, name="round_start"),
    path("events/<int:event_id>/rounds/<int:number>/pause", ev.round_pause, name="round_pause"),
    path("events/<int:event_id>/rounds/<int:number>/end", ev.round_end, name="round_end"),
    path("events/<int:event_id>/register-for", ev.event_register_for, name="event_register_for"),
    path("events/<int:event_id>/edit", ev.event_edit, name="event_edit"),
    path("events/<int:event_id>/cancel", ev.event_cancel, name="event_cancel"),
    path("entries/<int:entry_id>/substitute", ev.entry_substitute, name="entry_substitute"),
    path("entries/<int:entry_id>/confirm", ev.entry_confirm, name="entry_confirm"),
    path("entries/<int:entry_id>/withdraw", ev.entry_withdraw, name="entry_withdraw"),
    path("tables/<int:table_id>/correct", ev.table_correct, name="table_correct"),
    # scheduled events, calendar, score cards, print (#25)
    path("<int:club_id>/calendar.ics", sv.club_calendar, name="club_calendar"),
    path("calendar/<str:token>.ics", sv.member_calendar, name="member_calendar"),
    path("events/<int:event_id>/schedule", sv.event_schedule, name="event_schedule"),
    path("events/<int:event_id>/sessions", sv.event_session, name="event_session"),
    path("events/<int:event_id>/standings/print", sv.standings_print, name="standings_print"),
    path("events/<int:event_id>/rounds/<int:number>/slips", sv.round_slips, name="round_slips"),
    path("entries/<int:entry_id>/checkin", sv.entry_checkin, name="entry_checkin"),
    path("entries/<int:entry_id>/card", sv.scorecard, name="scorecard"),
]
