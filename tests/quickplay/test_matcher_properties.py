"""The matchmaker pass (quickplay.matcher, pure) over random arrival
sequences: nobody is seated twice, nobody waits past his bot-fill
time, tables are full, the rating spread is within every seated party's
window; pairs sit as partners; "never" means no bots."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quickplay.matcher import Layout, Party, Table, Window, match, window

pytestmark = pytest.mark.pure  # no topology: the embedded half runs it (Makefile)


SHENGJI = Layout(4, ((0, 2), (1, 3)))
BAOHUANG = Layout(5)
STEP = 2.0  # seconds between passes
HORIZON = 120.0

arrival = st.tuples(
    st.floats(0, 90, allow_nan=False),                 # when it joins
    st.sampled_from([1, 1, 1, 2]),                      # a player or a pair
    st.integers(900, 2300),                             # rating
    st.sampled_from([10.0, 30.0, None]),                # bot wait: 10 s, 30 s, never
)


def simulate(arrivals, layout: Layout, params: Window = Window()):
    """Run passes every STEP seconds; check every pass; return (parties, seated)."""
    parties = [
        Party(i, size if layout.pair_slots else 1, float(r), t, w)
        for i, (t, size, r, w) in enumerate(arrivals)
    ]
    seated: dict[int, tuple[float, Table]] = {}
    now = 0.0
    while now <= HORIZON:
        waiting = [p for p in parties if p.since <= now and p.id not in seated]
        tables = match(waiting, layout, now, params)
        by_id = {p.id: p for p in waiting}
        for table in tables:
            assert len(table.seats) == layout.seats                     # full: parties + bots
            members = [by_id[i] for i in table.parties]
            assert sum(p.size for p in members) + table.bots == layout.seats
            for p in members:
                assert p.id not in seated, "seated twice"
                seated[p.id] = (now, table)
                assert table.seats.count(p.id) == p.size
                if p.size == 2:
                    slot = tuple(s for s, q in enumerate(table.seats) if q == p.id)
                    assert slot in layout.pair_slots                    # partners
            ratings = [p.rating for p in members]
            spread = max(ratings) - min(ratings)
            for p in members:
                assert spread <= window(p.waited(now), params) + 1e-9    # within every window
                if table.bots:
                    assert p.bots_allowed(now)                           # bots only when chosen and due
        for p in waiting:
            if p.id not in seated:
                assert not p.bots_allowed(now), "waited past the bot-fill time"
        now += STEP
    for p in parties:
        if p.bot_wait is not None and p.since + p.bot_wait + STEP <= HORIZON:
            assert p.id in seated
            assert seated[p.id][0] <= p.since + p.bot_wait + STEP
    return parties, seated


@settings(max_examples=150, deadline=None)
@given(st.lists(arrival, max_size=60))
def test_shengji_passes_keep_every_promise(arrivals):
    simulate(arrivals, SHENGJI)


@settings(max_examples=150, deadline=None)
@given(st.lists(arrival, max_size=60))
def test_baohuang_passes_keep_every_promise(arrivals):
    simulate(arrivals, BAOHUANG)


@settings(max_examples=50, deadline=None)
@given(st.lists(arrival, max_size=40), st.floats(0, 200), st.floats(0, 30), st.floats(0, 500))
def test_any_window_parameters(arrivals, base, per_second, extra):
    simulate(arrivals, SHENGJI, Window(base, per_second, base + extra))


def test_similar_players_get_a_human_table_at_once():
    parties = [Party(i, 1, 1500 + 10 * i, 0.0, None) for i in range(4)]
    (table,) = match(parties, SHENGJI, now=0.0)
    assert table.bots == 0 and sorted(table.parties) == [0, 1, 2, 3]


def test_the_window_widens_with_waiting_time():
    parties = [Party(0, 1, 1000, 0.0), Party(1, 1, 1300, 0.0), Party(2, 1, 1310, 0.0),
               Party(3, 1, 1320, 0.0)]
    assert match(parties, SHENGJI, now=0.0) == []          # 320 apart, window 60
    (table,) = match(parties, SHENGJI, now=30.0)           # window 60 + 12 * 30 = 420
    assert table.bots == 0


def test_bots_fill_only_after_the_chosen_wait_and_never_for_never():
    alone = Party(0, 1, 1500, 0.0, 10.0)
    never = Party(1, 1, 3000, 0.0, None)
    assert match([alone, never], BAOHUANG, now=9.9) == []
    (table,) = match([alone, never], BAOHUANG, now=10.0)
    assert table.parties == (0,) and table.bots == 4
    assert match([never], BAOHUANG, now=10_000.0) == []


def test_a_pair_sits_as_partners():
    pair = Party(0, 2, 1500, 0.0, 10.0)
    (table,) = match([pair, Party(1, 1, 1490, 0.0), Party(2, 1, 1510, 0.0)], SHENGJI, now=0.0)
    assert table.seats[0] == table.seats[2] == 0 and table.bots == 0
