"""SQL statements per action and per snapshot: counts, not times.

Each test runs one operation under ``CaptureQueriesContext`` and compares the
statements it sent (verb and table, in order) with the list it should send, so
an added query (an N+1 in a loop, a repeated read) fails here with the whole
list in the message.  ``SAVEPOINT``/``RELEASE`` lines are what the test's own
transaction turns the service's ``atomic()`` into (``BEGIN``/``COMMIT`` in
production); they are counted apart and asserted too.

Shapes pinned:

* a player's action through :func:`games.services.do_move` (保皇 and
  升級): one transaction: the version bump that returns the fresh row, the
  seats once (the user's own, the hidden-decision check, the next deadline),
  the hand (exact under the lock), the insert, the room save (13 statements
  in two transactions before the one path); on PostgreSQL the insert and the
  room save are one statement (``MOVE_WRITES``);
* a bot turn (:func:`games.runtime.tasks.play_turn`): hand (the room joined), seats read once
  before the lock (still exact when the lock is taken at that version,
  ``do_move(known=…)``), then bump, insert, room save;
* a table snapshot (:func:`games.live.snapshots.load_snapshot`): three queries (room
  and seats joined, hand, settlements) whatever the number of hands already
  played; the match's completed hands once per process and completed hand;
  one more for the result panel's notes when a completed hand is shown; and a seat's fragment
  rendered from it (:func:`games.live.snapshots.render_seat`) for a player and for a
  spectator: none;
* the next version of a hand in play stepped from the kept snapshot
  (:func:`games.live.snapshots.step_snapshot`): one statement.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.live import snapshots as live
from games.management import move_queries
from games import services
from games.engine import get_rules
from games.models import Hand, Room
from games.render.tables import table_snapshot
from tests.conftest import drive, make_due
from tests.site.shengji_fixtures import sj_bot_room, sj_humans  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

SAVEPOINTS = {"SAVEPOINT", "RELEASE"}

#: A move's two writes, the action and the room's closing UPDATE (deadline,
#: status, pending, changed): one statement on PostgreSQL (a data-modifying
#: CTE, games/services/rows.py), two on SQLite (the embedded topology).
if connection.vendor == "postgresql":
    MOVE_WRITES = ["INSERT games_handaction + UPDATE games_room"]
else:
    MOVE_WRITES = ["INSERT games_handaction", "UPDATE games_room"]


def statements(ctx) -> list[str]:
    """``"VERB table"`` per statement sent (savepoints as just the verb; BEGIN,
    COMMIT and ROLLBACK counted as statements): the bench's reader."""
    return move_queries.statements(ctx.captured_queries, bare=SAVEPOINTS)


def c5_record(room, game: str) -> tuple[int, dict]:
    """``(seat to act, its C5 move without the seat)`` in ``room`` now."""
    rules = get_rules(game)
    state = services.hand_state(services.current_hand(room))
    seat = rules.to_act(state)
    record = rules.auto_action(state, seat).to_record()
    record.pop("seat")
    return seat, record


# one player's action ------------------------------------------------------
USER_ACTION = [
    "SAVEPOINT",                    # do_move: one transaction (BEGIN in production)
    "UPDATE games_room",            #   version bump RETURNING the fresh row (the lock)
    "SELECT games_seat",            #   seats (+ users), once: the user's seat, hidden check, deadline
    "SELECT games_hand",            #   hand + exact action count under the lock
    *MOVE_WRITES,                   #   the action; deadline, status, pending, changed
    "RELEASE",                      # (COMMIT in production)
]


def _do_move(room, users, game):
    room.refresh_from_db()
    seat, record = c5_record(room, game)
    before = room.version
    with CaptureQueriesContext(connection) as ctx:
        outcome = services.do_move(room.pk, None, record, room.version, user=users[seat])
    assert outcome.applied and outcome.version == before + 1
    return statements(ctx)


def test_baohuang_player_action(five_humans):
    room, users = five_humans
    for _ in range(3):  # the first three decisions, whatever they are
        assert _do_move(room, users, "baohuang") == USER_ACTION


def test_shengji_player_action(sj_humans):  # noqa: F811
    room, users = sj_humans
    for _ in range(3):
        assert _do_move(room, users, "shengji") == USER_ACTION


# one bot turn -------------------------------------------------------------
BOT_TURN = [
    "SELECT games_hand",            # play_turn: hand + action count, the room joined (at the task's version)
    "SELECT games_seat",            # seats (+ users): who acts, next deadline
    "SAVEPOINT",                    # locked_room
    "UPDATE games_room",            #   version bump RETURNING the fresh row
    *MOVE_WRITES,                   #   the bot's move; deadline, status
    "RELEASE",
]


