"""Forms of the games app."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games import registry
from games.services import room_options
from games.models import RoomMultiplier


def _typed(choices: tuple):
    """``str`` → the schema's value of that text (the select posts text)."""
    by_text = {str(c): c for c in choices}
    return lambda text: by_text[text]


def option_fields() -> list[tuple[str, forms.Field]]:
    """One labelled control per engine option of every game, drawn from
    ``rules.option_schema`` and the spec's ``option_words``: a checkbox for a
    yes/no option, a select otherwise (a number input for a number option of
    more than twelve values); named ``opt_<game>_<key>``, the engine's default
    preselected, never required (the game not chosen posts nothing)."""
    out = []
    for spec in registry.specs():
        schema = getattr(spec.rules, "option_schema", None) or {}
        defaults = spec.rules.default_options() if schema else {}
        for key, option in schema.items():
            words = spec.option_words.get(key, {})
            label = words.get("label") or option.label or key
            attrs = {"data-option-game": spec.code, "data-option": key}
            name = f"opt_{spec.code}_{key}"
            values = tuple(option.choices)
            if set(values) <= {True, False} and all(isinstance(v, bool) for v in values):
                field = forms.BooleanField(label=label, required=False, initial=bool(defaults.get(key)),
                                           widget=forms.CheckboxInput(attrs=attrs))
            elif all(isinstance(v, int) and not isinstance(v, bool) for v in values) and len(values) > 12:
                field = forms.TypedChoiceField(
                    label=label, required=False, coerce=int, empty_value=None, initial=defaults.get(key),
                    choices=[(v, v) for v in values],
                    widget=forms.NumberInput(attrs={**attrs, "min": min(values), "max": max(values)}))
            else:
                shown = words.get("choices", {})
                field = forms.TypedChoiceField(
                    label=label, required=False, coerce=_typed(values), empty_value=None,
                    initial=str(defaults.get(key, values[0])),
                    choices=[(str(v), shown.get(v, str(v))) for v in values], widget=forms.Select(attrs=attrs))
            out.append((name, field))
    return out


class CreateRoomForm(forms.Form):
    """Create a room: game, name, multiplier (from the admin-managed list,
    default preselected; C4), time limit per decision (C5), bot delay,
    engine options as JSON (checked by the engine's ``new_match``), and
    whether the room is private (unlisted, joined by its link)."""

    game = forms.ChoiceField(label=_("游戏"), choices=registry.choices, initial=registry.default_code)
    name = forms.CharField(label=_("房间名"), max_length=60, required=False)
    multiplier = forms.TypedChoiceField(label=_("房间倍数"), coerce=int, choices=())
    turn_seconds = forms.IntegerField(label=_("每步时限（秒）"), min_value=5, max_value=600, initial=30)
    bot_delay_ms = forms.IntegerField(
        label=_("机器人延迟（毫秒）"), min_value=0, max_value=10000, initial=800
    )
    #: Engine options as JSON, for scripts and older clients (no box on the
    #: page: each option is a control of its own, :meth:`option_fields`).
    options = forms.CharField(required=False, initial="{}", widget=forms.HiddenInput)
    private = forms.BooleanField(label=_("私人房间（不在大厅列出，凭链接入座）"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        rows = list(RoomMultiplier.objects.order_by("value"))
        self.fields["multiplier"].choices = [(m.value, f"×{m.value}") for m in rows]
        default = next((m.value for m in rows if m.is_default), rows[0].value if rows else 1)
        self.fields["multiplier"].initial = default
        for name, field in option_fields():
            self.fields[name] = field

    def option_groups(self) -> list[dict]:
        """The option controls by game, for the template: ``[{"code",
        "label", "fields": [bound field]}]`` (games without options left out)."""
        groups = []
        for spec in registry.specs():
            names = [f"opt_{spec.code}_{key}" for key in getattr(spec.rules, "option_schema", None) or {}]
            if names:
                groups.append({"code": spec.code, "label": spec.label, "fields": [self[n] for n in names]})
        return groups

    def plain_fields(self) -> list:
        """The form's fields without the option controls (drawn by game)."""
        return [f for f in self if not f.name.startswith("opt_") and not f.is_hidden]

    def clean_options(self):
        try:
            return room_options.loads(self.cleaned_data.get("options") or "")
        except room_options.OptionsError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean(self):
        """Options checked against the chosen game's schema: the
        chosen game's controls (a value other than the engine's default),
        then any key the JSON field names."""
        data = super().clean()
        if "options" in data and data.get("game"):
            rules = registry.get(data["game"]).rules
            schema = getattr(rules, "option_schema", None) or {}
            defaults = rules.default_options() if schema else {}
            chosen = {}
            for key in schema:
                value = data.get(f"opt_{data['game']}_{key}")
                if value is not None and value != defaults.get(key):
                    chosen[key] = value
            data["options"] = {**chosen, **data["options"]}
            try:
                data["options"] = room_options.validate(data["game"], data["options"])
            except room_options.OptionsError as exc:
                self.add_error("options", str(exc))
        return data
