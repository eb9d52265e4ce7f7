"""升级 hand records from the site (docs/spec/hand-record.md): the match so
far and a single hand replay with status 0 through the real engine and give
the stored summaries; levels and dealer carry over (S15, S17); the replay
page shows every seat's cards at each step."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from games import services
from games.engine.records import replay_record
from games.models import Hand

from .shengji_fixtures import RULES, sj_bot_room  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

KEYS = ("complete", "auction_winner", "trump", "level", "dealer", "attackers_points",
        "kitty_points", "kitty_multiplier", "levels_after", "next_dealer", "game_points",
        "match_winner")


def _client(user):
    c = Client()
    c.force_login(user)
    return c


def _strip(summary):
    return {k: summary.get(k) for k in KEYS}


@pytest.fixture
def two_hands(sj_bot_room, driver):
    room = sj_bot_room
    first = services.current_hand(room)
    driver(room, lambda r: services.current_hand(r).complete)
    driver(room, lambda r: services.current_hand(r).pk != first.pk)
    second = services.current_hand(room)
    driver(room, lambda r: Hand.objects.get(pk=second.pk).complete)
    first.refresh_from_db()
    second.refresh_from_db()
    return first, second


def test_match_record_replays_with_status_0(two_hands, alice):
    first, second = two_hands
    response = _client(alice).get(f"/hands/{second.pk}/record.json")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    record = json.loads(response.content)
    assert record["game"] == "shengji" and record["options"] == {"multiplier": 2, "follow": "format"}
    assert record["players"][0] == "alice" and len(record["hands"]) == 2
    assert record["start"]["dealer"] is None  # hand 1 of the match: the 比牌 winner deals
    output, status = replay_record(record)
    assert status == 0, output.get("error")
    assert [_strip(h) for h in output["hands"]] == [_strip(first.summary), _strip(second.summary)]
    # S15/S17 carry-over: hand 2 is dealt by hand 1's next dealer at the new levels
    assert second.start["start"]["dealer"] == first.summary["next_dealer"]
    assert second.start["start"]["levels"] == first.summary["levels_after"]


def test_single_hand_record_starts_from_the_carried_levels(two_hands, alice):
    _first, second = two_hands
    record = json.loads(_client(alice).get(f"/hands/{second.pk}/record.json?scope=hand").content)
    assert len(record["hands"]) == 1 and record["start"] == second.start["start"]
    output, status = replay_record(record)
    assert status == 0, output.get("error")
    assert _strip(output["hands"][0]) == _strip(second.summary)


def test_replay_page_steps_through_a_shengji_hand(two_hands, alice):
    first, _second = two_hands
    client = _client(alice)
    total = first.actions.count()
    html = client.get(f"/hands/{first.pk}/replay/?step=0").content.decode()
    state = services.hand_state(first, upto=0)
    for seat in range(4):
        block = re.search(rf'data-replay-seat="{seat}".*?</div>\s*</div>', html, re.S).group(0)
        assert re.findall(r'data-c="([^"]+)"', block) == RULES.view(state, seat)["hand"]
        assert len(RULES.view(state, seat)["hand"]) == 52
    last = client.get(f"/hands/{first.pk}/replay/?step={total}").content.decode()
    assert f'data-step="{total}"' in last and 'data-action="replay-next"' not in last
    # the public part: trump, the last trick and (the hand is over) the kitty
    public = re.search(r'id="sj-replay-public".*?</div>', last, re.S).group(0)
    assert f'data-trump="{first.summary["trump"]}"' in public
    kitty = re.search(r"底牌.*?</p>", public, re.S).group(0)
    assert sorted(re.findall(r'data-c="([^"]+)"', kitty)) == sorted(first.summary["kitty"])
    mid = client.get(f"/hands/{first.pk}/replay/?step=1").content.decode()
    assert 'data-phase="auction"' in mid or 'data-phase="trump"' in mid