def _bot_turns(room, turns: int = 5):
    from games.runtime.tasks import play_turn

    for _ in range(turns):
        room.refresh_from_db()
        make_due(room)
        hand = services.current_hand(room)
        with CaptureQueriesContext(connection) as ctx:
            result = play_turn(room.pk, room.version)
        assert result == "bot"
        assert not Hand.objects.get(pk=hand.pk).complete
        assert statements(ctx) == BOT_TURN


def test_baohuang_bot_turn(bot_room, alice):
    # alice on 托管 too: every seat is automatic (no timeout, no held choice)
    services.set_autoplay(bot_room, alice, True)
    _bot_turns(bot_room)


def test_shengji_bot_turn(sj_bot_room, alice):  # noqa: F811
    services.set_autoplay(sj_bot_room, alice, True)
    _bot_turns(sj_bot_room)


def test_stale_bot_turn_is_one_read(bot_room):
    """A task whose version has moved on costs a single read and writes nothing."""
    from games.runtime.tasks import play_turn

    bot_room.refresh_from_db()
    with CaptureQueriesContext(connection) as ctx:
        assert play_turn(bot_room.pk, bot_room.version - 1) == "stale"
    assert statements(ctx) == ["SELECT games_hand"]  # the room comes joined to its hand


# one snapshot, one render per socket --------------------------------------
SNAPSHOT = [
    "SELECT games_seat",                # seats + users (live.load_snapshot: + the room, joined)
    "SELECT games_hand",                # latest hand + action count
    "SELECT baohuang_tributesettlement",   # leaving settlements (the game's own table)
]
#: The first time a process shows a match with n completed hands: those
#: hands (score sheet), cached by (match, n) (services.completed_hands).
COMPLETED = "SELECT games_hand"
#: With a result panel (the hand just completed, or the previous hand's
#: under the next one): what other apps add to it (ratings' notes, one read).
NOTES = ["SELECT ratings_ratingchange"]


def _snapshot_and_renders(room, users, spectator, expected=SNAPSHOT):
    with CaptureQueriesContext(connection) as ctx:
        snap = live.load_snapshot(room.pk)
    assert statements(ctx) == expected
    with CaptureQueriesContext(connection) as ctx:
        fragments = [live.render_seat(snap, user, snap.version, 1) for user in [*users, spectator]]
    assert statements(ctx) == []
    assert all(f'data-version="{snap.version}"' in f for f in fragments)
    return snap


def test_snapshot_and_render(five_humans, make_user):
    room, users = five_humans
    snap = _snapshot_and_renders(room, users, make_user("watcher"))
    assert snap.room.pk == room.pk and [s.index for s in snap.seats] == [0, 1, 2, 3, 4]
    # table_snapshot given a room it has not read: the seats are read on their own
    fresh = Room.objects.get(pk=room.pk)
    with CaptureQueriesContext(connection) as ctx:
        table_snapshot(fresh)
    assert statements(ctx) == SNAPSHOT


def _one_bot_move(room):
    from games.runtime.tasks import play_turn

    room.refresh_from_db()
    make_due(room)
    assert play_turn(room.pk, room.version) in ("bot", "timeout")


def test_snapshot_after_hands_played(bot_room, alice, make_user):
    """No query per completed hand or score-sheet row: hand 3's first
    snapshot reads the two completed hands once, the next version's does not
    (plus the previous hand's result notes: its panel is shown during the
    next hand)."""

    def third_hand_dealt(room):
        hand = services.current_hand(room)
        return hand is not None and hand.number == 3

    drive(bot_room, third_hand_dealt)  # alice times out and comes back (stay)
    first = SNAPSHOT[:2] + [COMPLETED] + SNAPSHOT[2:] + NOTES
    snap = _snapshot_and_renders(bot_room, [alice], make_user("watcher"), first)
    assert [r["number"] for r in snap.score_rows] == [1, 2] and snap.previous.number == 2
    _one_bot_move(bot_room)
    snap = _snapshot_and_renders(bot_room, [alice], make_user("watcher2"), SNAPSHOT + NOTES)
    assert [r["number"] for r in snap.score_rows] == [1, 2] and snap.previous.number == 2


