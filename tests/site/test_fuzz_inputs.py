""""beyond the cases found": no 5xx from anything a user sends, as
a property.  Hypothesis sends malformed, oversized, out-of-range, wrong-type
and non-UTF-8 values

* to **every URL pattern** of the site (enumerated from the URLconf, Django's
  admin aside; :data:`ENDPOINTS` lists the parameters each one takes, and a
  test fails when a pattern is missing from it, so a new endpoint is fuzzed
  from the day it is added), as a POST, signed in (the organiser of the club,
  owner of the room, seated at its table: the deepest permissions) and not;
  A JSON endpoint (push subscribe) gets bad bodies instead (``Endpoint.body``);
  an endpoint whose real target would refuse everything anyway (the schedule
  forms of an event already running) is pointed at another one
  (``Endpoint.ids``: an event not started yet, scheduled);
* to **every websocket** (table: chat, quick phrase, mute, unmute; lobby;
  club event; quick play: join, bots, leave; notices: none, it only pushes;
  ratings has none), signed in and not, as text and binary frames;

and checks that every answer is a 4xx, a redirect or a 200 page (a form
re-rendered with its errors), never a 5xx; that a socket is closed, if at all,
with a clean code (never 1011, a server error: the consumer's exception would
surface here) and still answers afterwards; and that **nothing changed** in
the database (every row of the site's apps, compared before and after).

Nothing valid is ever sent where it would change something: a parameter that
would make a request succeed is always drawn from its strategy of bad values
(:data:`ENDPOINTS` marks which parameter gates the endpoint), and an endpoint
whose action needs no parameter (leave, ready, close …) gets, signed in, at
least one URL argument that names nothing.

Bounded: ``FUZZ_EXAMPLES`` examples per endpoint and user (default 6; a page
without an action a third of them) and ``FUZZ_SOCKET_EXAMPLES`` per socket and
user (default 12, each up to four frames and a probe), ``deadline=None``; the number of requests and messages
sent is printed in pytest's terminal summary (``tests/site/conftest.py``).
"""

from __future__ import annotations

import json
import os
import string
from dataclasses import dataclass, field
from urllib.parse import quote_from_bytes

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.apps import apps
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from datetime import timedelta

from django.utils import timezone

from clubs import services as club_services
from clubs.live.routing import websocket_urlpatterns as club_sockets
from clubs.models import EventTable
from clubs.running import events
from clubs.schedule import scheduling
from games.services import chat
from games.models import Hand
from games.live.routing import websocket_urlpatterns as game_sockets
from notifications.models import Kind, Notification, Unsubscribe
from notifications.routing import websocket_urlpatterns as notice_sockets
from quickplay.routing import websocket_urlpatterns as queue_sockets

from .conftest import FUZZ_COUNTS

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "6"))
SOCKET_EXAMPLES = int(os.environ.get("FUZZ_SOCKET_EXAMPLES", "12"))
#: A page (no action behind it) gets a third of the examples, at least 2.
PAGE_EXAMPLES = max(2, EXAMPLES // 3)
SETTINGS = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck))
APPS = {"accounts", "auth", "clubs", "games", "moderation", "notifications", "quickplay", "ratings"}
STATIC = {"auth.Permission"}  # only migrations write it
VOLATILE = {"last_login"}  # force_login after a fuzzed logout sets it
GAMES = ("shengji", "baohuang")
SOCKETS = URLRouter(game_sockets + club_sockets + queue_sockets + notice_sockets)

# ---------------------------------------------------------------- bad values
# Every value is bytes (sent percent-encoded), so that non-UTF-8 can be sent.

_CHARS = st.characters(blacklist_categories=("Cs",))
_NOT_UTF8 = st.sampled_from([b"\xff", b"\xed\xa0\x80", b"ab\xc3", b"\xc0\xaf", b"\x80" * 3, b"\xf4\x90\x80\x80"])
_NUL = st.text(_CHARS, max_size=8).map(lambda s: (s + "\x00" + s).encode())
_WRONG_TYPE = st.sampled_from([b"[]", b"{}", b"null", b"true", b"[1, 2]", b'{"a": 1}', b"NaN", b"-Infinity"])


