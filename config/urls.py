"""Top-level URL routes."""

from django.contrib import admin
from django.urls import include, path

from accounts.views import set_language

from .health_view import healthz

#: A database outage raised in a middleware is the 503 page, not a 500.
handler500 = "games.pages.outage.server_error"

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # Django's set_language (all of django.conf.urls.i18n), also storing a
    # signed-in user's choice for their notices (accounts/preferences.py)
    path("i18n/setlang/", set_language, name="set_language"),
    path("accounts/", include("accounts.urls")),
    path("clubs/", include("clubs.urls")),
    path("notices/", include("notifications.urls")),
    path("ratings/", include("ratings.urls")),
    path("play/", include("quickplay.urls")),
    path("moderation/", include("moderation.urls")),
    path("", include("games.urls")),
]
