"""games.runtime.runner: the one turn runner.

Due rooms are claimed with one conditional UPDATE (a lease in
``Room.claimed_until``) and run through ``play_turn``, which refuses a stale
version.  Here: two claims in one lease window never take the same room; a
killed runner's lease is retaken once it expires; two runners never both apply
a turn; a move clears the lease; a restarted runner resumes every overdue
table; a deadline sooner than the poll is honoured (its latency is printed,
not asserted).  The production fault tests (kill -9 of a worker mid-hand) are
tests/integration/test_runner_live.py.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from games import services
from games.models import HandAction, Room, Seat
from games.runtime import runner
from tests.conftest import make_due


def _actions(room) -> int:
    return HandAction.objects.filter(hand=services.current_hand(room)).count()


@pytest.mark.django_db
def test_two_claims_in_one_window_never_take_the_same_room(bot_room):
    make_due(bot_room)
    lease, first = runner.claim(10)
    assert first == [(bot_room.pk, bot_room.version)]
    _, second = runner.claim(10)  # another runner, within the lease
    assert second == []
    assert Room.objects.get(pk=bot_room.pk).claimed_until == lease


@pytest.mark.django_db
def test_a_killed_runners_lease_is_retaken_after_it_expires(bot_room, settings):
    """A runner claims the room and dies before running it: nobody claims it
    during the lease; once it has expired another runner does and plays it."""
    make_due(bot_room)
    _, dead = runner.claim(10)
    assert dead == [(bot_room.pk, bot_room.version)]
    later = timezone.now() + timedelta(seconds=runner.lease_s() - 1)
    assert runner.claim(10, now=later)[1] == []  # still within the dead runner's lease
    expired = timezone.now() + timedelta(seconds=runner.lease_s() + 1)
    lease, retaken = runner.claim(10, now=expired)
    assert retaken == [(bot_room.pk, bot_room.version)]
    before = _actions(bot_room)
    assert runner.run_claimed(bot_room.pk, bot_room.version, lease) in runner.APPLIED  # a bot's move or a timeout
    assert _actions(bot_room) == before + 1


@pytest.mark.django_db
def test_two_runners_never_both_apply_a_turn(bot_room):
    """Even past a lease (a slow runner and one that retook the room), the
    version check lets one move through: the other is stale and releases."""
    make_due(bot_room)
    version = bot_room.version
    lease_a, _ = runner.claim(10)
    lease_b, retaken = runner.claim(10, now=timezone.now() + timedelta(seconds=runner.lease_s() + 1))
    assert retaken == [(bot_room.pk, version)]
    before = _actions(bot_room)
    answers = [runner.run_claimed(bot_room.pk, version, lease_b), runner.run_claimed(bot_room.pk, version, lease_a)]
    assert answers[0] in runner.APPLIED and answers[1] == "stale"  # a bot's move or a timeout, once
    assert _actions(bot_room) == before + 1


@pytest.mark.django_db
def test_a_move_clears_the_lease_in_its_own_statement(bot_room):
    """The move's version bump voids the lease: the next deadline is anyone's."""
    make_due(bot_room)
    lease, batch = runner.claim(10)
    assert batch and Room.objects.get(pk=bot_room.pk).claimed_until == lease
    assert services.play_turn(bot_room.pk, bot_room.version) in runner.APPLIED  # a bot's move or a timeout
    room = Room.objects.get(pk=bot_room.pk)
    assert room.claimed_until is None and room.version == bot_room.version + 1


@pytest.mark.django_db
def test_a_turn_that_applies_nothing_gives_its_lease_back(five_humans):
    room, _users = five_humans
    Room.objects.filter(pk=room.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    lease, batch = runner.claim(10)
    assert batch == [(room.pk, room.version)]
    assert runner.run_claimed(room.pk, room.version - 1, lease) == "stale"
    assert Room.objects.get(pk=room.pk).claimed_until is None
    assert runner.claim(10)[1] == [(room.pk, room.version)]


@pytest.mark.django_db
def test_rooms_not_due_or_not_playing_are_not_claimed(bot_room):
    Room.objects.filter(pk=bot_room.pk).update(deadline=timezone.now() + timedelta(seconds=5))
    assert runner.claim(10)[1] == []
    Room.objects.filter(pk=bot_room.pk).update(deadline=timezone.now() - timedelta(seconds=5),
                                               status=Room.Status.WAITING)
    assert runner.claim(10)[1] == []


def _wait(check, seconds: float = 20.0):
    """Poll ``check()`` every 20 ms for at most ``seconds``; its last answer."""
    end = time.monotonic() + seconds
    while True:
        answer = check()
        if answer or time.monotonic() > end:
            return answer
        time.sleep(0.02)


@pytest.fixture
def live_runner(settings):
    """The embedded topology's runner, really started (threads, own connections).
    Scheduling stays disabled otherwise (no review thread starts)."""
    started = []

    def start(**overrides):
        for name, value in overrides.items():
            setattr(settings, name, value)
        started.append(runner.start(threads=2))
        return started[-1]

    yield start
    runner.stop()
    connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_a_restarted_runner_resumes_every_table(make_user, multipliers, live_runner, settings):
    """Three tables whose runner died holding their leases (and one left simply
    overdue) all go on once a new runner starts and the leases expire."""
    rooms = []
    for i in range(4):
        owner = make_user(f"owner{i}")
        room = services.create_room(owner, "baohuang", f"t{i}", turn_seconds=30, bot_delay_ms=0)
        services.fill_bots(room, owner, "heuristic")
        services.set_ready(room, owner, True)
        room.refresh_from_db()
        make_due(room)
        rooms.append((room, room.version, _actions(room)))
    settings.GAMES_RUNNER_LEASE_S = 0.5
    assert len(runner.claim(3)[1]) == 3  # the dead runner's claims, on a short lease
    live_runner(GAMES_RUNNER_POLL_S=0.1)

    def moved():
        return all(Room.objects.get(pk=room.pk).version > version for room, version, _ in rooms)

    assert _wait(moved), "every table resumed"
    runner.stop()
    for room, _version, before in rooms:
        assert _actions(room) > before


@pytest.mark.django_db(transaction=True)
def test_a_deadline_sooner_than_the_poll_is_honoured(bot_room, alice, live_runner):
    """The runner polls every 30 s here; a bot's deadline set by a commit in
    this process wakes it at the deadline (``room_committed``).  Prints the
    latency from the deadline to the move."""
    Room.objects.filter(pk=bot_room.pk).update(bot_delay_ms=200)
    for _ in range(40):  # by hand, to alice's own turn (her 30 s limit; past the hidden B10 window)
        bot_room.refresh_from_db()
        if bot_room.deadline > timezone.now() + timedelta(seconds=20):
            break
        make_due(bot_room)
        services.play_turn(bot_room.pk, bot_room.version)
        Seat.objects.filter(room=bot_room, user=alice).update(autoplay=False)
    live_runner(GAMES_RUNNER_POLL_S=30.0)
    time.sleep(0.1)  # let its first (empty) claim pass
    # alice on 托管: every seat is automatic, the next deadline is now + 200 ms
    services.set_autoplay(bot_room, alice, True)
    room = Room.objects.get(pk=bot_room.pk)
    deadline, version = room.deadline, room.version
    assert deadline is not None and deadline <= timezone.now() + timedelta(seconds=1)

    def moved():
        return Room.objects.get(pk=bot_room.pk).version > version

    assert _wait(moved, 10.0), "the runner slept through a deadline sooner than its poll"
    runner.stop()
    last = HandAction.objects.filter(hand=services.current_hand(room)).order_by("-seq").first()
    print(f"\ndeadline -> move: {(last.created - deadline).total_seconds() * 1000:.0f} ms (poll 30 s)")


@pytest.mark.django_db(transaction=True)
def test_concurrent_claims_share_the_rooms_without_overlap(make_user, multipliers):
    """Two runners claim at the same moment, in threads with their own
    connections (SKIP LOCKED on PostgreSQL, the single writer on SQLite):
    together they take every due room, and no room twice."""
    import threading

    ids = set()
    for i in range(6):
        owner = make_user(f"c{i}")
        room = services.create_room(owner, "baohuang", f"c{i}", turn_seconds=30, bot_delay_ms=0)
        services.fill_bots(room, owner, "heuristic")
        services.set_ready(room, owner, True)
        make_due(room)
        ids.add(room.pk)
    barrier = threading.Barrier(2)
    taken: list[list[int]] = [[], []]

    def claimer(k: int) -> None:
        try:
            barrier.wait(5)
            for _ in range(3):
                taken[k] += [room_id for room_id, _v in runner.claim(2)[1]]
        finally:
            connections.close_all()

    threads = [threading.Thread(target=claimer, args=(k,)) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not set(taken[0]) & set(taken[1])
    assert sorted(taken[0] + taken[1]) == sorted(ids)