def _int_fails(s: str) -> bool:
    try:
        int(s)
    except ValueError:
        return True
    return False


def bad_int():
    """Not an integer the endpoint accepts: junk, floats, negative, past 64 bits."""
    return st.one_of(
        st.text(_CHARS, max_size=12).filter(_int_fails).map(str.encode),
        st.sampled_from([b"1.5", b"1e9", b"0x10", b"\xc2\xb2", b"--1", b"+-1", b" "]),
        st.integers(min_value=2**63, max_value=10**60).map(lambda n: str(n).encode()),
        st.integers(min_value=-10**30, max_value=-1).map(lambda n: str(n).encode()),
        _NOT_UTF8, _NUL, _WRONG_TYPE,
    )


def bad_text(limit: int, blank_bad: bool = True):
    """Text the endpoint must refuse: longer than ``limit`` once stripped,
    with NUL, not UTF-8, or (``blank_bad``) blank."""
    long = st.tuples(st.text(_CHARS.filter(lambda c: not c.isspace()), min_size=1, max_size=4),
                     st.integers(min_value=1, max_value=3000)).map(
        lambda t: ((t[0] * (limit + t[1]))[: limit + t[1]]).encode())
    options = [long, _NUL, _NOT_UTF8]
    if blank_bad:
        options.append(st.sampled_from([b"", b" ", b"\t\n", b"\xe3\x80\x80"]))  # U+3000 ideographic space
    return st.one_of(*options)


def bad_choice(valid):
    """Anything but one of ``valid`` (and not blank, which may mean a default)."""
    ok = {str(v) for v in valid} | {""}
    return st.one_of(
        st.text(_CHARS, max_size=30).filter(lambda s: s.strip() not in ok and s not in ok).map(str.encode),
        _NOT_UTF8, _NUL, _WRONG_TYPE, bad_text(100, blank_bad=False),
    )


def bad_json():
    """Not a correction: malformed, too deep, wrong shape, huge numbers."""
    scalars = st.one_of(st.none(), st.booleans(), st.floats(allow_nan=False), st.text(_CHARS, max_size=5),
                        st.integers(min_value=-10**40, max_value=10**40))
    doc = st.recursive(scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3),
                       max_leaves=8)
    return st.one_of(
        doc.map(lambda d: json.dumps(d).encode()),
        st.sampled_from([b"", b"[", b'{"a":', b"[" * 5000, b"[{}]" * 3, b'[{"points": 1e999}, {}]']),
        _NOT_UTF8, _NUL,
    )


def bad_datetime():
    """Not a start the schedule accepts: junk, impossible dates, years at or
    past the ends of the calendar, centuries away, NUL, not UTF-8."""
    return st.one_of(
        st.text(_CHARS, max_size=20).map(str.encode),
        st.sampled_from([b"2026-02-30T19:00", b"2026-13-01T19:00", b"2026-12-01T25:61", b"0001-01-01T00:00",
                         b"0001-01-01 00:00:00", b"9999-12-31T23:59", b"10000-01-01T00:00", b"1900-01-01T00:00",
                         b"2999-06-01T19:30", b"1970-01-01T00:00", b"-2026-01-01T00:00", b"2026-06-01T19:30+99:00"]),
        st.datetimes().filter(lambda d: abs(d.year - 2026) > 20).map(lambda d: d.isoformat()[:16].encode()),
        _NOT_UTF8, _NUL, _WRONG_TYPE,
    )


