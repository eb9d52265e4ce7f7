"""Leaderboard URLs (mounted at ``/ratings/``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.index, name="leaderboards"),
    path("<str:game>/", views.leaderboard, name="leaderboard"),
]
