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


@register.simple_tag
def ago(when):
    """``<time>`` saying how long ago ``when`` (an aware ``datetime``) was, in
    the active language ("3 hours ago", "3小时之前": humanize's
    ``naturaltime``), with the full time (``SHORT_DATETIME_FORMAT``) as its
    tooltip and ISO 8601 in ``datetime``: the profile's history tables, where
    a phone has no room for "12/01/2026 8:13 a.m."."""
    from django.contrib.humanize.templatetags.humanize import naturaltime
    from django.template.defaultfilters import date
    from django.utils.html import format_html

    return format_html('<time datetime="{}" title="{}">{}</time>',
                       date(when, "c"), date(when, "SHORT_DATETIME_FORMAT"), naturaltime(when))
