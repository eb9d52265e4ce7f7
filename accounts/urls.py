"""Account URLs: Django's auth views (login, logout — POST only —, password change/reset),
sign-up and profiles."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import views

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("signup/", views.SignUpView.as_view(), name="signup"),
    path("profile/", views.my_profile, name="profile"),
    path("u/<str:username>/", views.user_profile, name="profile_user"),
    path("", include("django.contrib.auth.urls")),
]
