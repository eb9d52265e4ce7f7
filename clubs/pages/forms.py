"""Forms of the clubs app."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import GAME_CHOICES, RoomMultiplier

from ..models import Event


class EventForm(forms.Form):
    """Create an event: game, format, rounds, round length, table settings,
    the no-show rule."""

    name = forms.CharField(label=_("名称"), max_length=80)
    game = forms.ChoiceField(label=_("游戏"), choices=GAME_CHOICES)
    format = forms.ChoiceField(  # an arena has its own form (clubs/arena/pages.py)
        label=_("赛制"), choices=[c for c in Event.Format.choices if c[0] != Event.Format.ARENA],
        initial=Event.Format.SWISS)
    movement = forms.ChoiceField(label=_("复式赛轮转"), choices=Event.Movement.choices, initial=Event.Movement.SWISS)
    rounds = forms.IntegerField(label=_("轮数"), min_value=1, max_value=50, initial=3)
    hands_per_round = forms.IntegerField(label=_("每轮局数"), min_value=1, max_value=50, required=False, initial=2)
    minutes_per_round = forms.IntegerField(label=_("每轮时限（分钟）"), min_value=1, max_value=600, required=False)
    turn_seconds = forms.IntegerField(label=_("每步时限（秒）"), min_value=5, max_value=600, initial=30)
    bot_delay_ms = forms.IntegerField(label=_("机器人/托管延迟（毫秒）"), min_value=0, max_value=10000, initial=800)
    multiplier = forms.TypedChoiceField(label=_("房间倍数"), coerce=int, choices=())
    no_show = forms.ChoiceField(label=_("缺席处理"), choices=Event.NoShow.choices, initial=Event.NoShow.BOT_COUNTS)
    grace_minutes = forms.IntegerField(label=_("缺席宽限（分钟）"), min_value=0, max_value=60, initial=5)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        rows = list(RoomMultiplier.objects.order_by("value"))
        self.fields["multiplier"].choices = [(m.value, f"×{m.value}") for m in rows] or [(1, "×1")]
        self.fields["multiplier"].initial = next((m.value for m in rows if m.is_default), 1)


class EventEditForm(forms.Form):
    """Edit an event before its first round starts: the settings of
    :data:`clubs.running.events.EDITABLE`."""

    name = forms.CharField(label=_("名称"), max_length=80)
    rounds = forms.IntegerField(label=_("轮数"), min_value=1, max_value=50)
    hands_per_round = forms.IntegerField(label=_("每轮局数"), min_value=1, max_value=50, required=False)
    minutes_per_round = forms.IntegerField(label=_("每轮时限（分钟）"), min_value=1, max_value=600, required=False)
    turn_seconds = forms.IntegerField(label=_("每步时限（秒）"), min_value=5, max_value=600)
    bot_delay_ms = forms.IntegerField(label=_("机器人/托管延迟（毫秒）"), min_value=0, max_value=10000)
    no_show = forms.ChoiceField(label=_("缺席处理"), choices=Event.NoShow.choices)
    grace_minutes = forms.IntegerField(label=_("缺席宽限（分钟）"), min_value=0, max_value=60)
