"""Hand records (docs/spec/hand-record.md) downloaded from the site replay
with status 0 through the real engine; the replay page steps through a hand."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from games import services
from games.engine import get_rules
from games.engine.records import replay_record
from games.models import Hand

pytestmark = pytest.mark.django_db

RULES = get_rules("baohuang")


def _client(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def two_hands(bot_room, driver):
    """Hands 1 and 2 of bot_room completed (hand 2 pays tribute from hand 1)."""
    first = services.current_hand(bot_room)
    driver(bot_room, lambda r: services.current_hand(r).complete)
    driver(bot_room, lambda r: services.current_hand(r).pk != first.pk)
    second = services.current_hand(bot_room)
    driver(bot_room, lambda r: Hand.objects.get(pk=second.pk).complete)
    first.refresh_from_db()
    second.refresh_from_db()
    return first, second


def _strip(summary):
    return {k: v for k, v in summary.items() if k in (
        "complete", "emperor", "guard", "solo", "tribute", "finish_order", "winner", "game_points", "voided")}


def test_match_record_replays_with_status_0(two_hands, alice):
    first, second = two_hands
    response = _client(alice).get(f"/hands/{second.pk}/record.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    record = json.loads(response.content)
    assert record["format"] == "hand-record/1" and record["game"] == "baohuang"
    assert record["options"]["multiplier"] == 2
    assert record["players"][0] == "alice" and len(record["players"]) == 5
    assert len(record["hands"]) == 2
    output, status = replay_record(record)
    assert status == 0, output.get("error")
    assert [_strip(h) for h in output["hands"]] == [_strip(first.summary), _strip(second.summary)]


def test_single_hand_record_carries_previous_result(two_hands, alice):
    _first, second = two_hands
    record = json.loads(_client(alice).get(f"/hands/{second.pk}/record.json?scope=hand").content)
    assert len(record["hands"]) == 1
    assert record["start"] == second.start["start"]
    assert "previous" in record["start"]
    output, status = replay_record(record)
    assert status == 0
    assert _strip(output["hands"][0]) == _strip(second.summary)  # same tribute (B13)


def test_no_record_of_a_hand_in_play(bot_room, alice):
    hand = services.current_hand(bot_room)
    assert _client(alice).get(f"/hands/{hand.pk}/record.json").status_code == 404
    assert _client(alice).get(f"/hands/{hand.pk}/replay/").status_code == 404


def test_replay_steps_show_every_seat(two_hands, alice):
    first, _second = two_hands
    client = _client(alice)
    total = first.actions.count()
    page = client.get(f"/hands/{first.pk}/replay/?step=0").content.decode()
    assert 'data-action="replay-next"' in page and 'data-action="replay-prev"' not in page
    state = services.hand_state(first, upto=0)
    for seat in range(5):
        block = re.search(rf'data-replay-seat="{seat}".*?</div>\s*</div>', page, re.S).group(0)
        assert re.findall(r'data-c="([^"]+)"', block) == RULES.view(state, seat)["hand"]
    page = client.get(f"/hands/{first.pk}/replay/?step=3").content.decode()
    assert 'data-step="3"' in page and 'data-action="replay-prev"' in page
    state = services.hand_state(first, upto=3)
    block = re.search(r'data-replay-seat="2".*?</div>\s*</div>', page, re.S).group(0)
    assert re.findall(r'data-c="([^"]+)"', block) == RULES.view(state, 2)["hand"]
    last = client.get(f"/hands/{first.pk}/replay/?step=9999").content.decode()
    assert f'data-step="{total}"' in last and 'data-action="replay-next"' not in last


def test_replay_steps_over_htmx_and_jumps_by_round(two_hands, alice):
    """An htmx request gets the #replay fragment alone (no page);
    the jump list names the phases and numbers the rounds, each a step where
    the table is empty again."""
    first, _second = two_hands
    client = _client(alice)
    part = client.get(f"/hands/{first.pk}/replay/?step=2", HTTP_HX_REQUEST="true").content.decode()
    assert part.lstrip().startswith('<div id="replay"') and "<html" not in part
    assert 'data-step="2"' in part
    full = client.get(f"/hands/{first.pk}/replay/?step=0").content.decode()
    rounds = [int(s) for s in re.findall(r'data-jump-trick="\d+"[^>]*>', full) and
              re.findall(r'href="\?step=(\d+)"[^>]*data-jump-trick', full)]
    assert len(rounds) >= 2 and rounds == sorted(rounds)
    for step in rounds[1:]:
        state = services.hand_state(first, upto=step)
        assert RULES.view(state, None)["trick_log"] == []
