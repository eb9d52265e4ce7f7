"""Where turns run: scheduling (Celery or in-process timers), worker-local turns, the sweeps, the Celery tasks, hidden decisions, dealing hooks."""