def bad_push_subscription():
    """Not a Push API subscription: bad JSON, wrong shapes, an endpoint that
    is not http(s), too long or has a NUL, keys missing, blank, too long, of
    the wrong type (sent as the JSON body)."""
    url = st.one_of(st.sampled_from(["ftp://push.example/x", "javascript:alert(1)", "", "https://\x00", None, 5]),
                    st.integers(min_value=501, max_value=5000).map(lambda n: ("https://push.example/" + "a" * n)[:n]))
    key = st.one_of(st.text(_CHARS, max_size=8), st.integers(min_value=201, max_value=3000).map(lambda n: "k" * n),
                    st.sampled_from([None, 0, [], {}, "a\x00b"]))
    good_key = st.just("BPcMbnWQL5GOYX")
    shaped = st.one_of(
        st.fixed_dictionaries({"endpoint": url, "keys": st.fixed_dictionaries({"p256dh": good_key, "auth": good_key})}),
        st.fixed_dictionaries({"endpoint": st.just("https://push.example/ok"),
                               "keys": st.one_of(st.fixed_dictionaries({"p256dh": key, "auth": key}),
                                                 st.fixed_dictionaries({"p256dh": key}), st.just([]), st.none())}),
    )
    return st.one_of(shaped.map(lambda d: json.dumps(d).encode()), bad_json())


ANY = st.one_of(bad_int(), bad_text(30), bad_json(), st.text(_CHARS, max_size=10).map(str.encode))
BAD_STR_ARG = st.one_of(
    st.text(_CHARS, min_size=1, max_size=40).filter(lambda s: s not in GAMES and "/" not in s).map(str.encode),
    st.binary(min_size=1, max_size=40).filter(lambda b: b"/" not in b),
    st.sampled_from([b"\x00", b"%00", b"x" * 5000, b"..", b"%"]),
)
BAD_INT_ARG = st.one_of(st.integers(min_value=10**6, max_value=10**7), st.integers(min_value=2**63, max_value=10**40),
                        st.just(0))


@dataclass
class Endpoint:
    """A URL pattern's POST parameters (name → strategy of bad values).
    ``gate``: the parameter whose bad value makes every request refused
    (None: the action needs no parameter, so a signed-in request always
    names something that does not exist in its URL); ``changes``: whether a
    valid POST changes anything at all."""

    params: dict = field(default_factory=dict)
    gate: str | None = None
    changes: bool = True
    #: A JSON endpoint: the strategy of its (bad) request bodies, sent as
    #: ``application/json`` instead of ``params``.
    body: object = None
    #: URL argument → the key of ``world["ids"]`` it takes (default: its own name).
    ids: dict = field(default_factory=dict)


