"""Project configuration: settings, URLs, ASGI/WSGI entry points and Celery."""

from .celery import app as celery_app

__all__ = ["celery_app"]
