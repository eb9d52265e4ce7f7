"""Spectators of event tables are decided once per room version, for all of
them together (the watching rule on the live sockets' hot path).

A table socket an app's watch rule guards (a club's event table) used to ask
``watch_verdict`` (about five queries) before every push, socket by socket.
Now the process's hub decides, from the snapshot it is about to send, for all
the room's guarded sockets in one read-pool job
(:func:`games.live.snapshots.watch_verdicts`, :func:`games.embargo.watch_reasons`,
:meth:`clubs.guards.EventGuard.room_watches`): at most two queries, the same
for one spectator or five.  The rule is unchanged: an entrant whose own table
has completed the boards the watched table has dealt may watch; once the
watched table deals a board he has not played, his socket closes with 4403
and never receives the fragment of that version, while the other spectators
go on receiving it.

Without the batch the verdict of five spectators cost five times the queries
of one; without deciding from the snapshot a refused spectator could be sent
the version that refuses him."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs import services
from games.live import fanout, snapshots as live
from games.live.routing import websocket_urlpatterns
from games.models import Hand
from tests.clubs.rounds import two_table_round
from tests.conftest import drive

APP = URLRouter(websocket_urlpatterns)


def complete(room) -> int:
    return Hand.objects.filter(match__room=room, complete=True).count()


def dealt(room) -> int:
    return Hand.objects.filter(match__room=room).count()


def setup_round(club_setup, make_user):
    """A running duplicate round (升級, two boards): mike+pam's table, whose
    humans are ready (board 1 dealt there), and a bots' table (board 1 dealt,
    not driven); five members who did not enter."""
    club = club_setup[0]
    _, _, mine, other, (_, pam) = two_table_round(club_setup, make_user, name="观众", ready=True)
    members = []
    for i in range(5):
        member = make_user(f"fan{i}")
        services.join_club(member, club.join_code)
        members.append(member)
    return mine, other, pam, members


@pytest.mark.django_db
def test_the_verdict_of_a_version_costs_the_same_for_one_or_five_spectators(club_setup, multipliers,
                                                                          make_user):
    club, olga, mike, *_ = club_setup
    mine, other, pam, members = setup_round(club_setup, make_user)
    assert dealt(other.room) == 1 and complete(mine.room) == 0
    snap = live.load_snapshot(other.room_id)
    costs = {}
    for watchers, expected in (
        ([mike], [False]),
        ([mike, pam, members[0], AnonymousUser(), members[1]], [False, False, True, True, True]),
        ([*members, mike, pam, AnonymousUser()], [True] * 5 + [False, False, True]),
    ):
        with CaptureQueriesContext(connection) as ctx:
            assert live.decide_watchers(snap, watchers) == expected
        costs[len(watchers)] = len(ctx.captured_queries)
    assert costs[1] == costs[5] == costs[8] <= 2, costs
    # the connect-time check of one socket gives the same verdicts
    from games.live.consumers import watch_verdict

    assert watch_verdict(other.room_id, mike)[0] is False
    assert watch_verdict(other.room_id, members[0]) == (True, True)
    # visitors only: one query; staff and the room's seated users: none
    with CaptureQueriesContext(connection) as ctx:
        assert live.decide_watchers(snap, [AnonymousUser(), None]) == [True, True]
    assert len(ctx.captured_queries) == 1
    staff = make_user("root")
    staff.is_staff = True
    seated = live.load_snapshot(mine.room_id)
    with CaptureQueriesContext(connection) as ctx:
        assert live.decide_watchers(seated, [mike, pam, staff]) == [True] * 3
    assert ctx.captured_queries == []


@pytest.mark.django_db
def test_the_verdict_is_that_of_the_snapshots_version(club_setup, multipliers, make_user):
    """Mike (board 1 done at his table) may be sent the other table's
    version that shows board 1, even once the table has dealt board 2 in the
    database meanwhile; not the version that shows board 2."""
    club, olga, mike, *_ = club_setup
    mine, other, pam, members = setup_round(club_setup, make_user)
    drive(mine.room, lambda rm: complete(rm) >= 1)
    board1 = live.load_snapshot(other.room_id)
    assert live.decide_watchers(board1, [mike, members[0]]) == [True, True]
    drive(other.room, lambda rm: dealt(rm) >= 2)
    board2 = live.load_snapshot(other.room_id)
    assert live.decide_watchers(board1, [mike, members[0]]) == [True, True]
    assert live.decide_watchers(board2, [mike, members[0]]) == [False, True]


def fragments_and_close(outputs) -> tuple[list[str], int | None]:
    html = [o["text"] for o in outputs if o["type"] == "websocket.send"]
    code = next((o.get("code") for o in outputs if o["type"] == "websocket.close"), None)
    return html, code


async def drain(comm, timeout: float = 10) -> list[dict]:
    """What ``comm`` received so far (up to its close)."""
    out = []
    while True:
        if await comm.receive_nothing(timeout=0.2):
            return out
        message = await comm.receive_output(timeout=timeout)
        out.append(message)
        if message["type"] == "websocket.close":
            return out


def hands_shown(html: list[str]) -> set[int]:
    return {int(m) for h in html for m in re.findall(r'id="table"[^>]*data-hand="(\d+)"', h)}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
async def test_a_spectator_is_refused_the_version_dealing_a_board_he_has_not_played(
        club_setup, multipliers, make_user, monkeypatch):
    club, olga, mike, *_ = club_setup

    def prepare():
        mine, other, pam, members = setup_round(club_setup, make_user)
        # board 1 complete at mike's table: he may watch the other table, which dealt only board 1
        drive(mine.room, lambda rm: complete(rm) >= 1)
        assert dealt(other.room) == 1
        return other.room, members

    room, members = await database_sync_to_async(prepare)()

    calls = []  # (watchers asked, queries) of each verdict job
    decide = live.decide_watchers

    def counted(snap, users):
        with CaptureQueriesContext(connection) as ctx:
            verdicts = decide(snap, users)
        calls.append((len(users), len(ctx.captured_queries)))
        return verdicts

    monkeypatch.setattr(live, "decide_watchers", counted)
    watchers = [mike, *members[:3], AnonymousUser()]
    sockets = []
    for user in watchers:
        comm = WebsocketCommunicator(APP, f"/ws/rooms/{room.pk}/")
        comm.scope["user"] = user
        connected, _ = await comm.connect()
        assert connected
        first = await comm.receive_from(timeout=10)
        assert 'id="table"' in first
        sockets.append(comm)
    connects = len(calls)
    assert connects == len(watchers)  # each socket's own first push: its verdict from its snapshot
    hub = fanout.hub()
    before = dict(hub.stats)

    # the other table plays board 1 and deals board 2, which mike has yet to play
    await database_sync_to_async(drive)(room, lambda rm: dealt(rm) >= 2)
    board2 = await database_sync_to_async(
        lambda: Hand.objects.filter(match__room=room).order_by("id").values_list("pk", flat=True)[1]
    )()
    received = []
    while not received or received[-1]["type"] != "websocket.close":  # up to his close, or board 2
        received.append(await sockets[0].receive_output(timeout=10))
        if board2 in hands_shown(fragments_and_close(received[-1:])[0]):
            break
    html, code = fragments_and_close(received)
    assert board2 not in hands_shown(html), "mike was sent the version that deals board 2"
    assert code == 4403
    for comm in sockets[1:]:  # the other spectators keep watching, board 2 included
        received = await drain(comm)
        while board2 not in hands_shown(fragments_and_close(received)[0]):
            received += [await comm.receive_output(timeout=10)]
        assert fragments_and_close(received)[1] is None
        await comm.disconnect()
    await sockets[0].wait()

    # one verdict job per room version pushed, whatever the number of spectators, each at most two queries
    pushes = hub.stats["pushes"] - before["pushes"]
    jobs = calls[connects:]
    assert hub.stats["verdicts"] - before["verdicts"] == len(jobs) >= max(pushes, 1)
    assert max(n for _, n in jobs) <= 2, jobs
    assert max(k for k, _ in jobs) == len(watchers), jobs  # all five decided together


class OneByOne:
    """A guard with only the single-user methods: visitors may watch room
    ``open_room``; ``bad`` may not watch it."""

    def __init__(self, open_room, bad):
        self.open_room, self.bad, self.asked = open_room, bad, []

    def anonymous_watch(self, room):
        return True if room.pk == self.open_room else None

    def room_watch(self, room, user):
        self.asked.append(user.pk)
        return "不行" if room.pk == self.open_room and user.pk == self.bad.pk else None


@pytest.mark.django_db
def test_guards_without_the_batch_are_asked_one_by_one(bot_room, make_user, monkeypatch):
    """games.embargo.watch_reasons asks a guard without ``room_watches`` user by
    user; visitors are refused ("sign in first") unless some guard knows the
    room; staff are never asked."""
    from games import embargo

    bad, good = make_user("bad"), make_user("good")
    staff = make_user("root")
    staff.is_staff = True
    guard = OneByOne(bot_room.pk, bad)
    monkeypatch.setattr(embargo, "_guards", [guard])
    reasons = embargo.watch_reasons(bot_room, [bad, good, staff, AnonymousUser(), good])
    assert reasons == {bad.pk: "不行", good.pk: None, staff.pk: None, None: None}
    assert guard.asked == [bad.pk, good.pk, None]  # each once, the visitor too; staff not asked
    other = embargo.watch_reasons(SimpleNamespace(pk=bot_room.pk + 1), [good, AnonymousUser()])
    assert other[good.pk] is None and other[None] == "请先登录"
