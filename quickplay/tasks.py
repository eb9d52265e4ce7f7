"""Celery tasks of quick play: thin wrappers of :mod:`quickplay.services`.

Both are idempotent: a pass seats only entries still waiting, under row
locks, so a duplicated, late or concurrent task seats nobody twice."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="quickplay.tasks.matchmake", ignore_result=True)
def matchmake(game: str) -> int:
    """One pass for ``game``; returns the number of tables opened."""
    return len(services.run_pass(game))


@shared_task(name="quickplay.tasks.matchmake_all", ignore_result=True)
def matchmake_all() -> int:
    """A pass for every game with someone waiting (beat, every second)."""
    return sum(len(services.run_pass(game)) for game in services.games_waiting())
