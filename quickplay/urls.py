"""Quick-play URLs (mounted at ``/play/``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("leave", views.leave, name="quickplay_leave"),
    path("status", views.status, name="quickplay_status"),
    path("pair/<str:code>/", views.pair, name="quickplay_pair"),
    path("<str:game>/", views.play, name="quickplay"),
    path("<str:game>/join", views.join, name="quickplay_join"),
]
