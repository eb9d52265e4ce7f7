"""Websocket routes of the clubs app (mounted by ``config/asgi.py``)."""

from django.urls import path

from ..arena import live as arena_live
from . import consumers

websocket_urlpatterns = [
    path("ws/events/<int:event_id>/", consumers.EventConsumer.as_asgi()),
    path("ws/arenas/<int:event_id>/", arena_live.ArenaConsumer.as_asgi()),
]
