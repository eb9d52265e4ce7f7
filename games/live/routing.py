"""Websocket routes (mounted by ``config/asgi.py``)."""

from django.urls import path

from games.live import consumers

websocket_urlpatterns = [
    path("ws/rooms/<int:room_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/lobby/<str:game>/", consumers.LobbyConsumer.as_asgi()),
]
