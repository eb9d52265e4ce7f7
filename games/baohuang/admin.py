"""Admin of 保皇's own tables: the tribute history (B13, also an inline of
the hand page) and the leaving settlements (B14), read-only like the hands."""

from django.contrib import admin

from games.admin import HAND_INLINES, ReadOnlyMixin

from .models import TributeRecord, TributeSettlement


class TributeInline(ReadOnlyMixin, admin.TabularInline):
    model = TributeRecord
    extra = 0
    fields = ("from_seat", "to_seat", "from_user", "to_user", "card")
    readonly_fields = fields


HAND_INLINES.insert(0, TributeInline)


@admin.register(TributeRecord)
class TributeRecordAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "hand", "from_seat", "to_seat", "from_user", "to_user", "card", "created")
    list_select_related = ("hand", "from_user", "to_user")


@admin.register(TributeSettlement)
class TributeSettlementAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Leaving settlements (a debt owed when a player left), read-only."""

    list_display = ("id", "hand", "seat", "user", "points", "created")
    list_select_related = ("hand", "user")
