"""Signals through which other apps add to accounts pages without accounts
importing them (accounts depends on no other app of the project).

``profile_context``
    Sent by :func:`accounts.profiles.profile_context` with ``sender`` the
    user model and ``user``; each receiver returns a dict merged into the
    profile page's template context (e.g. ``{"current_seats": [...]}``, the
    rooms the user sits at, from the games app).
"""

from django.dispatch import Signal

profile_context = Signal()