PAGE = Endpoint(changes=False)
EVENT_FORM = {
    "name": bad_text(80), "game": bad_choice(GAMES), "format": bad_choice(["swiss", "round_robin", "duplicate"]),
    "movement": ANY, "rounds": bad_int(), "hands_per_round": bad_int(), "minutes_per_round": bad_int(),
    "turn_seconds": bad_int(), "bot_delay_ms": bad_int(), "multiplier": bad_int(), "no_show": ANY,
    "grace_minutes": bad_int(),
}
ENDPOINTS: dict[str, Endpoint] = {
    "healthz": PAGE,
    # signed in, a valid language is stored (accounts.preferences): gated on it
    "set_language": Endpoint({"language": bad_choice(["zh-hans", "zh-hant", "en"]), "next": ANY}, gate="language"),
    "login": Endpoint({"username": bad_text(150), "password": ANY}, gate="username"),
    "signup": Endpoint({"username": bad_text(150), "password1": ANY, "password2": ANY}, gate="username"),
    "profile": PAGE, "profile_user": PAGE,
    "logout": Endpoint(changes=False),  # only the session, which is not compared
    "password_change": Endpoint({"old_password": bad_text(128), "new_password1": ANY, "new_password2": ANY},
                                gate="old_password"),
    "password_change_done": PAGE, "password_reset_done": PAGE, "password_reset_complete": PAGE,
    "password_reset": Endpoint({"email": ANY}, changes=False),
    "password_reset_confirm": Endpoint({"new_password1": ANY, "new_password2": ANY}, changes=False),
    "club_list": PAGE, "club": PAGE, "club_join_code": Endpoint({"code": ANY}, changes=False),
    "club_create": Endpoint({"name": bad_text(60), "description": ANY}, gate="name"),
    "club_join": Endpoint(),
    "club_edit": Endpoint({"name": bad_text(60), "description": ANY}, gate="name"),
    "club_new_code": Endpoint(), "club_leave": Endpoint(),
    "club_member_remove": Endpoint(), "club_member_organiser": Endpoint({"organiser": ANY}),
    "event_create": Endpoint(EVENT_FORM, gate="name"),
    "event": PAGE, "event_print": PAGE, "event_csv": PAGE,
    "event_register": Endpoint({"partner": ANY}), "event_bots": Endpoint({"count": ANY}),
    "event_pair": Endpoint({"again": ANY}),
    # arenas: the world's event is no arena, so every arena URL of it is a 404
    "arena": PAGE, "arena_join": Endpoint(), "arena_leave": Endpoint(), "arena_open": Endpoint(),
    "arena_berserk": Endpoint({"on": ANY}), "arena_bots": Endpoint({"count": ANY}),
    "arena_create": Endpoint({"name": bad_text(80), "game": bad_choice(GAMES), "minutes": bad_int(),
                              "hands_per_table": bad_int(), "berserk": ANY, "bot_fill_seconds": bad_int(),
                              "team_battle": ANY, "teams": ANY, "team_size": bad_int(), "turn_seconds": bad_int(),
                              "bot_delay_ms": bad_int(), "start": ANY}, gate="name"),
    "round_swap": Endpoint({"a": bad_int(), "b": bad_int()}, gate="a"),
    "round_start": Endpoint(), "round_pause": Endpoint({"paused": ANY}), "round_end": Endpoint(),
    "entry_confirm": Endpoint(), "entry_withdraw": Endpoint(),
    "event_register_for": Endpoint({"member": bad_text(150), "partner": ANY}, gate="member"),
    "event_edit": Endpoint(EVENT_FORM, gate="name"), "event_cancel": Endpoint({"confirm": ANY}),
    "entry_substitute": Endpoint({"index": ANY, "username": bad_text(150)}, gate="username"),
    "table_correct": Endpoint({"result": bad_json(), "reason": bad_text(2000)}, gate="reason"),
    "leaderboards": PAGE, "leaderboard": PAGE,
    "quickplay_leave": Endpoint(changes=False),  # the fuzzing user is never queued
    "quickplay_status": PAGE, "quickplay_pair": Endpoint(), "quickplay": PAGE,
    "quickplay_join": Endpoint({"bots": bad_choice(["10", "30", "never"]), "pair": ANY}, gate="bots"),
    "lobby": PAGE, "game_lobby": PAGE, "help": PAGE, "help_game": PAGE,
    "room_create": Endpoint({"game": bad_choice(GAMES), "name": ANY, "multiplier": ANY, "turn_seconds": ANY,
                             "bot_delay_ms": ANY, "options": ANY, "private": ANY}, gate="game"),
    "room_invite": Endpoint({"index": bad_int()}, gate="index"),  # the token never a real one
    "room": PAGE, "room_table": PAGE, "hand_record": PAGE, "hand_replay": PAGE,
    "hand_review": Endpoint(), "hand_again": Endpoint({"seat": bad_int()}, gate="seat"),
    "room_act": Endpoint({"verb": ANY, "cards": ANY, "version": bad_int(), "seat": ANY}, gate="version"),
    "room_seat": Endpoint({"index": bad_int()}, gate="index"),
    "room_leave": Endpoint(), "room_ready": Endpoint({"ready": ANY}), "room_fill_bots": Endpoint({"policy": ANY}),
    "room_autoplay": Endpoint({"on": ANY}), "room_close": Endpoint(), "room_invite_renew": Endpoint(),
    # notifications; alice's one notice is read already, she is subscribed to every kind
    "notices": PAGE, "notices_sw": PAGE,
    "notices_read": Endpoint(),  # marks every notice read: a no-op in the world (see above)
    "notices_email": Endpoint({"kind": bad_choice(Kind.values)}, gate="kind"),
    "notice_unsubscribe": Endpoint({"List-Unsubscribe": ANY}),  # the token never a real one
    "notices_push_subscribe": Endpoint(body=bad_push_subscription()),  # push is on in the world
    # scheduled events, calendars, score cards, print pages: the schedule's
    # forms go to an event that has not started (alice's running one refuses any schedule)
    "event_schedule": Endpoint({"starts_at": bad_datetime(), "registration_closes": bad_datetime(),
                                "auto_rounds": ANY, "gap_minutes": ANY,
                                "no_checkin": bad_choice(["withdraw", "bot"])},
                               gate="starts_at", ids={"event_id": "draft_event_id"}),
    "event_session": Endpoint({"first_round": ANY, "starts_at": bad_datetime()}, gate="starts_at",
                              ids={"event_id": "draft_event_id"}),
    "entry_checkin": Endpoint(),
    "club_calendar": PAGE, "member_calendar": PAGE, "standings_print": PAGE, "round_slips": PAGE, "scorecard": PAGE,
    # moderation: a report, the block list, a room's seat requirement, the appeal; the
    # moderators' pages (alice is no moderator: every one of them refuses her)
    "moderation_report": Endpoint({"reason": bad_choice(["abandon", "abuse", "cheat", "name", "other"]),
                                   "user": bad_int(), "note": bad_text(500, blank_bad=False), "room": bad_int(),
                                   "hand": bad_int(), "line": bad_int(), "source": ANY}, gate="reason"),
    "moderation_blocks": Endpoint({"username": bad_text(150), "user": bad_int(), "remove": bad_int()},
                                  gate="username"),
    "moderation_room_minimum": Endpoint({"min_reputation": bad_int()}, gate="min_reputation"),
    "moderation_mine": Endpoint({"action": bad_int(), "appeal": bad_text(1000)}, gate="appeal"),
    "moderation_queue": PAGE, "moderation_report_detail": PAGE, "moderation_player": PAGE,
    "moderation_report_act": Endpoint({"kind": ANY, "reason": ANY, "days": ANY}),
    "moderation_action_lift": Endpoint(),
}


