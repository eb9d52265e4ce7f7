"""Thin views: sign-up, profiles and the language switch.  Log-in/out are
Django's auth views (accounts/urls.py)."""

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.debug import sensitive_post_parameters
from django.views.generic import CreateView
from django.views.i18n import set_language as django_set_language

from . import preferences, profiles
from .forms import SignUpForm

#: The backend recorded in the session for a user logged in right after sign-up
#: (several backends are configured: axes first, then ModelBackend).
SIGNUP_LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"


class SignUpView(CreateView):
    """Create an account with ``UserCreationForm``, log it in, go to the lobby (or ``next``)."""

    form_class = SignUpForm
    template_name = "registration/signup.html"

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            return HttpResponseRedirect(self.get_success_url())
        return super().dispatch(request, *args, **kwargs)

    @classmethod
    def as_view(cls, **initkwargs):
        return sensitive_post_parameters("password1", "password2")(super().as_view(**initkwargs))

    def form_valid(self, form):
        self.object = form.save()
        login(self.request, self.object, backend=SIGNUP_LOGIN_BACKEND)
        return HttpResponseRedirect(self.get_success_url())

    def get_success_url(self):
        target = self.request.POST.get("next") or self.request.GET.get("next")
        if target and url_has_allowed_host_and_scheme(
            target, allowed_hosts={self.request.get_host()}, require_https=self.request.is_secure()
        ):
            return target
        return resolve_url(settings.LOGIN_REDIRECT_URL)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["next"] = self.request.POST.get("next") or self.request.GET.get("next", "")
        return context


@login_required
def my_profile(request):
    """The logged-in user's profile."""
    return _render_profile(request, request.user)


def user_profile(request, username: str):
    """Any user's public profile: points, titles and recent matches."""
    user = get_object_or_404(get_user_model(), username=username, is_active=True)
    return _render_profile(request, user)


def _render_profile(request, user):
    context = profiles.profile_context(user)
    context["is_own"] = request.user.is_authenticated and request.user.pk == user.pk
    # the whole ladder and each game's points history
    ladders = profiles.ladders(user, context["game_rows"])
    history = profiles.points_history(user, context["game_rows"])
    ids = [m.last_hand_id for m in context["recent_matches"]]
    ids += [line["hand_id"] for lines in history.values() for line in lines]
    ids += [e.hand_id for e in context["recent_entries"] if e.hand_id]
    # embargoed boards, private rooms' hands: neither a link nor the
    # room's name (a private room is listed nowhere)
    context["hidden_hands"] = profiles.hidden_hands(ids, request.user)
    context["ladder_blocks"] = [
        {"row": row, "rungs": ladders[row.game], "history": history[row.game]} for row in context["game_rows"]
    ]
    return render(request, "accounts/profile.html", context)


def set_language(request):
    """``/i18n/setlang/`` (name ``set_language``): Django's ``set_language``
    view (POST ``language``, ``next``; sets the language cookie and
    redirects), and for a signed-in user the language it set is stored
    (:func:`accounts.preferences.remember_language`), so notices and e-mails
    are written in it.  A refused code sets no cookie and stores nothing."""
    response = django_set_language(request)
    cookie = response.cookies.get(settings.LANGUAGE_COOKIE_NAME)
    if request.method == "POST" and cookie is not None and cookie.value:
        preferences.remember_language(request.user, cookie.value)
    return response
