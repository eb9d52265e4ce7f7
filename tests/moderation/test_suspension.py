"""A moderator's suspension refuses seats, quick play, chat and event entry
until it ends (checked by time: no job lifts it); a chat mute refuses chat
only; a ban refuses play for ever; the player is told the reason and how to
appeal, and may appeal once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.services import chat
from games.services.errors import Forbidden
from moderation import services
from moderation.models import Action
from notifications.models import Notification
from quickplay import services as queue
from quickplay.models import QueueEntry

pytestmark = pytest.mark.django_db


def _everything_refused(room, user, event, enter, client):
    with pytest.raises(Forbidden):
        game_services.take_seat(room, user, 1)
    with pytest.raises(queue.QueueError):
        queue.join(user, "shengji", None)
    with pytest.raises(chat.ChatRefused):
        chat.post(room.pk, user, "你好")
    assert not enter(client, user, event)


def test_a_suspension_refuses_seats_quick_play_chat_and_event_entry_until_it_ends(
        bh_room, club_event, sanction, enter, client):
    event, mike = club_event
    action = sanction(mike, "suspend", days=3)
    assert action.ends - action.created == timedelta(days=3)
    _everything_refused(bh_room, mike, event, enter, client)
    client.force_login(mike)
    response = client.post(reverse("room_seat", args=[bh_room.pk]), {"index": "1"})
    assert response.status_code == 403 and "禁赛" in response.content.decode()
    # the time passes (no job runs): everything is allowed again
    Action.objects.filter(pk=action.pk).update(ends=timezone.now() - timedelta(seconds=1))
    game_services.take_seat(bh_room, mike, 1)
    assert queue.join(mike, "shengji", None).status == QueueEntry.Status.WAITING
    chat.post(bh_room.pk, mike, "我回来了")
    assert enter(client, mike, event)


def test_a_player_suspended_while_waiting_is_left_out_of_the_pass(make_user, sanction, multipliers):
    users = [make_user(f"s{i}") for i in range(5)]
    for u in users:
        queue.join(u, "shengji", None)
    sanction(users[0], "suspend", days=1)
    (room,) = queue.run_pass("shengji")
    assert not room.seats.filter(user=users[0]).exists()
    assert QueueEntry.objects.get(user=users[0]).status == QueueEntry.Status.WAITING


def test_a_mute_refuses_chat_only_and_a_ban_everything_for_ever(bh_room, club_event, sanction, enter, client):
    event, mike = club_event
    sanction(mike, "mute", days=2)
    with pytest.raises(chat.ChatRefused) as refused:
        chat.post(bh_room.pk, mike, "hi")
    assert "禁言" in refused.value.message
    game_services.take_seat(bh_room, mike, 1)  # a mute does not keep him from playing
    game_services.leave_seat(bh_room, mike)
    ban = sanction(mike, "ban")
    assert ban.ends is None
    Action.objects.filter(target=mike).update(created=timezone.now() - timedelta(days=3650))
    _everything_refused(bh_room, mike, event, enter, client)


def test_the_player_is_notified_with_the_reason_and_may_appeal_once(alice, sanction, client):
    action = sanction(alice, "suspend", days=7, reason="连续三场中途离开")
    notice = Notification.objects.get(user=alice, kind="moderation")
    assert "禁赛" in notice.subject and "连续三场中途离开" in notice.body and "申诉" in notice.body
    assert notice.url == reverse("moderation_mine")
    client.force_login(alice)
    assert "连续三场中途离开" in client.get(reverse("moderation_mine")).content.decode()
    assert client.post(reverse("moderation_mine"), {"action": action.pk, "appeal": "网断了"}).status_code == 302
    assert client.post(reverse("moderation_mine"), {"action": action.pk, "appeal": "再说一次"}).status_code == 400
    action.refresh_from_db()
    assert action.appeal == "网断了"


def test_a_warning_and_a_dismissal(alice, sanction):
    sanction(alice, "dismiss")
    assert not Notification.objects.filter(user=alice).exists()  # nothing to tell
    sanction(alice, "warn")
    assert Notification.objects.filter(user=alice, kind="moderation").count() == 1
    assert services.suspension(alice) is None and services.sanction(alice, services.SANCTIONS) is None


def test_an_event_round_starts_with_a_suspended_entrant_on_a_bot_and_a_blocked_one_seated(
        club_event, make_user, sanction):
    from clubs.running import events  # the clubs app's event service (as tests/clubs use it)

    event, mike = club_event
    olga = type(mike).objects.get(username="olga")  # the club's organiser (tests/clubs/conftest.py)
    events.register(mike, event)
    events.add_bot_entries(olga, event, 4)
    services.block(olga, mike)  # the organiser blocked him: her event tables still seat him
    round_ = events.start_round(olga, events.pair_round(olga, event))
    table = next(t for t in round_.tables.all() if t.room.seats.filter(user=mike).exists())
    assert table.room.status == "waiting"
    # next round: suspended in between, the round still starts and a bot plays his seat
    event2 = events.create_event(olga, event.club, name="周日", game="baohuang", rounds=1)
    events.register(mike, event2)
    events.add_bot_entries(olga, event2, 4)
    sanction(mike, "suspend", days=1)
    round2 = events.start_round(olga, events.pair_round(olga, event2))
    (table2,) = round2.tables.all()
    assert not table2.room.seats.filter(user=mike).exists()
    assert table2.room.seats.filter(bot_policy__isnull=False).count() == 5


def test_the_notice_is_in_the_players_language(alice, bob, sanction):
    from accounts.models import Preference

    Preference.objects.create(user=bob, language="en")
    sanction(bob, "mute", days=2, reason="spam")
    sanction(alice, "mute", days=2, reason="spam")
    assert Notification.objects.get(user=bob).subject.startswith("A moderator's decision about you: Chat mute")
    assert Notification.objects.get(user=alice).subject.startswith("版主对你的处理：禁言")
