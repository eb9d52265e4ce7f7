"""A 升级 match at the site reaches a winner (S2: a team going past K) with
bots only (seat 0's human on 托管 timeouts), the match row is finished, the
result panel says so, the ledger has every hand (C4), and the next deal starts
a fresh match from level 2 (S2) with the 比牌 auction deciding the dealer."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import PointsEntry
from games import services
from games.models import Hand, Match

from .shengji_fixtures import RULES  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def room_at_k(alice, multipliers):
    """Both teams at K, seat 0 deals: the first hand's winners go past K."""
    room = services.create_room(alice, "shengji", "打K", multiplier=5, bot_delay_ms=0)
    start = RULES.match_to_json(RULES.new_match(
        {"multiplier": 5, "follow": "format"}, {"levels": {"0": "K", "1": "K"}, "dealer": 0}))
    Match.objects.create(room=room, number=1, start=start)
    services.fill_bots(room, alice, "heuristic")
    services.set_ready(room, alice, True)
    room.refresh_from_db()
    return room


def test_match_reaches_a_winner_and_a_new_match_starts(room_at_k, alice, driver):
    room = room_at_k
    first = services.current_hand(room)
    assert first.start["start"] == {"levels": {"0": "K", "1": "K"}, "dealer": 0}
    assert services.hand_state(first).level == "K"
    driver(room, lambda r: Match.objects.get(room=r, number=1).finished is not None, max_steps=3000)
    match = Match.objects.get(room=room, number=1)
    hands = list(match.hands.order_by("number"))
    last = hands[-1]
    assert last.complete and last.summary["match_winner"] in (0, 1)
    winner = last.summary["match_winner"]
    assert last.summary["levels_gained"][str(winner)] >= 1 and last.summary["levels_after"][str(winner)] == "K"
    # every hand of the match is in the ledger, ×5 (C4)
    entries = PointsEntry.objects.filter(user=alice, game="shengji", hand__match=match)
    assert entries.count() == len(hands)
    assert all(e.delta == h.summary["game_points"]["0"] and e.delta % 5 == 0
               for e, h in zip(entries.order_by("hand__number"), hands))
    # the result panel announces the match winner
    client = Client()
    client.force_login(alice)
    html = client.get(f"/rooms/{room.pk}/").content.decode()
    assert re.search(rf'id="result-panel"[^>]*data-match-winner="{winner}"', html)
    assert 'id="match-over"' in html
    # after the pause: a new match from level 2, hand 1 decided by the auction (S13, S15)
    driver(room, lambda r: services.current_hand(r).match.number == 2)
    hand = services.current_hand(room)
    assert hand.number == 1 and hand.start["start"] == {"levels": {"0": "2", "1": "2"}, "dealer": None}
    assert Hand.objects.filter(match=match).count() == len(hands)
