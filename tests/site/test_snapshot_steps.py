"""A live snapshot stepped from the kept one equals a full read, at every version.

:func:`games.live.snapshots.load_snapshot` given the snapshot kept for an older
version builds the new one from it and the actions appended since, in one
statement (:func:`games.live.snapshots.step_snapshot`), and reads the room in
full when that would not be exact.  Here a whole seeded hand of each game is
played by the server's turns (alice times out once, which puts her seat on
托管 in the same transaction as her move), and after every version the stepped
snapshot is compared with a full read whose engine state is rebuilt from the
deal: the engine state, the room's row, the seats, the score sheet, and every
seat's and a spectator's rendered fragment.  The step is taken exactly when
the version was one move on the same hand with nothing else changed.
"""

from __future__ import annotations

import itertools
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.live import snapshots as live
from games.models import Room, Seat
from games.runtime.tasks import play_turn
from tests.conftest import make_due
from tests.site.shengji_fixtures import sj_bot_room  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

ROOM_FIELDS = [f.attname for f in Room._meta.concrete_fields]


@pytest.fixture
def seeded(monkeypatch):
    """Deals from fixed seeds (the same hands every run)."""
    seeds = itertools.count(20261127)
    monkeypatch.setattr("games.services.hands.new_seed", lambda: next(seeds))


def _full(room_id):
    """A full read with the engine state rebuilt from the deal."""
    services.clear_cache()
    snap = live.load_snapshot(room_id)
    assert snap.steps == 0
    return snap


def _columns(snap):
    return [(s.pk, s.index, s.user_id, s.bot_policy, s.ready, s.autoplay) for s in snap.seats]


def _fragments(snap, viewers):
    """Each viewer's fragment, without the render's own clock (``data-server-now``)."""
    return [re.sub(r'data-server-now="\d+"', "", str(live.render_seat(snap, user, snap.version, 1)))
            for user in viewers]


def assert_same(stepped, full, viewers):
    assert stepped.version == full.version
    assert stepped.action_count == full.action_count == full.hand.n_actions == stepped.hand.n_actions
    assert stepped.state == full.state
    assert [getattr(stepped.room, f) for f in ROOM_FIELDS] == [getattr(full.room, f) for f in ROOM_FIELDS]
    assert _columns(stepped) == _columns(full)
    assert all(s.room is stepped.room for s in stepped.seats)
    assert stepped.hand.pk == full.hand.pk and stepped.hand.complete == full.hand.complete
    assert (stepped.score_rows, stepped.totals, stepped.settlement) == (full.score_rows, full.totals, full.settlement)
    assert (stepped.previous and stepped.previous.pk) == (full.previous and full.previous.pk)
    assert (stepped.result_notes, stepped.hidden_hands, stepped.hand_players) == (
        full.result_notes, full.hidden_hands, full.hand_players)
    assert _fragments(stepped, viewers) == _fragments(full, viewers)


def _expected_step(kept, full) -> bool:
    """Whether ``full`` is one or more moves on ``kept``'s hand and nothing else."""
    delta = full.version - kept.version
    return (
        live.steppable(kept) and full.hand.pk == kept.hand.pk and not full.hand.complete
        and delta >= 1 and full.action_count - kept.action_count == delta
        and _columns(full) == _columns(kept)
    )


def _check(room, kept, viewers) -> bool:
    """Step ``kept`` to the room's version and compare with a full read;
    True when it stepped (exactly when :func:`_expected_step` says so)."""
    services.clear_cache()  # the step applies the new actions itself
    with CaptureQueriesContext(connection) as ctx:
        stepped = live.load_snapshot(room.pk, kept)
    full = _full(room.pk)
    expected = _expected_step(kept, full)
    assert (stepped.steps > 0) == expected, (kept.version, full.version, kept.action_count, full.action_count)
    if expected:
        assert stepped.steps == kept.steps + 1
        assert len(ctx.captured_queries) == 1, [q["sql"] for q in ctx.captured_queries]
    assert_same(stepped, full, viewers)
    return stepped


