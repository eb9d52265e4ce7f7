"""games.runtime.tasks: idempotent turns, the runner's due-room claim, C5 timeouts and 托管."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.runtime import runner, tasks
from games import services
from games.engine import get_rules
from games.models import HandAction, Room
from tests.conftest import make_due

pytestmark = pytest.mark.django_db

RULES = get_rules("baohuang")


def _to_act(room):
    hand = services.current_hand(room)
    return RULES.to_act(services.hand_state(hand)), hand


def test_task_for_an_old_version_does_nothing(bot_room):
    make_due(bot_room)
    bot_room.refresh_from_db()
    old = bot_room.version
    assert tasks.play_turn(bot_room.pk, old) in ("bot", "timeout")
    bot_room.refresh_from_db()
    after = bot_room.version
    count = HandAction.objects.count()
    make_due(bot_room)
    assert tasks.play_turn(bot_room.pk, old) == "stale"  # the same task delivered twice
    bot_room.refresh_from_db()
    assert bot_room.version == after and HandAction.objects.count() == count


def test_task_before_deadline_waits(five_humans, monkeypatch):
    """A turn run early applies nothing and tells the runner when it is due."""
    from games import signals

    room, _users = five_humans
    calls = []

    def record(sender, room_id, version, delay_s, **kw):
        calls.append((room_id, version, delay_s))

    signals.turn_due.connect(record, dispatch_uid="test-turn-due")
    try:
        assert tasks.play_turn(room.pk, room.version) == "early"
    finally:
        signals.turn_due.disconnect(dispatch_uid="test-turn-due")
    assert HandAction.objects.count() == 0
    assert calls and calls[0][0] == room.pk and 25 < calls[0][2] <= 30


def test_timeout_applies_c5_auto_action_and_switches_autoplay_on(five_humans):
    """C5: when the time runs out the server decides (the crown: pass) and
    the seat goes on 托管."""
    room, users = five_humans
    seat, hand = _to_act(room)
    expected = RULES.auto_action(services.hand_state(hand), seat).to_record()
    make_due(room)
    assert tasks.play_turn(room.pk, room.version) == "timeout"
    action = HandAction.objects.get(hand=hand, seq=0)
    assert action.payload == expected and action.actor == "auto"
    assert room.seats.get(index=seat).autoplay is True
    # the player switches 托管 off again
    services.set_autoplay(room, users[seat], False)
    assert room.seats.get(index=seat).autoplay is False


def test_autoplay_seat_plays_heuristic_move_at_bot_delay(five_humans):
    room, users = five_humans
    seat, hand = _to_act(room)
    services.set_autoplay(room, users[seat], True)
    room.refresh_from_db()
    assert room.deadline <= timezone.now() + timedelta(seconds=1)  # bot delay, not 30 s
    make_due(room)
    assert tasks.play_turn(room.pk, room.version) == "bot"
    assert HandAction.objects.get(hand=hand, seq=0).actor == "auto"


def test_run_due_picks_up_a_missed_deadline(bot_room):
    """An overdue room (a restart, a killed runner): the claim finds it by its deadline."""
    Room.objects.filter(pk=bot_room.pk).update(deadline=timezone.now() - timedelta(seconds=10))
    before = bot_room.version
    assert runner.run_due() == 1
    bot_room.refresh_from_db()
    assert bot_room.version == before + 1
    assert HandAction.objects.filter(hand=services.current_hand(bot_room)).count() == 1


def test_run_due_leaves_rooms_not_due(bot_room, five_humans):
    room, _ = five_humans
    Room.objects.update(deadline=timezone.now() + timedelta(seconds=30))
    assert runner.run_due() == 0
    assert HandAction.objects.count() == 0


def test_next_hand_dealt_after_pause(bot_room, driver):
    first = services.current_hand(bot_room)
    driver(bot_room, lambda r: services.current_hand(r).complete)
    bot_room.refresh_from_db()
    assert bot_room.status == Room.Status.PLAYING and bot_room.deadline is not None
    make_due(bot_room)
    bot_room.refresh_from_db()
    assert tasks.play_turn(bot_room.pk, bot_room.version) == "dealt"
    second = services.current_hand(bot_room)
    assert second.pk != first.pk and second.number == 2 and second.match_id == first.match_id


def test_room_goes_back_to_waiting_when_a_seat_is_empty_between_hands(bot_room, alice, driver):
    driver(bot_room, lambda r: services.current_hand(r).complete)
    services.leave_seat(bot_room, alice)
    bot_room.refresh_from_db()
    make_due(bot_room)
    bot_room.refresh_from_db()
    tasks.play_turn(bot_room.pk, bot_room.version)
    bot_room.refresh_from_db()
    assert bot_room.status == Room.Status.WAITING and bot_room.deadline is None


def test_no_next_hand_when_every_human_is_on_autoplay(bot_room, alice, driver):
    driver(bot_room, lambda r: services.current_hand(r).complete)
    services.set_autoplay(bot_room, alice, True)
    bot_room.refresh_from_db()
    make_due(bot_room)
    bot_room.refresh_from_db()
    tasks.play_turn(bot_room.pk, bot_room.version)
    bot_room.refresh_from_db()
    assert bot_room.status == Room.Status.WAITING and bot_room.deadline is None
    seat = bot_room.seats.get(index=0)
    assert not seat.ready and not seat.autoplay
    services.set_ready(bot_room, alice, True)  # back: the next hand is dealt
    bot_room.refresh_from_db()
    assert bot_room.status == Room.Status.PLAYING
    assert services.current_hand(bot_room).number == 2


def test_no_turn_is_a_celery_task_and_beat_keeps_only_its_safety_sweep(settings):
    """Turns run on the runner only: no ``run_turn`` task is registered; beat's
    ``sweep_deadlines`` (still under its old name) is the runner's own claim, run once."""
    from config.celery import app

    assert "games.tasks.run_turn" not in app.tasks
    beat = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "games.tasks.sweep_deadlines" in beat
    assert app.tasks["games.tasks.sweep_deadlines"] is tasks.sweep_deadlines._get_current_object()
