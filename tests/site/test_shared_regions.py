"""Shared regions: the parts of the table every viewer sees alike, rendered
once per room version and language for all of them (``GameSpec.shared_regions``,
:func:`games.render.tables.shared_region`, ``{{ region.shared(…) }}``).

Hidden information is the point (B10): a shared region is rendered from the
engine's view for no seat, never from the view of the seat whose render
happens to come first, so the guard's own seat (which knows it is the guard)
and any other seat get the very same html while the guard is secret, and the
per-seat regions (the guard's name in ``bh-public`` for the guard alone, each
seat's hand) still differ where they must.  The fragments themselves are
byte-identical to rendering every region per seat (``scripts/render_bench.py
--dump`` before and after; here: against :data:`games.render.memo.CHECK`).

The seats' and the plays' regions (``region.rows(…, shared="seats")``,
:func:`games.render.tables.shared_rows`) say nothing of where the viewer
sits (the table's ``data-ref`` does, for ring.css), so they are rendered
once per version from the view for no seat and spliced into the render of
every viewer whose own rows equal them; a row that differs for a viewer (the
guard's own seat, to the guard; the 4H* holder's turn during his
declaration, to himself; a seat a spectator may take) is that viewer's own.
"""

from __future__ import annotations

import dataclasses

import pytest
from django.utils import translation
from markupsafe import Markup

from games import registry, services
from games.live import snapshots as live
from games.render import memo, regions, tables
from tests.site.secret_guard import _drive, declaring

pytestmark = pytest.mark.django_db
RULES = registry.get("baohuang").rules
SHARED = ("top-set", "last-round")


def test_a_shared_region_is_the_same_for_the_guard_and_another_seat(secret_guard):
    room, users, guard, emperor = secret_guard
    other = next(i for i in range(5) if i not in (guard, emperor))
    snap = live.load_snapshot(room.pk)
    # the guard's seat renders first: what it alone knows must not reach the others
    mine = live.render_seat(snap, users[guard], snap.version, None)
    theirs = live.render_seat(snap, users[other], snap.version, None)
    watcher = live.render_seat(snap, None, snap.version, None)
    for rid in SHARED:
        assert rid in mine.parts
        assert mine.parts[rid] == theirs.parts[rid] == watcher.parts[rid]
        assert mine.parts[rid][2] in theirs and mine.parts[rid][2] in watcher
    # once per version and language: the kept html is the one every seat got
    assert snap.rendered[("region", "top-set", translation.get_language())] == mine.parts["top-set"]
    # per seat where it must: the guard sees itself named in bh-public, nobody else does
    name = users[guard].username
    assert f"保皇：{name}" in mine.parts["bh-public"][2]
    assert "保皇：" not in theirs.parts["bh-public"][2] and "保皇：" not in watcher.parts["bh-public"][2]
    assert mine.parts["my-hand"] != theirs.parts["my-hand"]
    assert "my-hand" not in watcher.parts


def test_shared_renders_equal_per_seat_renders(secret_guard, monkeypatch):
    """Every seat's and a spectator's fragment, in two languages, with the shared
    regions kept on the snapshot equals the reference render that keeps nothing
    (every region rendered per seat)."""
    room, users, _guard, _emperor = secret_guard
    snap = live.load_snapshot(room.pk)
    now = tables.timezone.now()
    monkeypatch.setattr(tables.timezone, "now", lambda: now)  # data-server-now: the same in both
    for language in ("zh-hans", "en"):
        with translation.override(language):
            shared = [live.render_seat(snap, u, snap.version, None) for u in [*users, None]]
            monkeypatch.setattr(memo, "CHECK", True)
            fresh = dataclasses.replace(snap)  # its own (empty) rendered dict
            reference = [live.render_seat(fresh, u, snap.version, None) for u in [*users, None]]
            monkeypatch.setattr(memo, "CHECK", False)
        assert [str(h) for h in shared] == [str(h) for h in reference]
        assert [h.parts for h in shared] == [h.parts for h in reference]
        assert not fresh.rendered.get(("region", "top-set", language))


def test_a_new_version_starts_with_nothing_rendered(secret_guard):
    room, _users, _guard, _emperor = secret_guard
    snap = live.load_snapshot(room.pk)
    tables.shared_region(snap, "top-set", _block())
    assert snap.rendered
    stepped = dataclasses.replace(snap, steps=snap.steps + 1)
    assert stepped.rendered == {}


def _block():
    from django.template import engines

    env = engines["jinja2"].env
    return env.get_template("games/baohuang/_board_blocks.html").module.bh_top


def test_only_declared_regions_are_shared(secret_guard):
    room, _users, _guard, _emperor = secret_guard
    snap = live.load_snapshot(room.pk)
    with pytest.raises(ValueError, match="not one of the game's shared regions"):
        tables.shared_region(snap, "bh-public", _block())
    with pytest.raises(ValueError, match="only in a table render"):
        regions.region.shared("top-set", _block())
    assert regions.Regions(lambda rid, block: None).shared("top-set", _block()) == Markup("")


def test_the_public_table_is_the_view_for_no_seat(secret_guard):
    room, _users, guard, _emperor = secret_guard
    snap = live.load_snapshot(room.pk)
    public = tables.public_table(snap)
    assert public.view == RULES.view(snap.state, None)
    assert public.view["guard"] is None  # secret (B10)
    assert RULES.view(snap.state, guard)["guard"] == guard
    assert public.names == tables.table_view(room, None, snapshot=snap).names


