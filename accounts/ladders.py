"""Default title ladders (C4) for games that have none."""

from __future__ import annotations

from . import catalog
from .models import LevelTitle


def seed_missing_ladders(level_title_model=None, using: str = "default") -> int:
    """Give every game that has no title row its default ladder (C4); returns
    how many games were seeded.  ``level_title_model`` is the historical
    model inside a migration (default: :class:`accounts.models.LevelTitle`)."""
    if level_title_model is None:
        level_title_model = LevelTitle
    seeded = 0
    for entry in catalog.entries():
        rows = level_title_model.objects.using(using).filter(game=entry.code)
        if not entry.ladder or rows.exists():
            continue
        level_title_model.objects.using(using).bulk_create(
            [level_title_model(game=entry.code, level_no=n, name=name, threshold=t) for n, name, t in entry.ladder]
        )
        seeded += 1
    return seeded
