"""items 6 and 7: input a user controls is bounded, and each refusal
is a clear message with nothing changed.

6: room options checked per game against its schema (unknown keys, size,
nesting, NaN), rooms per user and requests per user limited (django-ratelimit).
7: the lockout cannot be aimed at a victim behind a proxy (X-Forwarded-For only
from DJANGO_TRUSTED_PROXIES; lockout by username + that IP), password
validators refuse eight spaces, production refuses to start without
DJANGO_SECRET_KEY, the websocket Origin check includes the port.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.test import Client, override_settings

from games.services import room_options
from games import services
from games.models import Room

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]
PASSWORD = "Qiu-hua-2026-long"


@pytest.fixture(autouse=True)
def _fresh_rate_counts():
    """Forget django-ratelimit's counters (keys ``…rl:…``) before each test.

    Only this run's: another run sharing the Redis database (its own
    ``CACHE_KEY_PREFIX``) numbers its users from 1 too, and its counters for
    the same user ids must neither be cleared nor counted here."""
    cache = caches["default"]  # the backend itself (django.core.cache.cache is a proxy)
    backend = cache.__class__.__name__
    if backend == "LocMemCache":
        cache.clear()
    elif backend == "RedisCache":
        client = cache._cache.get_client(write=True)
        pattern = cache.make_key("rl:") + "*"  # "<CACHE_KEY_PREFIX>:1:rl:*"
        for key in list(client.scan_iter(match=pattern, count=1000))[:10000]:
            client.delete(key)
    yield


def _create(client, **fields):
    data = {"game": "baohuang", "name": "t", "multiplier": 1, "turn_seconds": 30,
            "bot_delay_ms": 800, "options": "{}"}
    data.update(fields)
    return client.post("/rooms/new/", data)


def _options_error(response) -> str:
    form = response.context["form"]
    return " ".join(form.errors.get("options", []) + form.non_field_errors())


# --------------------------------------------------------------------------- 6: options


@pytest.mark.parametrize(
    "game, raw, says",
    [
        ("baohuang", '{"colour": "red"}', "未知的选项“colour”"),
        ("shengji", '{"follw": "suit"}', "未知的选项“follw”"),
        ("shengji", '{"follow": "sideways"}', "只能是"),
        ("shengji", '{"follow": {"nested": [1, 2]}}', "嵌套"),
        ("baohuang", '{"x": NaN}', "NaN"),
        ("baohuang", '{"x": Infinity}', "Infinity"),
        ("baohuang", "[" * 200 + "]" * 200, "JSON 对象"),
        ("baohuang", '{"x": "' + "a" * 2_400_000 + '"}', "选项太长"),
        ("baohuang", "[" * 100_000 + "]" * 100_000, "选项太长"),
        ("baohuang", "not json", "JSON 对象"),
    ],
)
def test_room_options_refused_with_a_clear_message(client, alice, multipliers, game, raw, says):
    client.force_login(alice)
    response = _create(client, game=game, options=raw)
    assert response.status_code == 200  # the form again, with the message
    assert says in _options_error(response)
    assert Room.objects.count() == 0


def test_known_options_are_accepted_and_stored(client, alice, multipliers):
    client.force_login(alice)
    response = _create(client, game="shengji", options='{"follow": "suit"}')
    assert response.status_code == 302
    assert Room.objects.get().options == {"follow": "suit"}


def test_services_refuse_unchecked_options_too(alice, multipliers):
    """The schema holds for every caller of create_room, not only the form."""
    with pytest.raises(services.InvalidRequest, match="未知的选项"):
        services.create_room(alice, "baohuang", "x", options={"junk": "x" * 10_000})
    with pytest.raises(services.InvalidRequest, match="嵌套"):
        services.create_room(alice, "shengji", "x", options={"follow": ["suit"]})
    with pytest.raises(services.InvalidRequest, match="NaN|nan"):
        services.create_room(alice, "shengji", "x", options={"follow": float("nan")})
    assert Room.objects.count() == 0


def test_schema_is_per_game():
    assert room_options.parse("shengji", '{"follow": "format"}') == {"follow": "format"}
    with pytest.raises(room_options.OptionsError):
        room_options.parse("baohuang", '{"follow": "format"}')  # a 升級 option, not 保皇's
    assert room_options.parse("baohuang", '{"multiplier": 2}') == {}  # the room's own field


# --------------------------------------------------------------------------- 6: rooms and requests per user


def test_open_rooms_per_user_are_capped(client, alice, multipliers, settings):
    settings.GAMES_MAX_OPEN_ROOMS = 3
    client.force_login(alice)
    for i in range(3):
        assert _create(client, name=f"r{i}").status_code == 302
    response = _create(client, name="one too many")
    assert response.status_code == 200
    assert "你已经开了 3 个房间" in " ".join(response.context["form"].non_field_errors())
    assert Room.objects.filter(owner=alice).count() == 3
    # Closing one makes room for another.
    services.close_room(Room.objects.filter(owner=alice).first(), alice)
    assert _create(client, name="after closing").status_code == 302


def test_room_creation_rate_is_limited_per_user(client, alice, bob, multipliers, settings):
    settings.GAMES_MAX_OPEN_ROOMS = 100
    settings.RATE_ROOM_CREATE = "4/h"  # an hour window: a minute boundary cannot reset the count mid-test
    client.force_login(alice)
    for i in range(4):
        assert _create(client, name=f"r{i}").status_code == 302
    response = _create(client, name="fifth in a minute")
    assert response.status_code == 429
    assert "开房间太频繁" in response.content.decode()
    assert Room.objects.filter(owner=alice).count() == 4
    # Another user is not affected.
    other = Client()
    other.force_login(bob)
    assert _create(other, name="bob's").status_code == 302


def test_counts_of_another_run_on_the_same_redis_are_kept_apart(client, alice, multipliers, settings):
    """Two sites (or two test runs) on one Redis database number their users
    from 1 alike; ``CACHE_KEY_PREFIX`` keeps their rate counters apart (a CI
    run once got 429 on its first room because another run's user 1 had
    just created four)."""
    cache = caches["default"]
    if cache.__class__.__name__ != "RedisCache":
        pytest.skip("process memory is never shared between runs")
    # `make production-suite` gives each run its own prefix (CACHE_KEY_PREFIX=ci<RUN_ID>).
    assert cache.key_prefix == os.environ.get("CACHE_KEY_PREFIX", "")
    settings.GAMES_MAX_OPEN_ROOMS = 100
    settings.RATE_ROOM_CREATE = "2/h"
    client.force_login(alice)
    other_run = {**settings.CACHES["default"], "KEY_PREFIX": "other-run-" + uuid.uuid4().hex}
    try:
        with override_settings(CACHES={"default": other_run}):
            codes = [_create(client, name=f"theirs {i}").status_code for i in range(3)]
            assert codes == [302, 302, 429]
        # The same user id in this run has created nothing yet.
        assert _create(client, name="mine").status_code == 302
    finally:
        raw = cache._cache.get_client(write=True)
        for key in list(raw.scan_iter(match=other_run["KEY_PREFIX"] + ":*", count=1000))[:1000]:
            raw.delete(key)


def test_requests_per_user_are_limited(client, bot_room, alice, settings):
    """Over RATE_POSTS a POST is answered 429 with a message and the view
    never runs: the table's version does not move."""
    settings.RATE_POSTS = "3/h"  # (an hour window, as above)
    client.force_login(alice)
    url = f"/rooms/{bot_room.pk}/autoplay"
    for on in ("1", "0", "1"):
        assert client.post(url, {"on": on}).status_code in (200, 302)
    bot_room.refresh_from_db()
    version = bot_room.version
    response = client.post(url, {"on": "0"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 429
    assert "操作太频繁" in response.content.decode()
    assert response["HX-Retarget"] == "#act-msg"
    bot_room.refresh_from_db()
    assert bot_room.version == version
    assert bot_room.seats.get(index=0).autoplay is True


# --------------------------------------------------------------------------- 7: lockout behind a proxy


def _login(client, username, password, ip, forwarded=None):
    extra = {"REMOTE_ADDR": ip}
    if forwarded:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def test_attacker_behind_the_proxy_cannot_lock_the_victim_out(client, settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    get_user_model().objects.create_user("victim", password=PASSWORD)
    for attempt in range(6):
        _login(client, "victim", f"bad{attempt}", "10.0.0.5", forwarded="203.0.113.66")
    assert _login(client, "victim", PASSWORD, "10.0.0.5", forwarded="203.0.113.66").status_code == 429
    # The victim, through the same proxy from their own address, logs in.
    victim = Client()
    assert _login(victim, "victim", PASSWORD, "10.0.0.5", forwarded="198.51.100.7").status_code == 302


def test_forwarded_for_from_an_untrusted_client_is_ignored(client, settings):
    """A client cannot choose its IP: without a trusted proxy, X-Forwarded-For
    is ignored, so rotating it does not escape the lockout."""
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    get_user_model().objects.create_user("carol", password=PASSWORD)
    for attempt in range(6):
        _login(client, "carol", f"bad{attempt}", "192.0.2.9", forwarded=f"198.51.100.{attempt}")
    response = _login(client, "carol", PASSWORD, "192.0.2.9", forwarded="198.51.100.200")
    assert response.status_code == 429


def test_client_ip_trusts_only_configured_proxies(rf, settings):
    from accounts.client_ip import client_ip

    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]
    req = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4, 10.0.0.9")
    assert client_ip(req) == "1.2.3.4"  # right-most hop that is not a proxy
    req = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="spoofed, 1.2.3.4")
    assert client_ip(req) == "1.2.3.4"
    req = rf.get("/", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert client_ip(req) == "192.0.2.1"
    settings.TRUSTED_PROXIES = []
    req = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert client_ip(req) == "127.0.0.1"


# --------------------------------------------------------------------------- 7: passwords


@pytest.mark.parametrize("password", [" " * 8, " " * 12, "\t \t \t \t ", "   ab   "])
def test_blank_passwords_are_refused_at_signup(client, password):
    response = client.post(
        "/accounts/signup/", {"username": "dora", "password1": password, "password2": password}
    )
    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors.get("password2", []))
    assert "非空白字符" in errors
    assert not get_user_model().objects.filter(username="dora").exists()


def test_a_real_password_still_signs_up(client):
    response = client.post(
        "/accounts/signup/", {"username": "dora", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302


# --------------------------------------------------------------------------- 7: secret key


def _manage_check(env_extra: dict) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "DJANGO_SECRET_KEY", "DJANGO_DEBUG", "REDIS_URL",
                        "CELERY_BROKER_URL", "PYTEST_CURRENT_TEST")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", **env_extra)
    return subprocess.run([sys.executable, "manage.py", "check"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)


def test_production_refuses_to_start_without_a_secret_key():
    db = {"DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"}
    refused = _manage_check(db)
    assert refused.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in refused.stderr
    assert _manage_check({**db, "DJANGO_SECRET_KEY": "   "}).returncode != 0  # blank is unset
    assert _manage_check({**db, "DJANGO_SECRET_KEY": "k" * 60}).returncode == 0
    # Development (DEBUG on) may use the development key.
    assert _manage_check({**db, "DJANGO_DEBUG": "1"}).returncode == 0


# --------------------------------------------------------------------------- 7: websocket origin


@pytest.mark.parametrize(
    "origin, host, accepted",
    [
        ("http://testserver:8000", "testserver:8000", True),
        ("http://testserver:9999", "testserver:8000", False),  # same host, other port
        ("http://testserver", "testserver:8000", False),  # default port 80 is not 8000
        ("http://testserver", "testserver", True),
        ("https://testserver", "testserver", True),  # TLS proxy in front: neither names a port
        ("http://evil.example:8000", "evil.example:8000", False),  # host not allowed
    ],
)
async def test_websocket_origin_is_checked_with_its_port(origin, host, accepted):
    from config.asgi import application

    comm = WebsocketCommunicator(application, "/ws/rooms/1/",
                                 headers=[(b"origin", origin.encode()), (b"host", host.encode())])
    connected, _ = await comm.connect()
    assert connected is accepted
    await comm.disconnect()


def test_origin_allowed_rules(settings):
    from config.ws_origin import origin_allowed

    settings.CSRF_TRUSTED_ORIGINS = ["https://cards.example"]
    assert origin_allowed("https://cards.example", "internal:8000")  # listed exactly
    assert not origin_allowed("https://cards.example:444", "internal:8000")
    assert origin_allowed("https://testserver", "testserver", scheme="wss")
    assert not origin_allowed(None, "testserver")
    assert not origin_allowed("null", "testserver")
