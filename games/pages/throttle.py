"""Per-user request limits (django-ratelimit).

Two limits, both counted in the ``default`` cache (Redis in the production
topology, so every daphne process shares the counts; process memory in the
embedded one):

* :class:`PostRateLimitMiddleware`: every POST (moves, seats, sign-up, log-in
  …) counts against ``settings.RATE_POSTS`` per signed-in user, or per client
  IP (:func:`accounts.client_ip.client_ip`) for anonymous requests.  Over the
  limit the answer is HTTP 429 with a message (an htmx request gets it in
  ``#act-msg``) and the view is not called, so nothing changes.
* :func:`room_create_limited`: room creation, ``settings.RATE_ROOM_CREATE``
  per user (the services layer also caps open rooms per owner).

A broken cache (Redis down) lets requests through (fail open, logged): a rate
limit must never be the reason a committed-move endpoint answers 5xx.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django_ratelimit import ALL
from django_ratelimit.core import is_ratelimited
from accounts.client_ip import client_ip

log = logging.getLogger(__name__)


def _key(group, request) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"u{user.pk}"

    return f"ip{client_ip(request)}"


def limited(request, group: str, rate: str) -> bool:
    """Count this request in ``group`` and say whether it is over ``rate``
    (django-ratelimit syntax, e.g. ``"120/m"``).  False when the cache fails."""
    if not rate:
        return False
    try:
        return is_ratelimited(request, group=group, key=_key, rate=rate, method=ALL, increment=True)
    except Exception:  # Redis down: fail open, never 5xx
        log.warning("rate limit %s: cache unavailable, request let through", group, exc_info=True)
        return False


def too_many(request, message: str | None = None) -> HttpResponse:
    """The 429 answer: a message fragment (htmx puts it in ``#act-msg``)."""
    response = HttpResponse(
        render_to_string(
            "games/_message.html",
            {"message": message or _("操作太频繁，请稍后再试"), "error": True},
            request=request,
        ),
        status=429,
    )
    response["HX-Retarget"] = "#act-msg"
    response["HX-Reswap"] = "outerHTML"
    response["Retry-After"] = "60"
    return response


def room_create_limited(request) -> bool:
    """True when ``request.user`` created rooms faster than ``settings.RATE_ROOM_CREATE``."""
    return limited(request, "room_create", settings.RATE_ROOM_CREATE)


class PostRateLimitMiddleware:
    """Refuses (429) a POST over ``settings.RATE_POSTS`` for its user or IP."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "POST" and limited(request, "post", settings.RATE_POSTS):
            return too_many(request)
        return self.get_response(request)
