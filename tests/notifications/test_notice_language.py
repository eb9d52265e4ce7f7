"""Notices in each member's language: a member's language is stored when they
switch language while signed in (``/i18n/setlang/``) and when they log in
(the request's language), never on an ordinary page view; the event notices
(clubs/schedule/announce.py) and their e-mails (subject, body, unsubscribe footer) are
written in it: English, Traditional Chinese, or the site default
(Simplified) for a member who never chose."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from accounts import preferences
from accounts.models import Preference
from clubs import services
from clubs.running import events
from clubs.schedule import announce, scheduling
from notifications import services as notices
from notifications.models import Kind, Notification

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _back_to_default_language():
    """LocaleMiddleware leaves a request's language active in this thread."""
    yield
    translation.deactivate()


@pytest.fixture
def members(make_user, multipliers):
    """A club: olga (organiser, no language chosen), mike (English), hana
    (Traditional Chinese); a 保皇 event that mike and hana entered, 3 bots."""
    olga, mike, hana = make_user("olga"), make_user("mike"), make_user("hana")
    for u in (olga, mike, hana):
        u.email = f"{u.username}@example.org"
        u.save()
    club = services.create_club(olga, "东城牌社")
    services.join_club(mike, club.join_code)
    services.join_club(hana, club.join_code)
    assert preferences.remember_language(mike, "en") and preferences.remember_language(hana, "zh-hant")
    event = events.create_event(olga, club, name="周五赛", game="baohuang", rounds=1, hands_per_round=1,
                                bot_delay_ms=0)
    events.register(mike, event)
    events.register(hana, event)
    events.add_bot_entries(olga, event, 3)
    return event, olga, mike, hana


def notice(user, kind):
    return Notification.objects.get(user=user, kind=kind)


def email_to(user):
    (message,) = [m for m in mail.outbox if m.to == [user.email]]
    return message


def test_each_member_gets_the_notice_and_its_email_in_their_language(members, django_capture_on_commit_callbacks):
    event, olga, mike, hana = members
    # the organiser works in English: that must not decide anyone else's language
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        scheduling.schedule_event(olga, event, starts_at=timezone.now() + timedelta(hours=2))
    assert notice(mike, Kind.REGISTRATION_OPEN).subject == "Registration open: “周五赛”"
    assert "starts at" in notice(mike, Kind.REGISTRATION_OPEN).body
    assert notice(hana, Kind.REGISTRATION_OPEN).subject == "“周五赛”開始報名"
    assert "將於" in notice(hana, Kind.REGISTRATION_OPEN).body
    assert notice(olga, Kind.REGISTRATION_OPEN).subject == "“周五赛”开始报名"
    assert "将于" in notice(olga, Kind.REGISTRATION_OPEN).body

    # the e-mail task as a worker runs it (in the embedded topology the eager task ran already: no-op)
    with translation.override(settings.LANGUAGE_CODE):
        for row in Notification.objects.filter(kind=Kind.REGISTRATION_OPEN):
            notices.deliver_email(row.pk)
    assert len(mail.outbox) == 3
    en, hant, hans = email_to(mike), email_to(hana), email_to(olga)
    assert en.subject == "Registration open: “周五赛”" and "Unsubscribe:" in en.body and "退订" not in en.body
    assert hant.subject == "“周五赛”開始報名" and "點此退訂" in hant.body
    assert hans.subject == "“周五赛”开始报名" and "点此退订" in hans.body and "Unsubscribe" not in hans.body

    # "your table is ready" and "results" (each entrant's own score card) too
    r = events.pair_round(olga, event)
    with django_capture_on_commit_callbacks(execute=True):
        events.start_round(olga, r)
    assert notice(mike, Kind.TABLE_READY).subject == "Round 1: your table is ready"
    assert notice(hana, Kind.TABLE_READY).subject == "第1輪：你的牌桌已就緒"
    assert notice(hana, Kind.TABLE_READY).body == "“周五赛”第1輪，第1桌。"
    with translation.override("zh-hant"):
        assert announce.results(event) == 3
    mine = notice(mike, Kind.RESULTS)
    assert mine.subject == "Results of “周五赛” are published"
    assert "Score card: mike" in mine.body and "Total:" in mine.body
    assert "成績卡：hana" in notice(hana, Kind.RESULTS).body
    assert notice(olga, Kind.RESULTS).subject == "“周五赛”成绩已公布"  # an organiser, no entry


