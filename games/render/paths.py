"""Paths of the site's views, reversed once per script prefix, name and
arguments: every table fragment links the same few views (its
buttons' POST targets, the help page), on every push for every seat."""

from __future__ import annotations

from functools import lru_cache

from django.urls import get_script_prefix, reverse


def path(name: str, *args) -> str:
    """``reverse(name, args=args)`` (``NoReverseMatch`` if none), kept; an
    argument that cannot be a cache key is reversed every time."""
    try:
        return _path(get_script_prefix(), name, args)
    except TypeError:
        return reverse(name, args=args)


@lru_cache(maxsize=8192)
def _path(prefix: str, name: str, args: tuple) -> str:
    return reverse(name, args=args)
