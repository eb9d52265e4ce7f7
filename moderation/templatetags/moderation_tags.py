"""``{% blocked_users request.user as rows %}``: the viewer's own block list
(the profile shows it to its owner only)."""

from django import template

from ..models import Block

register = template.Library()


@register.simple_tag
def blocked_users(user):
    """``user``'s blocks, newest first, with the blocked users (one query)."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(Block.objects.filter(user=user).select_related("blocked"))
