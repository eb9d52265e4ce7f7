"""Admin pages for the ladder (editable per game, C4) and the read-only ledger."""

import pytest
from django.contrib.auth import get_user_model

from accounts import ledger
from accounts.models import LevelTitle

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    boss = get_user_model().objects.create_superuser("boss", "boss@example.com", "Qiu-hua-2026-long")
    client.force_login(boss)
    ledger.credit(boss, "shengji", 40)
    return client


@pytest.mark.parametrize(
    "url",
    [
        "/admin/accounts/leveltitle/",
        "/admin/accounts/leveltitle/?game__exact=baohuang",
        "/admin/accounts/playerstanding/",
        "/admin/accounts/playerstanding/?game__exact=shengji&q=boss",
        "/admin/accounts/pointsentry/",
        "/admin/accounts/pointsentry/?game__exact=shengji&q=boss",
    ],
)
def test_admin_pages_load(admin_client, url):
    assert admin_client.get(url).status_code == 200


def test_ladder_list_is_ordered_by_threshold_and_editable(admin_client):
    response = admin_client.get("/admin/accounts/leveltitle/?game__exact=shengji")
    rows = list(response.context["cl"].result_list)
    assert [r.threshold for r in rows] == sorted(r.threshold for r in rows)
    assert len(rows) == 18
    assert 'name="form-0-threshold"' in response.content.decode()
    row = LevelTitle.objects.get(game="shengji", level_no=18)
    assert admin_client.get(f"/admin/accounts/leveltitle/{row.pk}/change/").status_code == 200


def test_ledger_admin_is_read_only(admin_client):
    assert admin_client.get("/admin/accounts/pointsentry/add/").status_code == 403
    assert admin_client.get("/admin/accounts/playerstanding/add/").status_code == 403
    standing_html = admin_client.get("/admin/accounts/playerstanding/").content.decode()
    assert "小学生" in standing_html  # 40 points → 小學生, shown translated (C4)


def test_search_filters_by_username(admin_client):
    other = get_user_model().objects.create_user("zed", password="Qiu-hua-2026-long")
    ledger.credit(other, "baohuang", 3)
    response = admin_client.get("/admin/accounts/pointsentry/?q=zed")
    assert [e.user.username for e in response.context["cl"].result_list] == ["zed"]


def test_admin_edits_a_threshold_in_the_list_and_title_for_follows(admin_client):
    """C4: admins edit the ladder per game; the change applies to that game only."""
    from accounts import ledger

    url = "/admin/accounts/leveltitle/?game__exact=baohuang"
    rows = list(admin_client.get(url).context["cl"].result_list)
    data = {"form-TOTAL_FORMS": str(len(rows)), "form-INITIAL_FORMS": str(len(rows)), "_save": "1"}
    for i, row in enumerate(rows):
        data[f"form-{i}-id"] = str(row.pk)
        data[f"form-{i}-name"] = row.name
        data[f"form-{i}-threshold"] = str(25 if row.level_no == 2 else row.threshold)
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert LevelTitle.objects.get(game="baohuang", level_no=2).threshold == 25
    assert ledger.title_for("baohuang", 24).name == "幼兒班"
    assert ledger.title_for("shengji", 24).name == "學前班"
