"""Forms of the games app."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games import registry
from games.services import room_options
from games.models import RoomMultiplier


class CreateRoomForm(forms.Form):
    """Create a room: game, name, multiplier (from the admin-managed list,
    default preselected; C4), time limit per decision (C5), bot delay,
    engine options as JSON (checked by the engine's ``new_match``), and
    whether the room is private (#26: unlisted, joined by its link)."""

    game = forms.ChoiceField(label=_("游戏"), choices=registry.choices, initial=registry.default_code)
    name = forms.CharField(label=_("房间名"), max_length=60, required=False)
    multiplier = forms.TypedChoiceField(label=_("房间倍数"), coerce=int, choices=())
    turn_seconds = forms.IntegerField(label=_("每步时限（秒）"), min_value=5, max_value=600, initial=30)
    bot_delay_ms = forms.IntegerField(
        label=_("机器人延迟（毫秒）"), min_value=0, max_value=10000, initial=800
    )
    options = forms.CharField(
        label=_("其他选项（JSON）"), required=False, initial="{}",
        widget=forms.TextInput(attrs={"placeholder": "{}"}),
    )
    private = forms.BooleanField(label=_("私人房间（不在大厅列出，凭链接入座）"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        rows = list(RoomMultiplier.objects.order_by("value"))
        self.fields["multiplier"].choices = [(m.value, f"×{m.value}") for m in rows]
        default = next((m.value for m in rows if m.is_default), rows[0].value if rows else 1)
        self.fields["multiplier"].initial = default

    def clean_options(self):
        try:
            return room_options.loads(self.cleaned_data.get("options") or "")
        except room_options.OptionsError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean(self):
        """Options checked against the chosen game's schema (issue #8)."""
        data = super().clean()
        if "options" in data and data.get("game"):
            try:
                data["options"] = room_options.validate(data["game"], data["options"])
            except room_options.OptionsError as exc:
                self.add_error("options", str(exc))
        return data
