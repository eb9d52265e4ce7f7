"""Sign-up, log-in, log-out (Django auth views) and the django-axes lockout."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "Qiu-hua-2026-long"


@pytest.fixture
def carol():
    return get_user_model().objects.create_user("carol", password=PASSWORD)


def _session_user_id(client):
    return client.session.get("_auth_user_id")


def test_signup_page_has_stable_hooks(client):
    html = client.get("/accounts/signup/").content.decode()
    assert reverse("signup") == "/accounts/signup/"
    for hook in ('id="id_username"', 'id="id_password1"', 'id="id_password2"', 'data-action="signup"'):
        assert hook in html


def test_signup_creates_user_logs_in_and_goes_to_lobby(client):
    response = client.post(
        "/accounts/signup/", {"username": "dave", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    user = get_user_model().objects.get(username="dave")
    assert user.check_password(PASSWORD)
    assert _session_user_id(client) == str(user.pk)
    # The nav now offers the POST log-out form.
    html = client.get("/accounts/profile/").content.decode()
    assert 'data-action="logout"' in html


def test_signup_follows_safe_next_only(client):
    data = {"username": "erin", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post("/accounts/signup/?next=/accounts/profile/", data)
    assert response["Location"] == "/accounts/profile/"
    client.logout()
    data["username"] = "frank"
    response = client.post("/accounts/signup/", {**data, "next": "https://evil.example/"})
    assert response["Location"] == reverse("lobby")


def test_signup_refuses_duplicate_username(client, carol):
    response = client.post(
        "/accounts/signup/", {"username": "carol", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 200
    assert "username" in response.context["form"].errors
    assert get_user_model().objects.filter(username="carol").count() == 1
    assert _session_user_id(client) is None


def test_signup_refuses_mismatched_passwords(client):
    response = client.post(
        "/accounts/signup/", {"username": "gina", "password1": PASSWORD, "password2": PASSWORD + "x"}
    )
    assert response.status_code == 200
    assert "password2" in response.context["form"].errors
    assert not get_user_model().objects.filter(username="gina").exists()


def test_login_page_hook_and_login_logout(client, carol):
    html = client.get("/accounts/login/").content.decode()
    assert 'data-action="login"' in html
    response = client.post("/accounts/login/", {"username": "carol", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    assert _session_user_id(client) == str(carol.pk)

    # Django 5: log-out is POST only.
    assert client.get("/accounts/logout/").status_code == 405
    assert _session_user_id(client) == str(carol.pk)
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert _session_user_id(client) is None


def test_login_with_wrong_password_shows_form_again(client, carol):
    response = client.post("/accounts/login/", {"username": "carol", "password": "wrong"})
    assert response.status_code == 200
    assert response.context["form"].errors
    assert _session_user_id(client) is None


def test_axes_locks_after_five_failures_with_friendly_page(client, carol):
    for attempt in range(4):
        response = client.post("/accounts/login/", {"username": "carol", "password": f"bad{attempt}"})
        assert response.status_code == 200, attempt
    response = client.post("/accounts/login/", {"username": "carol", "password": "bad5"})
    assert response.status_code == 429
    html = response.content.decode()
    assert 'data-testid="lockout"' in html
    assert "请 15 分钟后再试" in html  # AXES_COOLOFF_TIME 0.25 h
    # Even the right password is refused while locked.
    response = client.post("/accounts/login/", {"username": "carol", "password": PASSWORD})
    assert response.status_code == 429
    assert _session_user_id(client) is None


def test_axes_lock_is_per_username_and_ip(client, carol):
    get_user_model().objects.create_user("hank", password=PASSWORD)
    for attempt in range(5):
        client.post("/accounts/login/", {"username": "carol", "password": f"bad{attempt}"})
    response = client.post("/accounts/login/", {"username": "hank", "password": PASSWORD})
    assert response.status_code == 302


def test_success_before_the_limit_resets_the_count(client, carol):
    for attempt in range(4):
        client.post("/accounts/login/", {"username": "carol", "password": f"bad{attempt}"})
    assert client.post("/accounts/login/", {"username": "carol", "password": PASSWORD}).status_code == 302
    client.post("/accounts/logout/")
    for attempt in range(4):
        response = client.post("/accounts/login/", {"username": "carol", "password": f"bad{attempt}"})
    assert response.status_code == 200


def test_logged_in_user_visiting_login_or_signup_is_sent_on(client, carol):
    client.force_login(carol)
    assert client.get("/accounts/login/")["Location"] == reverse("lobby")
    assert client.get("/accounts/signup/")["Location"] == reverse("lobby")


def test_a_username_too_long_for_any_account_is_a_failed_login_not_a_500(client, carol):
    """axes kept the name as typed in a varchar(255) (DataError on
    PostgreSQL, the fuzz test's find); it keeps the first 150 characters, the
    longest name an account can have, and still counts toward a lockout."""
    from axes.models import AccessAttempt

    name = "0" * 256
    for attempt in range(4):
        response = client.post("/accounts/login/", {"username": name, "password": f"bad{attempt}"})
        assert response.status_code == 200, attempt
    assert list(AccessAttempt.objects.values_list("username", "failures_since_start")) == [("0" * 150, 4)]
    assert client.post("/accounts/login/", {"username": name, "password": "bad5"}).status_code == 429


def test_the_site_stores_passwords_with_a_slow_hash_not_the_suites_fast_one():
    """tests/conftest.py gives every test Django's MD5 hasher (the suite creates
    thousands of users); the site itself, and the live stacks the integration and
    browser tests start, must keep Django's default: PBKDF2 first, MD5 nowhere."""
    import importlib

    from django.conf import global_settings

    site = importlib.import_module("config.settings")
    hashers = getattr(site, "PASSWORD_HASHERS", global_settings.PASSWORD_HASHERS)
    assert hashers[0] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    assert not any("MD5" in name for name in hashers)
