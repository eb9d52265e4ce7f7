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
