"""Websocket routes of quick play (mounted by ``config/asgi.py``)."""

from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/quickplay/", consumers.QueueConsumer.as_asgi()),
]
