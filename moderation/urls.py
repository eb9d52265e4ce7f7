from django.urls import path

from . import pages

urlpatterns = [
    path("report/", pages.report, name="moderation_report"),
    path("blocks/", pages.blocks, name="moderation_blocks"),
    path("rooms/<int:room_id>/minimum/", pages.room_minimum, name="moderation_room_minimum"),
    path("mine/", pages.mine, name="moderation_mine"),
    # moderators only (moderation.moderate)
    path("queue/", pages.queue, name="moderation_queue"),
    path("reports/<int:report_id>/", pages.report_detail, name="moderation_report_detail"),
    path("reports/<int:report_id>/act/", pages.report_act, name="moderation_report_act"),
    path("players/<int:user_id>/", pages.player, name="moderation_player"),
    path("actions/<int:action_id>/lift/", pages.action_lift, name="moderation_action_lift"),
]

#: The names of the moderators' URLs (tests check each refuses a non-moderator).
MODERATOR_URLS = ("moderation_queue", "moderation_report_detail", "moderation_report_act", "moderation_player",
                  "moderation_action_lift")