def test_the_email_footer_follows_the_stored_language_not_the_workers(make_user, django_capture_on_commit_callbacks):
    emma = make_user("emma")
    emma.email = "emma@example.org"
    emma.save()
    Preference.objects.create(user=emma, language="en")
    with django_capture_on_commit_callbacks(execute=False):
        row = notices.notify(emma, Kind.RESULTS, "event:7", "Results", "See the event page.")
    with translation.override("zh-hans"):
        assert notices.deliver_email(row.pk)
    assert "Unsubscribe:" in mail.outbox[0].body and "退订" not in mail.outbox[0].body


def test_switching_language_while_signed_in_stores_it(make_user):
    mike = make_user("mike")
    client = Client()
    client.force_login(mike)
    assert not Preference.objects.filter(user=mike).exists()
    assert client.post("/i18n/setlang/", {"language": "en", "next": "/"}).status_code == 302
    assert preferences.language_of(Preference.objects.get(user=mike).user) == "en"
    client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
    assert Preference.objects.get(user=mike).language == "zh-hant"
    # a refused code changes nothing, nor does a GET
    client.post("/i18n/setlang/", {"language": "klingon", "next": "/"})
    client.get("/i18n/setlang/", {"language": "en"})
    assert Preference.objects.get(user=mike).language == "zh-hant"
    # an anonymous switch stores nothing
    Client().post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert Preference.objects.count() == 1
    # an ordinary page view neither reads nor writes it, whatever its cookie says
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/notices/").status_code == 200
    assert not [q["sql"] for q in queries if "accounts_preference" in q["sql"]]
    assert Preference.objects.get(user=mike).language == "zh-hant"


def test_logging_in_stores_the_active_language(make_user):
    make_user("hana")
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"
    assert client.post("/accounts/login/", {"username": "hana", "password": "pw-hana-123"}).status_code == 302
    assert Preference.objects.get(user__username="hana").language == "zh-hant"
    # later, from a browser that only asks for English (no choice made there):
    # the stored choice stays
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.post("/accounts/login/", {"username": "hana", "password": "pw-hana-123"})
    assert Preference.objects.get(user__username="hana").language == "zh-hant"
    # a browser where English was chosen (its language cookie): stored
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.post("/accounts/login/", {"username": "hana", "password": "pw-hana-123"})
    assert Preference.objects.get(user__username="hana").language == "en"
    # a member with nothing stored who logs in from an English browser: stored
    make_user("ivan")
    Client(HTTP_ACCEPT_LANGUAGE="en").post("/accounts/login/", {"username": "ivan", "password": "pw-ivan-123"})
    assert Preference.objects.get(user__username="ivan").language == "en"
    Preference.objects.filter(user__username="ivan").delete()
    # a member who logs in in the site's default language and never chose: no row
    make_user("olga")
    Client().post("/accounts/login/", {"username": "olga", "password": "pw-olga-123"})
    assert not Preference.objects.filter(user__username="olga").exists()
    assert preferences.languages_of([Preference.objects.get().user_id, 10**6]) == {
        Preference.objects.get().user_id: "en", 10**6: settings.LANGUAGE_CODE}


@pytest.mark.django_db
def test_the_unsubscribe_page_speaks_the_emails_language_unless_the_browser_chose_one(make_user):
    """The link is opened from the e-mail, often in a browser that never
    visited the site: the page follows the member's stored language, not the
    browser's Accept-Language; a language chosen on the site (cookie) wins."""
    emma = make_user("emma")
    Preference.objects.create(user=emma, language="en")
    url = f"/notices/unsubscribe/{notices.unsubscribe_token(emma.pk, Kind.RESULTS)}/"
    browser = Client(HTTP_ACCEPT_LANGUAGE="zh-CN")
    page = browser.get(url).content.decode()
    assert "<h1>Unsubscribe</h1>" in page and 'lang="en"' in page
    browser.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"
    page = browser.get(url).content.decode()
    assert "<h1>退訂郵件</h1>" in page
    # no stored language: the site's default
    olga = make_user("olga")
    url = f"/notices/unsubscribe/{notices.unsubscribe_token(olga.pk, Kind.RESULTS)}/"
    assert "<h1>退订邮件</h1>" in Client(HTTP_ACCEPT_LANGUAGE="en").get(url).content.decode()
    # the one-click POST still works, in any language
    assert Client().post(url, {"List-Unsubscribe": "One-Click"}).content == b"unsubscribed"
