"""Admins see and manage clubs and their members."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import Club, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "created_by", "created", "member_count"]
    search_fields = ["name", "description"]
    readonly_fields = ["created"]
    inlines = [MembershipInline]

    @admin.display(description=_("会员数"))
    def member_count(self, obj):
        return obj.memberships.count()


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "role", "joined"]
    list_filter = ["role"]
    search_fields = ["club__name", "user__username"]
    autocomplete_fields = ["user", "club"]


# --------------------------------------------------------------------------- schedules kept by hand

from .models import ArenaSchedule, ArenaSlot, RecurringInstance, RecurringSchedule  # noqa: E402


class RecurringInstanceInline(admin.TabularInline):
    model = RecurringInstance
    extra = 0
    readonly_fields = ["occurrence", "event", "cancelled"]
    can_delete = False


@admin.register(RecurringSchedule)
class RecurringScheduleAdmin(admin.ModelAdmin):
    """A club's recurring events (their instances are made by the sweep)."""

    list_display = ["name", "club", "rule", "starts_on", "at", "time_zone", "active"]
    list_filter = ["active"]
    search_fields = ["name", "club__name"]
    inlines = [RecurringInstanceInline]


@admin.register(ArenaSchedule)
class ArenaScheduleAdmin(admin.ModelAdmin):
    """The site's arena schedule, kept by admins (hourly, daily, weekly lines)."""

    list_display = ["name", "game", "frequency", "hour", "minute", "weekday", "minutes", "time_zone",
                    "bot_fill_seconds", "active"]
    list_filter = ["game", "frequency", "active"]


@admin.register(ArenaSlot)
class ArenaSlotAdmin(admin.ModelAdmin):
    list_display = ["schedule", "starts_at", "ends_at", "ref"]
    readonly_fields = ["schedule", "starts_at", "ends_at", "ref"]
