"""A user's preferred language, stored (:class:`accounts.models.Preference`),
so that what is sent to them later, outside any request of theirs (notices,
their e-mails, Web Push), is written in the language they use the site in.

Where it is set — the only two places, so an ordinary page view costs no query:

* **switching language** while signed in: ``/i18n/setlang/`` is
  :func:`accounts.views.set_language`, Django's ``set_language`` view plus
  :func:`remember_language` of the language it put in the cookie;
* **logging in** (also right after sign-up): the ``user_logged_in`` receiver
  :func:`remember_on_login` stores the language of the log-in request (the one
  ``LocaleMiddleware`` activated: cookie, else ``Accept-Language``, else the
  site default) when the browser's language cookie says it was chosen, or
  when nothing is stored yet.

Readers: :func:`language_of` (one user) and :func:`languages_of` (many, one
query).  A code is one of ``settings.LANGUAGES``' codes; blank = site default.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.utils import translation


def _codes() -> set[str]:
    return {code for code, _label in settings.LANGUAGES}


def language_of(user) -> str:
    """``user``'s language code: the stored one, else ``settings.LANGUAGE_CODE``
    (also for a user without a row).  One query unless ``user.preference`` is
    cached (``select_related("preference")``)."""
    from django.core.exceptions import ObjectDoesNotExist

    try:
        code = user.preference.language
    except (ObjectDoesNotExist, AttributeError):
        code = ""
    return code if code in _codes() else settings.LANGUAGE_CODE


def languages_of(user_ids: Iterable[int]) -> dict[int, str]:
    """``{user id: language code}`` for every id given (the site default for
    those without a stored language), in one query."""
    from .models import Preference

    ids = set(user_ids)
    out = dict.fromkeys(ids, settings.LANGUAGE_CODE)
    codes = _codes()
    for user_id, code in Preference.objects.filter(user_id__in=ids).exclude(language="").values_list(
            "user_id", "language"):
        if code in codes:
            out[user_id] = code
    return out


def remember_language(user, code: str | None) -> bool:
    """Store ``code`` as ``user``'s language if it is one of
    ``settings.LANGUAGES``' codes (exactly) and differs from what is stored
    (no row = the site default, so the default is not written for a user who
    never chose).  True if a row was written; anonymous users are ignored."""
    from .models import Preference

    if not getattr(user, "is_authenticated", False) or code not in _codes():
        return False
    stored = Preference.objects.filter(user=user).values_list("language", flat=True).first() or ""
    if code == stored or (not stored and code == settings.LANGUAGE_CODE):
        return False
    Preference.objects.update_or_create(user=user, defaults={"language": code})
    return True


def request_language(request) -> str | None:
    """The language of ``request``: what ``LocaleMiddleware`` activated for it
    (``request.LANGUAGE_CODE``), else what it would activate (a request made
    outside the middleware, e.g. ``Client.force_login``'s)."""
    if request is None:
        return None
    code = getattr(request, "LANGUAGE_CODE", None)
    if code:
        return code
    try:
        return translation.get_language_from_request(request)
    except Exception:  # a bare request object without the attributes it reads
        return None


def remember_on_login(sender, request, user, **kwargs):
    """``user_logged_in`` receiver: store the log-in request's language when it
    is a choice (this browser's language cookie, set by the switch), or when
    nothing is stored yet.  A browser's ``Accept-Language`` alone never
    overwrites a stored choice: a member who chose English and logs in from
    a Chinese browser keeps English notices."""
    from .models import Preference

    if request is None:
        return
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen is None and Preference.objects.filter(user=user).exclude(language="").exists():
        return
    remember_language(user, request_language(request))
