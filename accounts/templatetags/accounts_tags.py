"""Small template helpers for account pages."""

from datetime import timedelta

from django import template

register = template.Library()


@register.filter
def minutes(value) -> int:
    """Whole minutes (rounded up) of a ``timedelta``; 0 for anything else.

    ``{{ cooloff_timedelta|minutes }}`` → ``15`` for ``timedelta(hours=0.25)``.
    """
    if not isinstance(value, timedelta):
        return 0
    seconds = int(value.total_seconds())
    return max(0, -(-seconds // 60))
