"""Celery tasks of the clubs app: the round clock sweep (beat, every 2 s)."""

from __future__ import annotations

from celery import shared_task

from .running import rounds


@shared_task(name="clubs.tasks.sweep_rounds", ignore_result=True)
def sweep_rounds() -> int:
    """Beat entry point of :func:`clubs.running.rounds.sweep_rounds` (idempotent)."""
    return rounds.sweep_rounds()
