"""Pages of the games app (views are thin; changes go through games.services)."""

from django.urls import path

from games.pages import help, views
from games.pages import review as review_page

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("g/<str:game>/", views.game_lobby, name="game_lobby"),
    path("help/", help.help_index, name="help"),
    path("help/<str:game>/", help.help_game, name="help_game"),
    path("rooms/new/", views.room_create, name="room_create"),
    path("rooms/<int:room_id>/", views.room, name="room"),
    path("rooms/<int:room_id>/table", views.table_fragment, name="room_table"),
    path("rooms/<int:room_id>/act", views.act, name="room_act"),
    path("rooms/<int:room_id>/seat", views.seat_take, name="room_seat"),
    path("rooms/<int:room_id>/leave", views.seat_leave, name="room_leave"),
    path("rooms/<int:room_id>/ready", views.seat_ready, name="room_ready"),
    path("rooms/<int:room_id>/fill-bots", views.room_fill_bots, name="room_fill_bots"),
    path("rooms/<int:room_id>/autoplay", views.seat_autoplay, name="room_autoplay"),
    path("rooms/<int:room_id>/close", views.room_close, name="room_close"),
    path("rooms/<int:room_id>/invite/<str:token>/", views.room_invite, name="room_invite"),
    path("rooms/<int:room_id>/invite-renew", views.room_invite_renew, name="room_invite_renew"),
    path("hands/<int:hand_id>/record.json", views.hand_record, name="hand_record"),
    path("hands/<int:hand_id>/replay/", views.hand_replay, name="hand_replay"),
    path("hands/<int:hand_id>/review/", review_page.request_review, name="hand_review"),
    path("hands/<int:hand_id>/again/", review_page.play_again, name="hand_again"),
]
