"""The public part of a game's board is built once per version and language
for every viewer whose view equals the view for no seat where it reads
(docs/performance.md, part 8).

``tables.table_view`` hands the game's ``table_regions`` the part its
``GameSpec.board_shared`` builds from the :class:`PublicTable`
(``table.shared_board``) when the viewer's engine view holds the public
view's values under every key of ``GameSpec.board_reads``; otherwise None,
and the game builds that part from the viewer's own view, as before.  For
升级 the part is the auction piles (S13), the plays of the trick and the
last trick, a failed throw (S11/S12), the levels, the shown card, the opener
and the auction's winner: never the viewer's hand nor its aids (``led_suit``
stays per viewer).
"""

from __future__ import annotations

import dataclasses

import pytest

from games import registry
from games.live import snapshots as live
from games.render import memo, tables
from games.shengji import table as sj_table
from tests.site.shengji_fixtures import auto, sj_humans, state_of, to_phase  # noqa: F401 (fixture)


def _long(room, user, snap, monkeypatch):
    """The regions the long path (no sharing) builds for ``user``."""
    with monkeypatch.context() as m:
        m.setattr(memo, "CHECK", True)
        table = tables.table_view(room, user, snapshot=snap)
        assert table.shared_board is None
        return table.spec.table_regions(table)


def _midtrick(room, users):
    """Into the play phase, one card or more of a trick on the table."""
    to_phase(room, users, "play")
    auto(room, users)


@pytest.mark.django_db
def test_every_viewer_takes_the_one_public_board_and_equals_the_long_path(sj_humans, monkeypatch):
    room, users = sj_humans
    _midtrick(room, users)
    snap = live.load_snapshot(room.pk)
    built = []
    real = sj_table._public_board
    monkeypatch.setattr(sj_table, "_public_board", lambda *a: built.append(1) or real(*a))
    shared = None
    for user in [*users, None]:
        table = tables.table_view(room, user, snapshot=snap)
        assert table.shared_board is not None
        shared = shared or table.shared_board
        assert table.shared_board is shared  # one for all
        game = table.spec.table_regions(table)
        assert game == _long(room, user, snap, monkeypatch)
        assert game.trick["plays"] is shared["trick_plays"] and game.piles is shared["piles"]
    assert len(built) == 1 + 5  # once shared, then once per long path


@pytest.mark.django_db
def test_a_viewer_whose_view_differs_builds_his_own(sj_humans, monkeypatch):
    """A key the part reads where a seat's view is not the public one (its
    own hand, here declared read) makes every seat build its own; the
    spectator, whose view is the public one, still shares."""
    room, users = sj_humans
    _midtrick(room, users)
    spec = registry.get("shengji")
    monkeypatch.setitem(registry._specs, "shengji",
                        dataclasses.replace(spec, board_reads=(*spec.board_reads, "hand")))
    snap = live.load_snapshot(room.pk)
    for user in users:
        table = tables.table_view(room, user, snapshot=snap)
        assert table.shared_board is None
        assert table.spec.table_regions(table) == _long(room, user, snap, monkeypatch)
    assert tables.table_view(room, None, snapshot=snap).shared_board is not None


@pytest.mark.django_db
def test_led_suit_stays_the_viewers_own(sj_humans, monkeypatch):
    """The shared part carries no aid: the lead's suit comes from each
    viewer's aids (a spectator's are empty)."""
    room, users = sj_humans
    _midtrick(room, users)
    snap = live.load_snapshot(room.pk)
    shared = tables.table_view(room, None, snapshot=snap).shared_board
    assert "led_suit" not in repr(shared)
    for user in [*users, None]:
        table = tables.table_view(room, user, snapshot=snap)
        game = table.spec.table_regions(table)
        assert game.trick["led_suit"] == (table.aids["led_suit"] if table.aids else "")


@pytest.mark.django_db
def test_the_public_board_reads_only_the_keys_it_declares(sj_humans):
    """``_public_board`` reads no key of the view beyond ``BOARD_READS``
    (so the comparison covers everything it shows)."""
    room, users = sj_humans
    _midtrick(room, users)
    state = state_of(room)
    view = registry.get("shengji").rules.view(state, None)
    seen = set()

    class Recording(dict):
        def __getitem__(self, key):
            seen.add(key)
            return super().__getitem__(key)

        def get(self, key, default=None):
            seen.add(key)
            return super().get(key, default)

    sj_table._public_board(["a", "b", "c", "d"], Recording(view))
    assert seen <= set(sj_table.BOARD_READS)
    assert {"piles", "trick", "levels"} <= seen


@pytest.mark.django_db
def test_no_sharing_without_the_hook_or_in_the_reference(sj_humans, monkeypatch):
    room, users = sj_humans
    _midtrick(room, users)
    snap = live.load_snapshot(room.pk)
    spec = registry.get("shengji")
    monkeypatch.setitem(registry._specs, "shengji", dataclasses.replace(spec, board_shared=None))
    table = tables.table_view(room, users[0], snapshot=snap)
    assert table.shared_board is None
    assert table.spec.table_regions(table) == _long(room, users[0], snap, monkeypatch)


@pytest.mark.django_db
def test_a_shared_board_that_does_not_say_what_it_reads_is_shared_with_no_one(sj_humans, monkeypatch):
    """``board_reads`` not said (None, the default) shares the part with no
    viewer, the spectator included: every one builds its own board (the
    default used to be ``()``, "reads nothing", which shared it with all)."""
    room, users = sj_humans
    _midtrick(room, users)
    snap = live.load_snapshot(room.pk)
    spec = registry.get("shengji")
    assert spec.board_shared is not None and spec.board_reads  # the game says it
    monkeypatch.setitem(registry._specs, "shengji", dataclasses.replace(spec, board_reads=None))
    for user in [*users, None]:
        table = tables.table_view(room, user, snapshot=snap)
        assert table.shared_board is None
    assert registry.GameSpec.__dataclass_fields__["board_reads"].default is None
