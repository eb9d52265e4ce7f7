"""Reports: from the table, the replay, a chat line or a profile, with a
reason and a note; the hand and its chat lines are attached; a report on a
hand I didn't play is refused; rate-limited."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import ChatMessage, Hand
from games.services import chat
from moderation import services
from moderation.models import Report
from moderation.services import ModerationError

pytestmark = pytest.mark.django_db


def test_a_report_from_the_table_carries_its_hand_and_chat_lines(five_humans, make_user, client):
    room, users = five_humans
    chat.post(room.pk, users[1], "你打得真烂")
    chat.post(room.pk, users[0], "别这样")
    client.force_login(users[0])
    page = client.get(reverse("room", args=[room.pk])).content.decode()
    assert f"{reverse('moderation_report')}?room={room.pk}&amp;source=table" in page
    form = client.get(reverse("moderation_report"), {"room": room.pk, "source": "table"}).content.decode()
    assert f'<option value="{users[1].pk}">' in form
    assert f'<option value="{users[0].pk}">' not in form  # not oneself
    response = client.post(reverse("moderation_report"), {
        "room": room.pk, "source": "table", "user": users[1].pk, "reason": "abuse", "note": "骂人",
    })
    assert response.status_code == 200
    report = Report.objects.get()
    hand = Hand.objects.get(match__room=room)
    assert (report.reporter, report.reported, report.hand, report.room) == (users[0], users[1], hand, room)
    assert (report.reason, report.note, report.source, report.status) == ("abuse", "骂人", "table", "open")
    assert [(line["name"], line["text"]) for line in report.chat] == [("p1", "你打得真烂"), ("p0", "别这样")]


def test_a_report_on_a_hand_i_did_not_play_is_refused(five_humans, make_user, client):
    room, users = five_humans
    stranger = make_user("stranger")
    hand = Hand.objects.get(match__room=room)
    with pytest.raises(ModerationError):
        services.file_report(stranger, users[1], "abuse", "", "replay", hand=hand)
    with pytest.raises(ModerationError):
        services.file_report(stranger, users[1], "abuse", "", "table", room=room)
    client.force_login(stranger)
    response = client.post(reverse("moderation_report"),
                           {"hand": hand.pk, "user": users[1].pk, "reason": "cheat", "note": ""})
    assert response.status_code in (400, 403) and not Report.objects.exists()
    # the form shows nothing of a hand I did not play: not its players, not a chat line of it
    line = chat.post(room.pk, users[1], "秘密")
    for params in ({"hand": hand.pk}, {"room": room.pk}, {"line": line.pk}):
        page = client.get(reverse("moderation_report"), params)
        assert page.status_code == 403
        shown = re.sub(r"<[^>]*>", " ", page.content.decode())  # the text, not the tags (a CSRF token may hold "p1")
        assert "秘密" not in shown and not re.search(rf"\b{re.escape(users[1].get_username())}\b", shown)
    # nor a player who was not in the hand
    with pytest.raises(ModerationError):
        services.file_report(users[0], stranger, "abuse", "", "replay", hand=hand)


def test_a_report_from_a_chat_line_names_its_author_and_attaches_the_hand(five_humans, make_user):
    room, users = five_humans
    spectator = make_user("watcher")
    line = chat.post(room.pk, spectator, "哈哈哈 noob")
    report = services.file_report(users[2], None, "abuse", "", "chat", line=line)
    assert report.reported == spectator and report.hand == Hand.objects.get(match__room=room)
    assert report.source == "chat" and report.chat[0]["id"] == line.pk


def test_a_report_from_a_profile_needs_no_hand(alice, bob, client):
    client.force_login(alice)
    page = client.get(reverse("profile_user", args=["bob"])).content.decode()
    assert f"{reverse('moderation_report')}?user={bob.pk}" in page
    response = client.post(reverse("moderation_report"),
                           {"user": bob.pk, "source": "profile", "reason": "name", "note": "名字不雅"})
    assert response.status_code == 200
    assert Report.objects.get().hand is None
    with pytest.raises(ModerationError):
        services.file_report(alice, alice, "name", "")


def test_reports_are_rate_limited_and_a_double_request_files_once(five_humans):
    room, users = five_humans
    me = users[0]
    first = services.file_report(me, users[1], "abuse", "", "table", room=room)
    assert services.file_report(me, users[1], "abuse", "again", "table", room=room).pk == first.pk
    for other in users[2:4]:
        services.file_report(me, other, "abandon", "", "table", room=room)
    with pytest.raises(ModerationError) as refused:
        services.file_report(me, users[4], "abuse", "", "table", room=room)  # the fourth in 10 minutes
    assert "频繁" in refused.value.message
    assert Report.objects.count() == services.BURST == 3


def test_a_replay_of_my_hand_has_a_report_link(five_humans, driver, client):
    room, users = five_humans
    driver(room, lambda r: Hand.objects.filter(match__room=r, complete=True).exists())
    hand = Hand.objects.get(match__room=room, number=1)
    client.force_login(users[0])
    page = client.get(reverse("hand_replay", args=[hand.pk])).content.decode()
    assert f"{reverse('moderation_report')}?hand={hand.pk}&amp;source=replay" in page
    response = client.post(reverse("moderation_report"), {"hand": hand.pk, "source": "replay",
                                                          "user": users[3].pk, "reason": "cheat", "note": ""})
    assert response.status_code == 200
    report = Report.objects.get()
    assert (report.hand, report.reported, report.source, report.chat) == (hand, users[3], "replay", [])
    assert ChatMessage.objects.count() == 0


def test_every_chat_line_of_another_player_has_a_report_link(bot_room, alice, bob):
    line = chat.post(bot_room.pk, bob, "看我的")
    mine = chat.post(bot_room.pk, alice, "好的")
    from games.render.chat import render_lines

    html = render_lines([line, mine], alice, set())
    assert f'href="{reverse("moderation_report")}?line={line.pk}"' in html
    assert f"?line={mine.pk}" not in html  # not one's own
