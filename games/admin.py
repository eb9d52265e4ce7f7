"""Admin: multipliers are editable; rooms editable (name, settings, status);
matches, hands and actions are read-only (they are the record of what
happened; changing them would break replays).  A game's own tables have their
admin in its app (``games/<code>/admin.py``), which may add inlines to
:class:`HandAdmin` through :data:`HAND_INLINES`."""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from . import services
from .models import (
    ChatMessage,
    ChatMute,
    Hand,
    HandAction,
    Match,
    Room,
    RoomMultiplier,
    Seat,
)


class RoomMultiplierForm(forms.ModelForm):
    class Meta:
        model = RoomMultiplier
        fields = ("value", "is_default")

    def _get_validation_exclusions(self):
        # "one default" is kept by RoomMultiplier.save(), which clears the old
        # default; the form must not refuse a new default before that.
        excluded = super()._get_validation_exclusions()
        excluded.add("is_default")
        return excluded


@admin.register(RoomMultiplier)
class RoomMultiplierAdmin(admin.ModelAdmin):
    """C4 multipliers players may choose.  Saving one as default clears the
    flag on the others (exactly one default)."""

    form = RoomMultiplierForm
    list_display = ("value", "is_default")
    ordering = ("value",)


class ReadOnlyMixin:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "bot_policy", "ready", "autoplay")
    readonly_fields = ("index",)
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "game", "owner", "multiplier", "status", "private", "version", "deadline", "created")
    list_filter = ("game", "status", "private")
    search_fields = ("name", "owner__username")
    readonly_fields = ("version", "invite_key", "deadline", "changed", "created")  # invite_key: the owner replaces the link (services.renew_invite)
    raw_id_fields = ("owner",)
    inlines = [SeatInline]

    def save_model(self, request, obj, form, change):
        """An edit writes only the fields the admin changed: a full save would
        write back what the turn runner and the services keep moving
        (``version``, ``pending``, ``deadline``, ``claimed_until``) as they
        were read for this request."""
        if change:
            fields = [f for f in form.changed_data if f in {x.name for x in obj._meta.concrete_fields}]
            if fields:
                obj.save(update_fields=fields)
        else:
            obj.save()

    def save_related(self, request, form, formsets, change):
        """After the room and its seats are saved: a change like any other
        (:func:`games.services.room_edited`: version bumped, tables pushed)."""
        super().save_related(request, form, formsets, change)
        if change:
            services.room_edited(form.instance.pk)


class HandInline(ReadOnlyMixin, admin.TabularInline):
    model = Hand
    extra = 0
    fields = ("number", "complete", "created")
    readonly_fields = fields
    show_change_link = True


@admin.register(Match)
class MatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "room", "number", "created", "finished")
    list_filter = ("room__game",)
    inlines = [HandInline]


class HandActionInline(ReadOnlyMixin, admin.TabularInline):
    model = HandAction
    extra = 0
    fields = ("seq", "seat", "payload", "actor", "user", "created")
    readonly_fields = fields


#: The hand page's inlines: a game's app inserts its own (its ``admin`` module
#: is imported after this one: the game apps follow ``games`` in INSTALLED_APPS).
HAND_INLINES: list = [HandActionInline]


@admin.register(Hand)
class HandAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "match", "number", "complete", "created")
    list_filter = ("complete", "match__room__game")
    readonly_fields = ("match", "number", "seed", "start", "players", "deal", "summary", "complete", "created")

    def get_inlines(self, request, obj):
        return list(HAND_INLINES)


@admin.register(HandAction)
class HandActionAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "hand", "seq", "seat", "actor", "payload", "created")
    list_filter = ("actor",)
    list_select_related = ("hand",)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Table chat: admins read every message, hide it from the table
    or delete it."""

    list_display = ("created", "room", "user", "quick", "text", "hidden")
    list_filter = ("hidden", "created")
    search_fields = ("text", "user__username", "room__name")
    list_select_related = ("room", "user")
    readonly_fields = ("room", "user", "text", "quick", "created")
    fields = ("room", "user", "text", "quick", "created", "hidden")
    actions = ["hide_messages"]

    @admin.action(description=_("从牌桌上隐藏所选消息"))
    def hide_messages(self, request, queryset):
        queryset.update(hidden=True)

    def has_add_permission(self, request):
        return False


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    list_display = ("user", "muted", "created")
    search_fields = ("user__username", "muted__username")