def url_patterns(resolver=None, prefix=""):
    """``(route, name, converters)`` of every URL pattern but the admin's."""
    for p in (resolver or get_resolver()).url_patterns:
        if isinstance(p, URLResolver):
            if str(p.pattern).startswith("admin/"):
                continue  # Django's admin: staff only, Django's own forms
            yield from url_patterns(p, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p.name, dict(p.pattern.converters)


def fingerprint() -> dict:
    """Every row of the site's apps (sessions and login attempts aside)."""
    out = {}
    for model in apps.get_models():
        if model._meta.app_label in APPS and model._meta.label not in STATIC:
            names = [f.attname for f in model._meta.concrete_fields if f.attname not in VOLATILE]
            out[model._meta.label] = list(model.objects.order_by("pk").values_list(*names))
    return out


def assert_unchanged(before: dict, what: str) -> None:
    after = fingerprint()
    changed = [label for label in before if before[label] != after[label]]
    assert not changed, f"{what} changed {changed}"


def encode(params: dict) -> bytes:
    """A urlencoded body; a list value repeats its key (a wrong type for one value)."""
    pairs = []
    for key, value in params.items():
        for v in value if isinstance(value, list) else [value]:
            pairs.append(quote_from_bytes(key.encode()) + "=" + quote_from_bytes(v))
    return "&".join(pairs).encode()


# ---------------------------------------------------------------- the world


@pytest.fixture
def world(make_user, multipliers, settings):
    """alice: organiser of a club with a member and a shengji event whose
    round 1 is running, owner of a 保皇 room where she sits with four bots."""
    settings.RATE_POSTS = settings.RATE_ROOM_CREATE = "1000000/m"
    from games import services

    alice, bob = make_user("alice"), make_user("bob")
    room = services.create_room(alice, "baohuang", "测试房", multiplier=2, turn_seconds=30, bot_delay_ms=0)
    services.fill_bots(room, alice, "heuristic")
    services.set_ready(room, alice, True)
    club = club_services.create_club(alice, "东城牌社", "周五晚上")
    club_services.join_club(bob, club.join_code)
    event = events.create_event(alice, club, name="周赛", game="shengji", rounds=2)
    events.add_bot_entries(alice, event, 2)
    round_ = events.start_round(alice, events.pair_round(alice, event))
    table = EventTable.objects.get(round=round_)
    # an event not started yet, with a schedule (its forms would change it);
    # push on; alice's notice read and every kind's e-mail on
    settings.WEBPUSH_VAPID_PRIVATE_KEY = settings.WEBPUSH_VAPID_PUBLIC_KEY = "fuzz"
    draft = events.create_event(alice, club, name="下周赛", game="shengji", rounds=3)
    scheduling.schedule_event(alice, draft, starts_at=timezone.now() + timedelta(days=7), announce_now=False)
    Notification.objects.create(user=alice, kind=Kind.RESULTS, key="fuzz", subject="周赛", read=timezone.now())
    assert not Unsubscribe.objects.filter(user=alice).exists()
    ids = {"room_id": room.pk, "club_id": club.pk, "user_id": bob.pk, "event_id": event.pk, "number": 1,
           "entry_id": table.entries[0], "table_id": table.pk, "hand_id": Hand.objects.filter(match__room=room).first().pk,
           "draft_event_id": draft.pk}
    return {"alice": alice, "room": room, "ids": ids, "usernames": {"username": b"bob", "what": b"standings"}}


def _url(route: str, kwargs: dict) -> str:
    for name, value in kwargs.items():
        text = value if isinstance(value, str) else quote_from_bytes(value, safe="")
        route = route.replace(f"<int:{name}>", text).replace(f"<str:{name}>", text).replace(f"<{name}>", text)
    return "/" + route


# ---------------------------------------------------------------- HTTP


def test_every_url_pattern_is_listed_with_its_parameters():
    """A new endpoint must say which parameters it takes (and is then fuzzed)."""
    names = {name for _route, name, _conv in url_patterns()}
    assert names - set(ENDPOINTS) == set(), "add these endpoints to ENDPOINTS"
    assert set(ENDPOINTS) - names == set(), "these endpoints no longer exist"


@pytest.mark.django_db
def test_no_post_gets_a_5xx_or_changes_anything(world, request):
    signed_in, anonymous = Client(raise_request_exception=False), Client(raise_request_exception=False)
    signed_in.force_login(world["alice"])
    before = fingerprint()
    counts = request.config.stash.setdefault(FUZZ_COUNTS, {})
    counts.setdefault("HTTP requests", 0)

    patterns = {(route, name): conv for route, name, conv in url_patterns()}  # accounts/login/ is listed twice
    for (route, name), converters in sorted(patterns.items()):
        spec = ENDPOINTS[name]

        def kwargs_strategy(force_bad: bool):
            parts = {}
            for arg, conv in converters.items():
                good = world["ids"].get(spec.ids.get(arg, arg)) if conv.regex == "[0-9]+" else None
                if arg == "game":
                    good_values = st.sampled_from([g.encode() for g in GAMES])
                elif good is not None:
                    good_values = st.just(str(good).encode())
                elif arg in world["usernames"]:
                    good_values = st.just(world["usernames"][arg])
                else:
                    good_values = None  # codes, tokens: never a real one
                bad = BAD_INT_ARG.map(lambda n: str(n).encode()) if conv.regex == "[0-9]+" else BAD_STR_ARG
                parts[arg] = bad if good_values is None else st.one_of(good_values, bad)
            drawn = st.fixed_dictionaries(parts)
            if force_bad and converters:
                good_tuple = {a: str(world["ids"][spec.ids.get(a, a)]).encode() for a in converters
                              if spec.ids.get(a, a) in world["ids"]}
                drawn = drawn.filter(lambda kw: any(kw[a] != g for a, g in good_tuple.items()) or not good_tuple)
            return drawn

        def params_strategy():
            if spec.body is not None:
                return spec.body
            return st.fixed_dictionaries({
                k: st.one_of(v, st.lists(v, min_size=2, max_size=3)) if k != spec.gate else v
                for k, v in spec.params.items()
            }, optional={"unknown": ANY})

        for who, client in (("signed in", signed_in), ("anonymous", anonymous)):
            force_bad = who == "signed in" and spec.changes and spec.gate is None
            _fuzz_post(client, who, route, name, kwargs_strategy(force_bad), params_strategy(), before, counts, world,
                       examples=EXAMPLES if spec.changes else PAGE_EXAMPLES, check_each=spec.changes)()
            if not spec.changes:  # checked once per page and client: it has no action to run
                assert_unchanged(before, f"POST {name} ({who})")


def _fuzz_post(client, who, route, name, kwargs, params, before, counts, world, examples, check_each):
    """The hypothesis test of one endpoint for one client (``check_each``:
    compare the database after every request, else the caller does once)."""

    @settings(max_examples=examples, **SETTINGS)
    @given(kw=kwargs, params=params)
    def post(kw, params):
        url = _url(route, kw)
        if isinstance(params, bytes):  # a JSON endpoint's body
            response = client.post(url, data=params, content_type="application/json")
        else:
            response = client.post(url, data=encode(params), content_type="application/x-www-form-urlencoded")
        counts["HTTP requests"] += 1
        assert response.status_code < 500, (name, who, url, params, response.status_code)
        assert response.status_code in (200, 301, 302, 303) or 400 <= response.status_code < 500
        if check_each:
            assert_unchanged(before, f"POST {name} ({who}) {url} {params!r}"[:3000])
        if name == "logout" and who == "signed in":
            client.force_login(world["alice"])

    return post


# ---------------------------------------------------------------- websockets

_SOCKET_TEXT = st.one_of(
    st.text(_CHARS, min_size=1, max_size=50),
    st.sampled_from(["{", "[" * 3000, "{}" * 5000, '{"chat": ' + "[" * 1500 + "]" * 1500 + "}", "null", "1e999"]),
)
_BAD_ID = st.one_of(st.integers(min_value=10**6, max_value=10**30), st.integers(max_value=0),
                    st.integers(min_value=10**6, max_value=10**30).map(str), st.sampled_from(["²", "١٢", "1.5", "-1", ""]),
                    st.floats(), st.booleans(), st.none(), st.lists(st.integers(), max_size=2))
_BAD_CHAT = st.one_of(
    st.text(_CHARS, min_size=1, max_size=4).map(lambda s: s.strip() * 500).filter(lambda s: len(s.strip()) > chat.MAX_LENGTH),
    st.text(_CHARS, max_size=10).map(lambda s: s + "\x00"),
    st.text(_CHARS, max_size=10).map(lambda s: s + "\ud800" + s),
    st.sampled_from(["", "   ", "\u3000"]),
    st.integers(), st.floats(), st.lists(st.text(max_size=3), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
_BAD_QUICK = st.text(_CHARS, min_size=1, max_size=30).filter(lambda s: s not in chat.QUICK_PHRASES)
TABLE_MESSAGES = st.one_of(
    st.fixed_dictionaries({"chat": _BAD_CHAT}), st.fixed_dictionaries({"quick": _BAD_QUICK}),
    st.fixed_dictionaries({"mute": _BAD_ID}), st.fixed_dictionaries({"unmute": _BAD_ID}),
    st.fixed_dictionaries({"chat": _BAD_CHAT, "quick": st.sampled_from(["", None, 0])}),
).map(json.dumps) | _SOCKET_TEXT
QUEUE_MESSAGES = st.one_of(
    st.fixed_dictionaries({"join": st.one_of(st.sampled_from(GAMES), _BAD_QUICK, _BAD_ID), "bots": st.one_of(
        _BAD_ID.filter(lambda v: v not in (None, "")),  # absent or blank: the default wait, a valid join
        _BAD_QUICK.filter(lambda s: s not in ("10", "30", "never")))}),
    st.fixed_dictionaries({"join": st.one_of(_BAD_QUICK.filter(lambda s: s not in GAMES), _BAD_ID, _BAD_CHAT)}),
    st.fixed_dictionaries({"leave": st.one_of(st.booleans(), _BAD_ID)}),
).map(json.dumps) | _SOCKET_TEXT


#: ``ws/notices/`` accepts no message type (it only pushes the unread count): anything.
NOTICE_MESSAGES = st.one_of(
    st.fixed_dictionaries({"read": _BAD_ID}), st.fixed_dictionaries({"type": st.sampled_from(["notices.changed", "read"])}),
).map(json.dumps) | TABLE_MESSAGES


async def _session(path: str, user, frames: list, probe=None) -> str:
    """Connect as ``user``, send ``frames`` (str: text, bytes: binary), then
    ``probe`` (a message that must be answered); returns how it ended."""
    comm = WebsocketCommunicator(SOCKETS, path)
    comm.scope["user"] = user
    comm.scope["cookies"] = {}
    connected, code = await comm.connect(timeout=10)
    if not connected:  # the handshake refused (ws/notices/ for a visitor): cleanly, never 1011
        assert code in (4401, 4403, 4404), code
        return "refused"
    first = await comm.receive_output(timeout=10)
    if first["type"] == "websocket.close":
        assert first.get("code") in (4401, 4403, 4404), first  # refused cleanly, never 1011
        await comm.disconnect()
        return "closed"
    for frame in frames:
        await comm.send_to(**({"bytes_data": frame} if isinstance(frame, bytes) else {"text_data": frame}))
    if probe is not None:
        await comm.send_to(text_data=probe[0])
        for _i in range(20):
            out = await comm.receive_output(timeout=10)  # a crashed consumer raises here
            assert out["type"] == "websocket.send", out
            if probe[1] in (out.get("text") or ""):
                break
        else:
            raise AssertionError(f"no answer to the probe on {path}")
    else:
        await comm.receive_nothing(timeout=0.05)
    await comm.disconnect()  # re-raises the consumer's exception, had there been one
    return "open"


@pytest.mark.django_db(transaction=True)
def test_no_socket_message_closes_with_1011_or_changes_anything(world, request):
    room, alice = world["room"], world["alice"]
    counts = request.config.stash.setdefault(FUZZ_COUNTS, {})
    counts.setdefault("websocket messages", 0)
    before = fingerprint()
    blank_chat = (json.dumps({"chat": "  "}), "chat-error")  # refused without touching the database
    sockets = [
        (f"/ws/rooms/{room.pk}/", TABLE_MESSAGES, blank_chat),
        ("/ws/lobby/baohuang/", _SOCKET_TEXT, None),
        (f"/ws/events/{world['ids']['event_id']}/", _SOCKET_TEXT, None),
        ("/ws/quickplay/", QUEUE_MESSAGES, ("ping", "queue-status")),
        (f"/ws/rooms/{10**9}/", TABLE_MESSAGES, None),
        ("/ws/lobby/nosuchgame/", _SOCKET_TEXT, None),
        ("/ws/notices/", NOTICE_MESSAGES, None),  # receives nothing: every frame is ignored
    ]
    for path, messages, probe in sockets:
        for user in (alice, AnonymousUser()):
            _fuzz_socket(path, user, messages, probe, before, counts)()


def _fuzz_socket(path, user, messages, probe, before, counts):
    """The hypothesis test of one socket for one user."""

    @settings(max_examples=SOCKET_EXAMPLES, **SETTINGS)
    @given(frames=st.lists(messages | st.binary(min_size=1, max_size=64), min_size=1, max_size=4))
    def session(frames):
        async_to_sync(_session)(path, user, frames, probe)
        counts["websocket messages"] += len(frames) + (probe is not None)
        assert_unchanged(before, f"{path} ({user}) {frames!r}"[:2000])

    return session
