"""Celery tasks of the clubs app: the round clock sweep (beat, every 2 s)."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="clubs.tasks.sweep_rounds", ignore_result=True)
def sweep_rounds() -> int:
    """Beat entry point of :func:`clubs.running.sweep_rounds` (idempotent)."""
    from .running import sweep_rounds as sweep

    return sweep()
