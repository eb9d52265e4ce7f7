"""The one room-state cache (``games.services.roomcache``): keyed by room and
version, a newer version drops the older one's entries, an older one is
ignored unless read fresh, a kept turn serves once, and one reset empties it
with the hand states and the render's memo blocks."""

from __future__ import annotations

import pytest

from games import services
from games.render import memo
from games.services import readmodel, roomcache, turncache


def test_newer_version_replaces_older_is_ignored():
    roomcache.forget()
    assert roomcache.put(7, 3, "snapshot", "s3")
    assert roomcache.put(7, 3, "turn", "t3")
    assert roomcache.newest(7, "snapshot") == (3, "s3") and roomcache.newest(7, "turn") == (3, "t3")
    assert not roomcache.put(7, 2, "snapshot", "s2"), "an older version is not kept"
    assert roomcache.newest(7, "snapshot") == (3, "s3")
    assert roomcache.put(7, 4, "snapshot", "s4")
    assert roomcache.newest(7, "turn") is None, "the older version's entries went with it"
    assert roomcache.put(7, 2, "snapshot", "fresh", replace=True)  # a database read is the truth
    assert roomcache.newest(7, "snapshot") == (2, "fresh")
    roomcache.forget(7)
    assert roomcache.newest(7, "snapshot") is None


def test_a_kept_turn_serves_once_and_only_its_version():
    roomcache.forget()
    roomcache.put(9, 5, turncache.KIND, ("room", "hand", "seats"))
    assert turncache.kept_version(9) == 5
    assert turncache.take(9, 4) is None  # an older task: nothing, the entry stays
    assert turncache.take(9, 5) == ("room", "hand", "seats")
    assert turncache.take(9, 5) is None, "served once"
    roomcache.put(9, 6, turncache.KIND, "kept")
    assert turncache.take(9, 7) is None and turncache.kept_version(9) is None  # older than asked: dropped


@pytest.mark.django_db
def test_one_reset_empties_every_cache(bot_room):
    hand = services.current_hand(bot_room)
    services.hand_state(hand)
    assert readmodel._cache
    memo._kept["k"] = ("block", "html")
    roomcache.put(bot_room.pk, 1, "snapshot", "s")
    services.reset_caches()
    assert not readmodel._cache and not readmodel._newest and not readmodel._completed
    assert not memo._kept
    assert roomcache.newest(bot_room.pk, "snapshot") is None
