"""One render per audience and version (:func:`games.live.fanout._render_all`,
:func:`games.live.snapshots.audience`).

The hub renders a room's new version once per audience and language: a
seat's sockets (a player's two tabs) share one render, spectators who differ
in nothing the fragment shows share one, each seat is an audience of its own
(保皇's guard included, B10).  Every socket still gets exactly what a render
for its own user gives.
"""

from __future__ import annotations

import re

import pytest

from games import services
from games.live import fanout, snapshots as live
from games.models import Seat
from games.render.tables import seat_of
from tests.conftest import drive

pytestmark = pytest.mark.django_db


def _timeless(html) -> str:
    return re.sub(r'data-server-now="\d+"', "", str(html))


def _own(snap, user) -> str:
    from django.utils import translation

    with translation.override("zh-hans"):
        return _timeless(live.render_seat(snap, user, snap.version, 1))


def test_each_seat_once_spectators_once(five_humans, make_user, monkeypatch):
    room, users = five_humans
    watchers = [make_user(f"w{i}") for i in range(3)]
    # the five seats, the owner's second tab, three spectators
    viewers = [("zh-hans", u) for u in [*users, users[0], *watchers]]
    snap = live.load_snapshot(room.pk)
    rendered = []
    real = live.render_seat
    monkeypatch.setattr(live, "render_seat", lambda s, user, *a: rendered.append(user) or real(s, user, *a))
    htmls, renders = fanout._render_all(snap, viewers, snap.version, 1)
    assert renders == len(rendered) == 6, "five seats and one spectator render"
    assert rendered[:5] == users and rendered[5] == watchers[0]
    for (_lang, user), html in zip(viewers, htmls):
        assert _timeless(html) == _own(snap, user)
    assert htmls[5] is htmls[0] and htmls[6] is htmls[7] is htmls[8]
    # a language is an audience of its own
    htmls, renders = fanout._render_all(snap, [("zh-hans", watchers[0]), ("en", watchers[1])], snap.version, 1)
    assert renders == 2 and htmls[0] != htmls[1]


def test_every_seat_of_a_baohuang_hand_is_its_own_audience(five_humans, make_user):
    """The guard's seat knows the guard (B10); the others may not: no two
    seats ever share a render, and every seat's fragment is its own, through
    a hand's moves."""
    room, users = five_humans
    watcher = make_user("watcher")
    for user in users:
        services.set_autoplay(room, user, True)
    for _ in range(12):
        drive(room, lambda r, v=room.version: r.version > v)
        room.refresh_from_db()
        snap = live.load_snapshot(room.pk)
        keys = [live.audience(snap, u) for u in users]
        assert len(set(keys)) == 5
        assert [k[0] for k in keys] == [seat_of(list(snap.seats), u) for u in users] == [0, 1, 2, 3, 4]
        htmls, renders = fanout._render_all(snap, [("zh-hans", u) for u in [*users, watcher]], snap.version, 1)
        assert renders == 6
        for user, html in zip([*users, watcher], htmls):
            assert _timeless(html) == _own(snap, user)


def test_a_spectator_who_may_rejoin_is_an_audience_of_their_own(bot_room, alice, make_user):
    """alice left her seat mid-hand (a bot plays it): as a spectator she is
    offered her seat back, which another spectator is not."""
    services.leave_seat(bot_room, alice)
    bot_room.refresh_from_db()
    assert not Seat.objects.filter(room=bot_room, user=alice).exists()
    other = make_user("other")
    snap = live.load_snapshot(bot_room.pk)
    assert live.audience(snap, alice) != live.audience(snap, other)
    htmls, renders = fanout._render_all(snap, [("zh-hans", alice), ("zh-hans", other)], snap.version, 1)
    assert renders == 2
    assert 'data-action="rejoin"' in htmls[0] and 'data-action="rejoin"' not in htmls[1]


def test_seat_words_are_worked_out_once_per_snapshot_and_language(five_humans, make_user, monkeypatch):
    """The seats' names and the apps' notes beside them are the same for every
    viewer: a version's renders ask the seating rules once per seat and
    language, a new version asks again."""
    from django.utils import translation

    from games import seating
    from games.render import tables

    room, users = five_humans
    asked = []
    real = seating.seat_note
    monkeypatch.setattr(seating, "seat_note", lambda seat: asked.append(seat.index) or real(seat))
    snap = live.load_snapshot(room.pk)
    viewers = [("zh-hans", u) for u in [*users, make_user("watcher")]]
    htmls, _renders = fanout._render_all(snap, viewers, snap.version, 1)
    assert sorted(asked) == [0, 1, 2, 3, 4]
    fanout._render_all(snap, [("en", users[0]), ("en", users[1])], snap.version, 1)
    assert sorted(asked) == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    with translation.override("en"):
        assert [w[0] for w in tables.seat_words(snap)] == [s.display_name() for s in snap.seats]
    services.set_autoplay(room, users[2], True)
    newer = live.load_snapshot(room.pk)
    assert newer.version > snap.version and not newer.shared
    fanout._render_all(newer, viewers[:2], newer.version, 1)
    assert len(asked) == 15
    for (_lang, user), html in zip(viewers, htmls):
        assert _timeless(html) == _own(snap, user)
