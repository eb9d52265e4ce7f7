"""Health checks per process kind (issue #8): ``/healthz`` and ``manage.py health``.

The production answers (a worker's ping, beat's sweep stamp, Redis down) are
exercised on real processes in tests/integration/test_faults.py."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.pages import health

pytestmark = pytest.mark.django_db


def test_healthz_answers_200_with_its_checks(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True and "database ok" in body["checks"]


def test_healthz_answers_503_when_the_database_fails(client, monkeypatch):
    monkeypatch.setattr(health, "check_database", lambda: (False, "database: down"))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"ok": False, "checks": ["database: down", health.check_redis()[1]]}


def test_health_command_exit_status(capsys, monkeypatch):
    call_command("health", "web")
    assert "ok   database ok" in capsys.readouterr().out
    monkeypatch.setattr(health, "check_database", lambda: (False, "database: down"))
    with pytest.raises(SystemExit) as exc:
        call_command("health", "web")
    assert exc.value.code == 1
    assert "FAIL database: down" in capsys.readouterr().out


def test_beat_check_reads_the_sweep_stamp(settings):
    settings.GAMES_INPROCESS_TASKS = False
    from django.core.cache import cache

    cache.delete(health.BEAT_KEY)
    assert health.check_beat()[0][0] is False
    health.beat_ran()
    ok, detail = health.check_beat()[0]
    assert ok and "last sweep" in detail
