"""Websocket route of the notifications app (mounted by ``config/asgi.py``)."""

from django.urls import path

from . import consumers

websocket_urlpatterns = [path("ws/notices/", consumers.NoticeConsumer.as_asgi())]
