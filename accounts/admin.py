"""Admin: the title ladder is editable per game (C4); standings and entries are read-only;
each user's language preference is editable.

Points change only through ``accounts.ledger.credit``; the admin never writes them.
"""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import LevelTitle, PlayerStanding, PointsEntry, Preference
from .ledger import title_for


@admin.register(LevelTitle)
class LevelTitleAdmin(admin.ModelAdmin):
    """Each game's ladder, ordered by threshold, thresholds and names editable in the list."""

    list_display = ("level_no", "game", "name", "threshold")
    list_display_links = ("level_no",)
    list_editable = ("name", "threshold")
    list_filter = ("game",)
    ordering = ("game", "threshold")
    search_fields = ("name",)
    list_per_page = 50


class ReadOnlyAdmin(admin.ModelAdmin):
    """Viewable, never added, changed or deleted through the admin."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(PlayerStanding)
class PlayerStandingAdmin(ReadOnlyAdmin):
    list_display = ("user", "game", "points", "title", "updated")
    list_filter = ("game",)
    search_fields = ("user__username",)
    ordering = ("game", "-points")
    list_select_related = ("user",)

    @admin.display(description=_("称号"))
    def title(self, obj):
        return title_for(obj.game, obj.points).display_name


@admin.register(PointsEntry)
class PointsEntryAdmin(ReadOnlyAdmin):
    list_display = ("created", "user", "game", "delta", "reason", "hand")
    list_filter = ("game", "reason")
    search_fields = ("user__username",)
    date_hierarchy = "created"
    list_select_related = ("user", "hand")
    raw_id_fields = ("user", "hand")


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    """Each user's stored language (blank: the site default), editable."""

    list_display = ("user", "language", "updated")
    list_filter = ("language",)
    search_fields = ("user__username",)
    list_select_related = ("user",)
    raw_id_fields = ("user",)
