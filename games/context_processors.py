"""Template context every page gets from the games app."""

from __future__ import annotations

from . import registry


def game_links(request) -> dict:
    """``game_links``: ``[{"code", "label"}]`` of every registered game, for
    the site's menu (``templates/base.html``)."""
    return {"game_links": [{"code": s.code, "label": s.label} for s in registry.specs()]}