def _play_hand(room, alice, viewers):
    """Play server turns from the deal to the next deal, checking a stepped
    snapshot against a full read after every version.  Returns (steps, full reads)."""
    services.clear_cache()
    kept = live.load_snapshot(room.pk)
    first = kept.hand.pk
    stepped_n = fallback_n = 0
    for _ in range(600):
        room.refresh_from_db()
        if services.current_hand(room).complete:
            break
        make_due(room)
        play_turn(room.pk, room.version)
        kept = _check(room, kept, viewers)
        stepped_n += kept.steps > 0
        fallback_n += kept.steps == 0
    else:
        raise AssertionError("the hand did not end")
    # alice back from 托管 (a seat change), then the next deal: both read in full
    services.set_autoplay(room, alice, False)
    kept = _check(room, kept, viewers)
    room.refresh_from_db()
    make_due(room)
    assert play_turn(room.pk, room.version) == "dealt"
    kept = _check(room, kept, viewers)
    assert kept.steps == 0 and kept.hand.pk != first and kept.hand.number == 2
    return stepped_n, fallback_n


def test_baohuang_hand_stepped_equals_full(seeded, bot_room, alice, make_user):
    room = bot_room
    stepped, fallbacks = _play_hand(room, alice, [alice, make_user("watcher"), None])
    # a hand of 保皇 is dozens of moves; full reads only at alice's timeout, the
    # result, the next deal, and every FULL_READ_EVERY versions
    assert stepped > 30 and fallbacks <= 4 + stepped // live.FULL_READ_EVERY, (stepped, fallbacks)


def test_shengji_hand_stepped_equals_full(seeded, sj_bot_room, alice, make_user):
    room = sj_bot_room
    stepped, fallbacks = _play_hand(room, alice, [alice, make_user("watcher"), None])
    assert stepped > 50 and fallbacks <= 4 + stepped // live.FULL_READ_EVERY, (stepped, fallbacks)


def _move(room):
    room.refresh_from_db()
    make_due(room)
    assert play_turn(room.pk, room.version) in ("bot", "timeout", "autoplay")


def test_two_moves_step_at_once_and_a_bump_without_action_reads_in_full(seeded, bot_room, alice, make_user):
    viewers = [alice, make_user("watcher")]
    services.set_autoplay(bot_room, alice, True)
    _move(bot_room)
    kept = _full(bot_room.pk)  # rebuilt (the dealer's own cached state also keeps the deal's seed)
    _move(bot_room)
    _move(bot_room)
    services.clear_cache()
    stepped = live.load_snapshot(bot_room.pk, kept)
    full = _full(bot_room.pk)
    assert stepped.steps == 1 and full.version == kept.version + 2 and full.action_count == kept.action_count + 2
    assert_same(stepped, full, viewers)

    # 托管 switched off and on again: two versions, no action, then a move
    kept = stepped
    services.set_autoplay(bot_room, alice, False)
    services.set_autoplay(bot_room, alice, True)
    _move(bot_room)
    before = live.stats["fallbacks"]
    stepped = live.load_snapshot(bot_room.pk, kept)
    assert stepped.steps == 0 and live.stats["fallbacks"] == before + 1
    assert_same(stepped, _full(bot_room.pk), viewers)


def test_a_seat_change_in_the_same_version_as_a_move_reads_in_full(seeded, bot_room, alice):
    services.set_autoplay(bot_room, alice, True)
    _move(bot_room)
    kept = live.load_snapshot(bot_room.pk)
    _move(bot_room)
    # as if the move's transaction had also changed a seat (a bot's level)
    Seat.objects.filter(room=bot_room, index=1).update(bot_policy="random")
    stepped = live.load_snapshot(bot_room.pk, kept)
    assert stepped.steps == 0
    assert [s.bot_policy for s in stepped.seats][1] == "random"


def test_a_kept_snapshot_at_the_current_version_is_read_in_full(bot_room):
    """No new action (a version bump that appended none, or none at all): full read."""
    kept = live.load_snapshot(bot_room.pk)
    again = live.load_snapshot(bot_room.pk, kept)
    assert again.steps == 0 and again.version == kept.version


def test_every_full_read_every_versions(seeded, bot_room, alice, settings, monkeypatch):
    monkeypatch.setattr(live, "FULL_READ_EVERY", 3)
    services.set_autoplay(bot_room, alice, True)
    _move(bot_room)
    snap = live.load_snapshot(bot_room.pk)
    seen = []
    for _ in range(5):
        _move(bot_room)
        snap = live.load_snapshot(bot_room.pk, snap)
        seen.append(snap.steps)
    assert seen == [1, 2, 0, 1, 2]
