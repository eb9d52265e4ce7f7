from django.contrib import admin

from .models import PlayerRating, RatedHand, RatingChange


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    """Ratings are computed (``rebuild_ratings``), so the admin only reads them."""

    list_display = ("user", "game", "rating", "mu", "sigma", "hands", "wins", "draws", "updated")
    list_filter = ("game",)
    search_fields = ("user__username",)
    readonly_fields = list_display

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class RatingChangeInline(admin.TabularInline):
    model = RatingChange
    extra = 0
    can_delete = False
    fields = ("seat", "user", "bot", "team", "rank", "outcome", "rating_before", "rating_after",
              "provisional")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(RatedHand)
class RatedHandAdmin(admin.ModelAdmin):
    list_display = ("id", "hand", "game", "created")
    list_filter = ("game",)
    readonly_fields = ("hand", "game", "created")
    inlines = [RatingChangeInline]

    def has_add_permission(self, request):
        return False
