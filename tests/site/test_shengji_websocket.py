"""Hidden information over the websocket for a whole 升级 hand.

Every message sent to seat 0 while the hand is in play is checked against
what seat 0 may know (S13–S15): its own hand exactly, the shown 比牌 piles,
the tricks, the 还牌 cards it gave or received, and the kitty only as the
dealer from the bury on; after the hand everything may be shown.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter

from games import services
from games.live.routing import websocket_urlpatterns
from games.runtime.tasks import play_turn
from tests.conftest import make_due

from .shengji_fixtures import RULES, sj_bot_room  # noqa: F401 (fixture)
from tests.table_pages import PagedCommunicator
from tests.table_pages import hand_codes, kitty_codes

# close_thread_connections: tests/conftest.py
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_thread_connections")]

APP = URLRouter(websocket_urlpatterns)


CODE = re.compile(r"(?:[2-9TJQKA][SHDC]|SJ|BJ)")


def attr(html, name):
    m = re.search(rf'{name}="([^"]*)"', html)
    return m.group(1) if m else None


def view_codes(view) -> Counter:
    """Every card code in a JSON view (what that seat may know), as a multiset."""
    out: Counter = Counter()

    def walk(x, key=None):
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif isinstance(x, str) and CODE.fullmatch(x) and key not in ("level",):
            out[x] += 1

    walk(view)
    return out


def _step(room_id):
    from games.models import Room

    room = Room.objects.get(pk=room_id)
    make_due(room)
    return play_turn(room.pk, room.version)


def _state_for(hand_id, count):
    from games.models import Hand

    hand = Hand.objects.select_related("match__room").get(pk=hand_id)
    return services.hand_state(hand, upto=count)


async def test_hidden_information_through_a_whole_shengji_hand(sj_bot_room, alice):
    room = sj_bot_room
    await database_sync_to_async(services.set_autoplay)(room.pk, alice, True)
    comm = PagedCommunicator(APP, f"/ws/rooms/{room.pk}/")
    comm.scope["user"] = alice
    connected, _ = await comm.connect()
    assert connected
    messages = [await comm.receive_from(timeout=5)]
    hand = await database_sync_to_async(services.current_hand)(room)
    for _ in range(3000):
        done = await database_sync_to_async(lambda: services.current_hand(room).complete)()
        if done:
            break
        result = await database_sync_to_async(_step)(room.pk)
        assert result in ("bot", "timeout")
        messages.append(await comm.receive_from(timeout=10))
    else:
        pytest.fail("hand did not finish")
    await comm.disconnect()

    checked, phases = 0, Counter()
    for html in messages:
        if attr(html, "data-hand") != str(hand.pk):
            continue
        count = int(attr(html, "data-actions"))
        state = await database_sync_to_async(_state_for)(hand.pk, count)
        if RULES.is_complete(state):
            assert 'id="result-panel"' in html
            continue  # after the hand everything may be shown
        phases[state.phase] += 1
        mine = RULES.view(state, 0)
        own = hand_codes(html)
        # every card drawn outside the hand: the felt (the trick on the table,
        # or the one just won) and the rest (比牌, the last trick, which holds
        # the trick just won again): the larger count of each code
        felt = re.search(r'<section id="felt".*?</section>', html, re.S)
        felt_html = felt.group(0) if felt else ""
        public = Counter(re.findall(r'data-c="([^"]+)" data-card=', felt_html)) | Counter(
            re.findall(r'data-c="([^"]+)" data-card=', html.replace(felt_html, "")))
        # 1. exactly seat 0's own hand, in the engine's order
        assert own == mine["hand"], f"after {count} actions"
        # 2. the public cards drawn are a sub-multiset of what seat 0 may know
        allowed = view_codes(mine)
        assert not (Counter(own) + public) - allowed, f"after {count} actions"
        #    (the view holds no card of another seat's hand except public ones:
        #    shown 比牌, plays, 还牌 cards seat 0 received)
        # 3. the kitty: only the dealer from the bury on (S15)
        dealer_burying = state.dealer == 0 and state.phase in ("bury", "play")
        if 'data-kitty="1"' in html or 'class="sj-kitty"' in html:
            assert dealer_burying, f"kitty shown to seat 0 after {count} actions"
        if state.dealer == 0 and state.phase == "bury":
            marked = kitty_codes(html)
            assert sorted(marked) == sorted(c.code for c in state.deal.kitty)
        checked += 1
    assert checked > 30
    # the play phase's states checked: at least two tricks (a random deal's
    # hand of long throws and tractors had 20 play actions in all: five tricks)
    assert phases["auction"] and phases["play"] >= 8
