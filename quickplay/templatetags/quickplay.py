"""``{% play_now game %}``: the "play now" form of a game, or, for a player
matched while away, the way to his table."""

from django import template

from games.engine import get_rules

from .. import services

register = template.Library()


@register.inclusion_tag("quickplay/_play_now.html", takes_context=True)
def play_now(context, game: str):
    request = context.get("request")
    user = getattr(request, "user", None)
    signed_in = user is not None and user.is_authenticated
    return {
        "game": game,
        "signed_in": signed_in,
        "entry": services.active_entry(user) if signed_in else None,
        "match": services.recent_match(user) if signed_in else None,
        "pairs": bool(get_rules(game).partner_slots),
        "request": request,
    }