def _rows(html, prefix):
    """Region id -> its html, of the regions named ``prefix<seat>``."""
    return {rid: part[2] for rid, part in html.parts.items() if rid.startswith(prefix)}


def test_seats_and_plays_are_one_html_for_every_viewer_and_the_guard_stays_secret(secret_guard):
    """The guard's seat renders first; every other seat and a spectator get
    the very same seats and plays (the rows rendered once from the view for
    no seat), with no trace of where they sit; only the guard's own seat, to
    the guard, names him the guard (B10), and no one else's render does."""
    room, users, guard, _emperor = secret_guard
    snap = live.load_snapshot(room.pk)
    viewers = [users[guard], *[u for i, u in enumerate(users) if i != guard], None]
    renders = [live.render_seat(snap, u, snap.version, None) for u in viewers]
    mine, others = renders[0], renders[1:]
    plays = _rows(mine, "play-")
    assert len(plays) == 5 and any("data-played-seat" in h for h in plays.values())
    seats = _rows(mine, "seat-")
    assert len(seats) == 5
    for html in others:
        assert _rows(html, "play-") == plays
        theirs = _rows(html, "seat-")
        assert {k: v for k, v in theirs.items() if k != f"seat-{guard}"} == {
            k: v for k, v in seats.items() if k != f"seat-{guard}"}
        assert "role guard" not in theirs[f"seat-{guard}"] and "role guard" not in str(html)
    assert "role guard" in seats[f"seat-{guard}"]  # the guard knows himself
    # nothing of the viewer's place in a seat or a play: one number on the root
    for viewer, html in zip(viewers, renders):
        for region in [*_rows(html, "seat-").values(), *_rows(html, "play-").values()]:
            assert "data-pos" not in region and "pos-" not in region and " me" not in region
        ref = users.index(viewer) if viewer is not None else 0
        assert f' data-ref="{ref}"' in str(html)[:str(html).index(">")]
    # the rows shared on the snapshot come from the view for no seat: no guard in them
    shared = [v for k, v in snap.rendered.items() if k[0] == "rows"]
    assert len(shared) == 2  # the seats and the plays, once each (one language)
    assert all("role guard" not in found[2] for rows in shared for _inputs, found in rows)
    assert {found[2] for _inputs, found in shared[0]} | {found[2] for _inputs, found in shared[1]} >= (
        set(_rows(others[0], "seat-").values()) | set(plays.values()))


def test_the_declarers_turn_stays_his_own(_guard_seed, five_humans):
    """While the ♥4* holder declares, only his own view says he is to act
    (B10): his seat carries the turn (and its timer) in his render alone;
    everyone else gets the shared seats, with no seat to act."""
    room, users = five_humans
    _drive(room, users, declaring)
    st = services.hand_state(services.current_hand(room))
    holder = st.to_act
    snap = live.load_snapshot(room.pk)
    renders = {i: live.render_seat(snap, users[i], snap.version, None) for i in [holder, *range(5)]}
    watcher = live.render_seat(snap, None, snap.version, None)
    assert 'class="seat turn"' in renders[holder].parts[f"seat-{holder}"][2]
    for i, html in [*renders.items(), (None, watcher)]:
        if i == holder:
            continue
        assert "turn" not in html.parts[f"seat-{holder}"][2]
        assert _rows(html, "seat-") == _rows(watcher, "seat-")


def test_a_seat_a_spectator_may_take_is_the_spectators_own(make_user, multipliers):
    """A waiting table with empty seats: a spectator's seats offer 坐下, the
    seated player's (the shared rows) do not."""
    owner = make_user("owner")
    room = services.create_room(owner, "baohuang", "空座房", turn_seconds=30, bot_delay_ms=0)
    snap = live.load_snapshot(room.pk)
    seated = live.render_seat(snap, owner, snap.version, None)
    watcher = live.render_seat(snap, make_user("watcher"), snap.version, None)
    assert "data-seat-take" not in seated and watcher.count("data-seat-take") == 4
    assert seated.parts["seat-0"] == watcher.parts["seat-0"]  # his own seat: nothing to take
    assert seated.parts["seat-1"] != watcher.parts["seat-1"]


def test_shared_rows_only_for_the_public_tables_rows(secret_guard):
    room, _users, _guard, _emperor = secret_guard
    snap = live.load_snapshot(room.pk)
    with pytest.raises(ValueError, match="not shared rows"):
        tables.shared_rows(snap, "names", "x-", None, ["index"], {})


def test_ring_css_places_every_seat_from_its_index_and_the_viewers_reference():
    """ring.css's generated block is up to date, and for every ring size and
    (reference, seat) it names the ring position (seat - ref) mod n once."""
    import importlib.util
    import re
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "ring_css.py"
    loader = importlib.util.spec_from_file_location("ring_css", path)
    ring_css = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(ring_css)
    text = ring_css.CSS.read_text(encoding="utf-8")
    assert ring_css.rewritten(text) == text, "python scripts/ring_css.py"
    assert {spec.seats for spec in registry.specs()} <= set(ring_css.RINGS)
    found = {}
    for line in ring_css.block().splitlines():
        m = re.match(r":is\((.*)\) \{ --area: p(\d+);", line)
        if m:
            for ring, ref, seat in re.findall(r'\[data-ring="(\d+)"\]\[data-ref="(\d+)"\] \[data-seat="(\d+)"\]', m.group(1)):
                key = (int(ring), int(ref), int(seat))
                assert key not in found
                found[key] = int(m.group(2))
    assert found == {(n, ref, seat): (seat - ref) % n for n in ring_css.RINGS for ref in range(n) for seat in range(n)}
