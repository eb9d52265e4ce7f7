"""A viewer's seat rows are the public ones, not built again, when its view
shows the seats as the view for no seat does (docs/performance.md, part 7).

``tables.table_view`` takes :func:`games.render.tables.public_seats_for`: the
very rows of :func:`games.render.tables.public_table` when the viewer's
engine view holds the public view's values under every key the rows read
(the generic ``counts`` and ``to_act``, and the game's ``GameSpec.seat_reads``:
the keys its ``seat_tags``, ``seat_place`` and ``seat_plays`` read) and it
has no seat to take; otherwise its own rows (``seat_views``), as before.
The region renderer then splices the shared rows' html without building
each row's inputs (``Regions.rows``, the rows being the shared rows' source).

Hidden information (B10): the secret guard's own view differs in ``guard``
and the ♥4* holder's in ``to_act`` while he declares, so both build their
own; the public rows come from the view for no seat only.  The fragments
themselves equal the reference that shares nothing (``memo.CHECK``:
``test_shared_regions.test_shared_renders_equal_per_seat_renders``).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from markupsafe import Markup

from games import registry
from games.live import snapshots as live
from games.render import memo, regions, tables
from games.render.regions import Regions
from tests.site.secret_guard import _drive, declaring

GAMES = ("baohuang", "shengji")


def _own_rows(snap, user):
    """The rows ``seat_views`` builds for ``user`` (the long path)."""
    room = snap.room
    spec = registry.get(room.game)
    me = tables.seat_of(snap.seats, user)
    view = spec.rules.view(snap.state, me) if snap.hand is not None else None
    to_act = (view or {}).get("to_act") if snap.hand is not None and not snap.complete else None
    deadline_ms = tables.epoch_ms(room.deadline) if room.status == room.Status.PLAYING else 0
    return tables.seat_views(snap, spec, view, to_act, deadline_ms, may_take=me is None)


@pytest.mark.django_db
def test_other_seats_take_the_public_rows_and_the_secret_guard_his_own(secret_guard):
    """B10: every seat but the secret guard's, and a spectator of a full
    table, gets the public rows themselves; the guard builds his own, which
    alone tag him; each taken row equals the row the long path builds."""
    room, users, guard, _emperor = secret_guard
    snap = live.load_snapshot(room.pk)
    public = tables.public_table(snap).seats
    for i, user in [*enumerate(users), (None, None)]:
        seats = tables.table_view(room, user, snapshot=snap).seats
        assert seats == _own_rows(snap, user)
        if i == guard:
            assert seats is not public
            assert "role guard" in [t.css for t in seats[guard].shown["tags"]]
        else:
            assert seats is public
    assert all("role guard" not in [t.css for t in row.shown["tags"]] for row in public)


@pytest.mark.django_db
def test_the_declarer_builds_his_own_rows(_guard_seed, five_humans):
    """B10: while the ♥4* holder declares, only his view says he is to act;
    he builds his own rows (his turn, his clock), everyone else takes the
    public rows (no one to act)."""
    room, users = five_humans
    _drive(room, users, declaring)
    snap = live.load_snapshot(room.pk)
    holder = snap.state.to_act
    public = tables.public_table(snap).seats
    for i, user in enumerate(users):
        seats = tables.table_view(room, user, snapshot=snap).seats
        assert seats == _own_rows(snap, user)
        assert (seats is public) is (i != holder)
    assert tables.table_view(room, users[holder], snapshot=snap).seats[holder].is_turn
    assert not any(row.is_turn for row in public)


@pytest.mark.django_db
def test_a_spectator_with_a_seat_to_take_builds_his_own(make_user, multipliers):
    owner = make_user("owner")
    from games import services

    room = services.create_room(owner, "baohuang", "空座房", turn_seconds=30, bot_delay_ms=0)
    snap = live.load_snapshot(room.pk)
    public = tables.public_table(snap).seats
    assert tables.table_view(room, owner, snapshot=snap).seats is public
    watcher = tables.table_view(room, make_user("watcher"), snapshot=snap).seats
    assert watcher is not public and [r.can_take for r in watcher] == [False, True, True, True, True]


@pytest.mark.django_db
def test_no_rows_taken_when_the_game_does_not_say_or_in_the_reference(secret_guard, monkeypatch):
    """A game without ``seat_reads`` (a third game's default) and the tests'
    reference (``memo.CHECK``) build every viewer's rows."""
    room, users, guard, _emperor = secret_guard
    other = (guard + 1) % 5
    snap = live.load_snapshot(room.pk)
    public = tables.public_table(snap).seats
    monkeypatch.setattr(memo, "CHECK", True)
    assert tables.table_view(room, users[other], snapshot=snap).seats is not public
    monkeypatch.setattr(memo, "CHECK", False)
    spec = registry.get("baohuang")
    monkeypatch.setitem(registry._specs, "baohuang", dataclasses.replace(spec, seat_reads=None))
    seats = tables.table_view(room, users[other], snapshot=snap).seats
    assert seats is not public and seats == public


@pytest.mark.django_db
def test_taken_rows_are_spliced_without_building_their_inputs(secret_guard, monkeypatch):
    """The render of a viewer who took the public rows builds no row's
    inputs (the shared rows are its rows); the guard's compares his own."""
    room, users, guard, _emperor = secret_guard
    other = (guard + 1) % 5
    snap = live.load_snapshot(room.pk)
    first = live.render_seat(snap, users[other], snap.version, None)  # builds the shared rows
    built = []
    real = regions.row_inputs
    monkeypatch.setattr(regions, "row_inputs", lambda *a: built.append(a[0]) or real(*a))
    again = live.render_seat(snap, users[(guard + 2) % 5], snap.version, None)
    assert built == []
    assert {k: v for k, v in again.parts.items() if k[:5] in ("seat-", "play-")} == {
        k: v for k, v in first.parts.items() if k[:5] in ("seat-", "play-")}
    live.render_seat(snap, users[guard], snap.version, None)
    assert built.count("seat-") == 5 and built.count("play-") == 5


def test_rows_of_the_source_with_another_common_input_are_rendered_again():
    """The splice holds only for the shared rows' own common inputs: rows
    given with another (a stand-in here) are compared and rendered as before."""
    from jinja2 import DictLoader

    from games.render import jinja

    env = jinja.environment(loader=DictLoader({"b": '{% macro box(index, room) %}<i id="r-{{ index }}">'
                                                    '{{ room }}</i>{% endmacro %}'}), autoescape=True)
    box = env.get_template("b").module.box
    source = ({"index": 0}, {"index": 1})
    shared = tuple((dict(r, room=1), regions.kept_region(f"r-{r['index']}", box, dict(r, room=1)))
                   for r in source)
    collector = Regions(None, lambda name, prefix, block, names, common: (source, shared))
    same = collector.rows("r-", box, source, "index", shared="seats", room=1)
    assert same == Markup("".join(found[2] for _inputs, found in shared))
    other = Regions(None, lambda name, prefix, block, names, common: (source, shared)).rows(
        "r-", box, source, "index", shared="seats", room=2)
    assert ">2</i>" in other and ">1</i>" not in other


def _recording(view, seen):
    """``view`` as a mapping that notes every key read."""

    class Recording(dict):
        def get(self, key, default=None):
            seen.add(key)
            return super().get(key, default)

        def __getitem__(self, key):
            seen.add(key)
            return super().__getitem__(key)

        def __contains__(self, key):
            seen.add(key)
            return super().__contains__(key)

    return Recording(view)


@pytest.mark.parametrize("code", GAMES)
def test_the_seat_hooks_read_only_the_keys_the_game_names(code):
    """Through whole hands (seeded, the bots' heuristic), every view (each
    seat's and the spectator's): ``seat_tags``, ``seat_place`` and
    ``seat_plays`` read no key of the view outside ``seat_reads`` (a key
    left out would let a viewer who knows more there take the public rows)."""
    spec = registry.get(code)
    rules = spec.rules
    assert spec.seat_reads is not None
    seen: set = set()
    for seed in (1, 2):
        rng = random.Random(seed)
        match = rules.new_match()
        state = rules.start_hand(match, rules.deal(match, seed))
        for _step in range(600):
            for seat in (None, *range(rules.seats)):
                view = _recording(rules.view(state, seat), seen)
                spec.seat_plays(view)
                for i in range(rules.seats):
                    spec.seat_tags(view, i)
                    spec.seat_place(view, i)
            if state.phase in ("done", "voided"):
                break
            seat = rules.to_act(state)
            if seat is None:
                seat = next(s for s in range(rules.seats) if rules.legal_actions(state, s))
            state = rules.apply(state, rules.bot_action(state, seat, "heuristic", rng))
    assert seen and seen <= set(spec.seat_reads)