def test_next_version_stepped_from_the_kept_snapshot(bot_room, alice, make_user):
    """The next version of a hand in play, built from the snapshot kept for the
    previous one (live.step_snapshot): one statement instead of SNAPSHOT's three
    (+ the previous hand's notes, + the new actions), and renders without any."""
    services.set_autoplay(bot_room, alice, True)
    _one_bot_move(bot_room)
    kept = live.load_snapshot(bot_room.pk)
    _one_bot_move(bot_room)
    with CaptureQueriesContext(connection) as ctx:
        snap = live.load_snapshot(bot_room.pk, kept)
    assert statements(ctx) == ["SELECT games_seat"]  # room, seats, hand and new actions joined
    assert snap.steps == 1 and snap.version == kept.version + 1
    viewers = [alice, make_user("watcher")]
    with CaptureQueriesContext(connection) as ctx:
        fragments = [live.render_seat(snap, user, snap.version, 1) for user in viewers]
    assert statements(ctx) == []
    assert all(f'data-version="{snap.version}"' in f for f in fragments)


def test_between_hands_snapshot(bot_room, alice, make_user):
    """The result panel's snapshot (hand complete, next deal pending): the
    just completed hand joins the score sheet (read once), and the panel's notes."""
    drive(bot_room, lambda room: services.current_hand(room).complete)
    first = SNAPSHOT[:2] + [COMPLETED] + SNAPSHOT[2:] + NOTES
    snap = _snapshot_and_renders(bot_room, [alice], make_user("watcher"), first)
    assert snap.hand.complete and [r["number"] for r in snap.score_rows] == [1]


# the whole POST of a player's move, and the whole bot turn ----------------
#: At most this many statements (savepoints apart) for a player's whole POST
#: (session, user, then the one transaction of do_move), the bar of the
#: one-path change (21 before it: the seat read outside the lock, a second
#: transaction for the hidden check, repeated seat/hand reads, then the
#: response re-reading and rendering the table the push renders again).
WHOLE_POST_MAX = 8  # 7 on SQLite, 6 on PostgreSQL (MOVE_WRITES)
WHOLE_POST = [
    "SELECT django_session",        # the session
    "SELECT auth_user",             # the user
    "UPDATE games_room",            # do_move: the lock (version bump RETURNING the row)
    "SELECT games_seat",            #   seats once
    "SELECT games_hand",            #   hand + action count
    *MOVE_WRITES,                   #   the action; deadline, status, pending, changed
]                                   # (the answer renders no table: the push does)


def _post_fields(record: dict) -> dict:
    """The table's POST fields for an action record (``verb``, ``cards``)."""
    (verb, value), = record.items()
    if isinstance(value, list):
        return {"verb": verb, "cards": " ".join(value)}
    if value is True:
        return {"verb": verb}
    return {"verb": f"{verb}-{value}"}


def _whole_post(room, users, game):
    from django.test import Client

    room.refresh_from_db()
    seat, record = c5_record(room, game)
    client = Client()
    client.force_login(users[seat])
    before = room.version
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(f"/rooms/{room.pk}/act", {**_post_fields(record), "version": before},
                               HTTP_HX_REQUEST="true")
    assert response.status_code == 204, response.content
    room.refresh_from_db()
    assert room.version == before + 1
    return [s for s in statements(ctx) if s not in SAVEPOINTS]


def test_baohuang_whole_post_is_at_most_8_statements(five_humans):
    room, users = five_humans
    for _ in range(3):
        shape = _whole_post(room, users, "baohuang")
        assert len(shape) <= WHOLE_POST_MAX, (len(shape), shape)
        assert shape == WHOLE_POST


def test_shengji_whole_post_is_at_most_8_statements(sj_humans):  # noqa: F811
    room, users = sj_humans
    for _ in range(3):
        shape = _whole_post(room, users, "shengji")
        assert len(shape) <= WHOLE_POST_MAX, (len(shape), shape)
        assert shape == WHOLE_POST


#: A bot's whole turn (five statements on SQLite, six before the one path: the
#: room was read apart from its hand; four on PostgreSQL, where the action and
#: the room's closing UPDATE are one statement).
BOT_TURN_MAX = 5 if connection.vendor != "postgresql" else 4


def test_bot_turn_is_at_most_5_statements_4_on_postgresql(bot_room, alice):
    from games.runtime.tasks import play_turn

    services.set_autoplay(bot_room, alice, True)
    for _ in range(3):
        bot_room.refresh_from_db()
        make_due(bot_room)
        with CaptureQueriesContext(connection) as ctx:
            assert play_turn(bot_room.pk, bot_room.version) == "bot"
        shape = [s for s in statements(ctx) if s not in SAVEPOINTS]
        assert len(shape) <= BOT_TURN_MAX, (len(shape), shape)
