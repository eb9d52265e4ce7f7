"""The in-process hand-state cache (``services.hand_state``): a state extended
incrementally from an older cached count equals a full rebuild from the deal,
costs one query for the new rows only, and a cached count is never served for
a hand that has moved on."""

from __future__ import annotations

import pytest

from games import services
from games.engine import get_rules
from games.models import Hand

from .shengji_fixtures import sj_bot_room  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def _hand(room) -> Hand:
    return Hand.objects.select_related("match__room").get(pk=services.current_hand(room).pk)


def _rebuilt(hand: Hand, n: int):
    """The state after ``n`` actions replayed from the deal, cache bypassed."""
    services.clear_cache()
    state = services.hand_state(hand, count=n)
    services.clear_cache()
    return state


def _same_game(a, b, rules) -> bool:
    """Equal for every viewer (each seat, spectators) and on who acts.  (A
    state built live by ``do_move`` holds the engine's own ``Deal`` object,
    which compares unequal to the one read back from the record although the
    cards are the same; what players can see must match.)"""
    return rules.to_act(a) == rules.to_act(b) and all(
        rules.view(a, seat) == rules.view(b, seat) for seat in [None, *range(rules.seats)]
    )


def _play(room, driver, actions: int) -> None:
    """Let the bots make ``actions`` more moves in the current hand."""
    start = services.action_count(services.current_hand(room))
    driver(room, lambda r: services.action_count(services.current_hand(r)) >= start + actions
           or services.current_hand(r).complete)


@pytest.mark.parametrize("room_fixture", ["bot_room", "sj_bot_room"])
def test_incremental_extension_equals_full_rebuild(room_fixture, request, driver, alice):
    """保皇 and 升級: cached at k actions, asked for n > k, the cache applies
    only actions k..n-1 with one query, and the result equals the state
    replayed from the deal (every seat's view too)."""
    room = request.getfixturevalue(room_fixture)
    services.set_autoplay(room, alice, True)
    rules = get_rules(room.game)
    _play(room, driver, 6)
    hand = _hand(room)
    k = services.action_count(hand)
    _play(room, driver, 9)
    hand = _hand(room)
    n = services.action_count(hand)
    assert n > k + 1, "the bots must have moved more than once"
    expected = _rebuilt(hand, n)

    services.hand_state(hand, count=k)  # this process followed the hand up to k
    before = dict(services.cache_stats)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        extended = services.hand_state(hand, count=n)
    assert len(queries) == 1 and "seq" in queries[0]["sql"]
    assert services.cache_stats["extended"] == before["extended"] + 1
    assert services.cache_stats["rebuilt"] == before["rebuilt"]
    assert services.cache_stats["applied"] - before["applied"] == n - k
    assert extended == expected
    for seat in [None, *range(rules.seats)]:
        assert rules.view(extended, seat) == rules.view(expected, seat)


def test_extension_from_payloads_needs_no_query(bot_room, driver, alice):
    services.set_autoplay(bot_room, alice, True)
    _play(bot_room, driver, 8)
    hand = _hand(bot_room)
    payloads = list(hand.actions.order_by("seq").values_list("payload", flat=True))
    services.clear_cache()
    services.hand_state(hand, count=3)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        state = services.hand_state(hand, payloads=payloads)
    assert len(queries) == 0
    assert state == _rebuilt(hand, len(payloads))


def test_a_new_action_is_never_answered_from_an_older_cached_state(bot_room, driver, alice):
    """After one more action the count moves on: the state served includes
    it (it differs from the cached one and equals a rebuild)."""
    services.set_autoplay(bot_room, alice, True)
    _play(bot_room, driver, 3)
    hand = _hand(bot_room)
    n = services.action_count(hand)
    old = services.hand_state(hand, count=n)
    _play(bot_room, driver, 1)
    hand = _hand(bot_room)
    assert services.action_count(hand) == n + 1
    new = services.hand_state(hand)  # counts the stored actions itself
    assert new.log != old.log and len(new.log) == n + 1
    assert _same_game(new, _rebuilt(hand, n + 1), get_rules("baohuang"))


def test_an_earlier_upto_is_replayed_not_extended(bot_room, driver, alice):
    """Only forward extension: asking for fewer actions than the newest cached
    count replays from the deal (a replay page stepping backwards)."""
    services.set_autoplay(bot_room, alice, True)
    _play(bot_room, driver, 6)
    hand = _hand(bot_room)
    n = services.action_count(hand)
    services.clear_cache()
    services.hand_state(hand, count=n)  # cached: the deal and n actions only
    before = services.cache_stats["rebuilt"]
    early = services.hand_state(hand, upto=2)
    assert services.cache_stats["rebuilt"] == before + 1
    assert early == _rebuilt(hand, 2)
