"""The event page's counts read right in every language, and a new round's
swap starts on a real swap.

* "每轮 1 局", "1 局完成", "每轮 1 分钟", "机器人 1 名" (and a scorecard's
  "1 分，1 次头游") are plural messages
  (``blocktranslate count``): English says "1 hand per round", "1 hand done",
  "1 minute per round", "1 bot" and "2 hands per round", "0 hands done"; the
  Chinese catalogs have one form.  Before, English said "1 hands per round".
* The organiser's preview of a new round has two selects of entries to swap;
  the second starts on the second entry, so the pair they start on is a swap
  (before, both started on the first entry: "T1: 机器人2 ⇄ T1: 机器人2").
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from clubs import services
from clubs.models import Round
from clubs.running import events
from games.models import Hand


def visible_text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def selected(html: str, select_id: str) -> str | None:
    """The value of the option a select starts on (the first when none says selected)."""
    body = re.search(rf'<select[^>]*id="{select_id}"[^>]*>(.*?)</select>', html, re.S).group(1)
    options = re.findall(r'<option value="([^"]*)"([^>]*)>', body)
    chosen = [v for v, attrs in options if "selected" in attrs]
    assert len(chosen) <= 1
    return chosen[0] if chosen else (options[0][0] if options else None)


def page(client, user, event, language: str) -> str:
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("event", args=[event.pk]))
    assert response.status_code == 200
    return visible_text(response.content.decode())


@pytest.fixture
def olga_club(make_user):
    olga = make_user("olga")
    return olga, services.create_club(olga, "East club", "Fridays")


def friday_cup(olga_club, bots: int = 0, **options):
    """Olga's 升級 event of 2 rounds (bots without delay), ``bots`` bot entries
    added; ``options``: the event's other settings (hands_per_round …)."""
    olga, club = olga_club
    event = events.create_event(olga, club, name="Friday cup", game="shengji", rounds=2, bot_delay_ms=0, **options)
    if bots:
        events.add_bot_entries(olga, event, bots)
    return event


@pytest.mark.django_db
@pytest.mark.parametrize("hands, minutes, en, zh_hans, zh_hant", [
    (1, 1, ["1 hand per round", "1 minute per round"], ["每轮 1 局", "每轮 1 分钟"], ["每輪 1 局", "每輪 1 分鐘"]),
    (2, 30, ["2 hands per round", "30 minutes per round"], ["每轮 2 局", "每轮 30 分钟"], ["每輪 2 局", "每輪 30 分鐘"]),
])
def test_hands_and_minutes_per_round(client, olga_club, hands, minutes, en, zh_hans, zh_hant):
    olga, _club = olga_club
    event = friday_cup(olga_club, hands_per_round=hands, minutes_per_round=minutes)
    for language, expected in (("en", en), ("zh-hans", zh_hans), ("zh-hant", zh_hant)):
        text = page(client, olga, event, language)
        for phrase in expected:
            assert phrase in text, (language, phrase)
    assert "1 hands" not in page(client, olga, event, "en")
    assert "1 minutes" not in page(client, olga, event, "en")


@pytest.mark.django_db
def test_hands_done_and_bots_count(client, olga_club):
    olga, _club = olga_club
    event = friday_cup(olga_club, bots=2, hands_per_round=2)
    preview = events.pair_round(olga, event)
    for bots, en in ((1, "1 bot, at table 1"), (3, "3 bots, at table 1")):
        Round.objects.filter(pk=preview.pk).update(pairing={**preview.pairing, "bots": bots, "bot_table": 0})
        assert en in page(client, olga, event, "en")
        assert f"机器人 {bots} 名，在第 1 桌" in page(client, olga, event, "zh-hans")
        assert f"機器人 {bots} 名，在第 1 桌" in page(client, olga, event, "zh-hant")

    Round.objects.filter(pk=preview.pk).update(pairing={**preview.pairing, "bots": 0})
    running = events.start_round(olga, Round.objects.get(pk=preview.pk))
    room = running.tables.get().room
    Hand.objects.filter(match__room=room).update(complete=False)
    assert "0 hands done" in page(client, olga, event, "en")
    hand = Hand.objects.filter(match__room=room).order_by("number").first()
    assert hand is not None
    Hand.objects.filter(pk=hand.pk).update(complete=True)
    text = page(client, olga, event, "en")
    assert "1 hand done" in text and "1 hands" not in text
    assert "1 局完成" in page(client, olga, event, "zh-hans")
    assert "1 局完成" in page(client, olga, event, "zh-hant")


@pytest.mark.django_db
def test_the_swap_starts_on_two_different_entries(client, olga_club):
    olga, _club = olga_club
    event = friday_cup(olga_club, bots=4, hands_per_round=1)
    preview = events.pair_round(olga, event)
    client.force_login(olga)
    html = client.get(reverse("event", args=[event.pk])).content.decode()
    n = preview.number
    options = re.findall(r'<option value="([^"]*)"', re.search(rf'<select[^>]*id="swap-a-{n}".*?</select>', html, re.S).group(0))
    assert len(options) == 4
    assert selected(html, f"swap-a-{n}") == options[0]
    assert selected(html, f"swap-b-{n}") == options[1]


@pytest.mark.parametrize("language, points, firsts, expected", [
    ("en", 1, 1, "1 point, 1 first place"),
    ("en", 2, 0, "2 points, 0 first places"),
    ("en", 1.5, 2, "1.5 points, 2 first places"),
    ("zh-hans", 1, 1, "1 分，1 次头游"),
    ("zh-hant", 3, 2, "3 分，2 次頭遊"),
])
def test_a_scorecards_points_and_first_places(language, points, firsts, expected):
    """A table event's scorecard line (linked from the standings) counts its
    points and first places with their plural forms (before: "1 points,
    1 first place(s)")."""
    from django.utils import translation

    from clubs.results.scorecards import _points_and_firsts

    with translation.override(language):
        assert _points_and_firsts(points, firsts) == expected
