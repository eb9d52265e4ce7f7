from django.contrib import admin

from .models import Action, Block, Report, ReputationEvent, RoomRequirement, Standing


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    list_display = ("user", "reputation", "updated")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(ReputationEvent)
class ReputationEventAdmin(admin.ModelAdmin):
    list_display = ("user", "match", "reason", "delta", "created")
    list_filter = ("reason",)
    raw_id_fields = ("user", "match")


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("id", "reporter", "reported", "reason", "source", "status", "created")
    list_filter = ("status", "reason", "source")
    raw_id_fields = ("reporter", "reported", "hand", "room")


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    list_display = ("id", "target", "kind", "days", "moderator", "created", "ends", "lifted")
    list_filter = ("kind",)
    raw_id_fields = ("target", "moderator", "report")


admin.site.register(Block)
admin.site.register(RoomRequirement)
