"""The username half of django-axes' lockout key (``AXES_USERNAME_CALLABLE``).

Django's login form hands ``authenticate()`` the username as typed,
however long (its field's ``max_length`` only reaches the widget), and axes
records a failed attempt in ``AccessAttempt.username``, a ``varchar(255)``: a
longer name was a server error on PostgreSQL (``DataError``).  No account's
name is longer than the user model's ``max_length`` (150), so the key is the
name cut there; the same cut is applied when axes checks a lockout, so the
count per (username, IP) is unchanged for every real name.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model


def axes_username(request, credentials: dict | None = None) -> str | None:
    """The submitted username (from ``credentials``, else the POST's
    ``username``) cut to the user model's ``max_length``; None if absent."""
    if credentials:
        name = credentials.get("username")
    else:
        name = getattr(request, "data", request.POST).get("username")
    if not isinstance(name, str):
        return name
    model = get_user_model()
    return name[: model._meta.get_field(model.USERNAME_FIELD).max_length]
