"""Language switching through Django's set_language view: zh-Hans (source), zh-Hant, English.

The compiled catalogs (locale/*/LC_MESSAGES/django.mo) are committed, so these tests
need no gettext tools.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from accounts import ledger

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _back_to_default_language():
    """LocaleMiddleware leaves the last request's language active in this thread;
    reset it so later tests (in any file) see the default zh-Hans."""
    yield
    translation.deactivate()


def _h1(response) -> str:
    return re.search(r"<h1>(.*?)</h1>", response.content.decode(), re.S).group(1).strip()


def _switch(client, language: str, next_url: str):
    return client.post("/i18n/setlang/", {"language": language, "next": next_url}, follow=True)


def test_default_is_simplified_chinese(client):
    response = client.get("/accounts/login/")
    assert _h1(response) == "登录"
    assert 'lang="zh-hans"' in response.content.decode()


@pytest.mark.parametrize(
    ("language", "login_h1", "signup_button"),
    [("en", "Log in", "Sign up"), ("zh-hant", "登入", "註冊"), ("zh-hans", "登录", "注册")],
)
def test_set_language_changes_rendered_strings(client, language, login_h1, signup_button):
    response = _switch(client, language, "/accounts/login/")
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == "/accounts/login/"
    assert _h1(response) == login_h1
    # The choice sticks for the next page (language cookie).
    html = client.get("/accounts/signup/").content.decode()
    assert re.search(rf'data-action="signup">\s*{signup_button}\s*<', html)


def test_titles_and_game_names_follow_the_language(client):
    user = get_user_model().objects.create_user("kim", password="Qiu-hua-2026-long")
    ledger.credit(user, "shengji", 80)
    _switch(client, "en", "/accounts/u/kim/")
    html = client.get("/accounts/u/kim/").content.decode()
    assert 'data-testid="title-shengji">Middle schooler<' in html
    assert "Shengji (four decks)" in html
    _switch(client, "zh-hant", "/accounts/u/kim/")
    html = client.get("/accounts/u/kim/").content.decode()
    assert 'data-testid="title-shengji">國中生<' in html
    assert "kim 的資料" in html


def test_catalogs_have_no_untranslated_project_strings():
    """Every msgid in both catalogs has a translation (the .mo files are up to date)."""
    from pathlib import Path

    from django.conf import settings

    for lang in ("en", "zh_Hant"):
        po = Path(settings.BASE_DIR, "locale", lang, "LC_MESSAGES", "django.po").read_text("utf-8")
        mo = Path(settings.BASE_DIR, "locale", lang, "LC_MESSAGES", "django.mo")
        assert mo.exists(), lang
        empty = re.findall(r'\nmsgid "(.+)"\nmsgstr ""\n\n', po)
        assert empty == [], (lang, empty)
        assert "#, fuzzy" not in po, lang


def test_translation_of_a_model_label():
    with translation.override("en"):
        from accounts.models import PointsEntry

        assert str(PointsEntry._meta.verbose_name) == "Points entry"
    with translation.override("zh-hant"):
        assert str(PointsEntry._meta.verbose_name) == "積分記錄"
